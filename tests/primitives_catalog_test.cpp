// Every line of SYNCSTRESS_PRIMITIVES names a template that instantiates on real and sim and
// offers exactly its kind's interface (primitives/README.md, "Kind interfaces"), so the
// scenario families can drive any row of the list without knowing which primitive it is.
#include <gtest/gtest.h>

#include <concepts>
#include <coroutine>
#include <cstdint>
#include <set>
#include <string>
#include <type_traits>

#include "platform/real.hpp"
#include "platform/sim.hpp"
#include "primitives/all.hpp"

namespace syncstress {
namespace primitives_catalog_test {
namespace {

template <class A>
concept Awaiter = requires(A a, std::coroutine_handle<> h) {
  { a.await_ready() } -> std::convertible_to<bool>;
  a.await_suspend(h);
  a.await_resume();
};

template <class T, Kind kKind, Mode kMode>
constexpr bool offers_kind_interface() {
  if constexpr (std::is_copy_constructible_v<T> || std::is_copy_assignable_v<T>) {
    return false;
  } else if constexpr (kKind == Kind::mutex && kMode == Mode::sync) {
    return std::default_initializable<T> && requires(T & m) {
      m.lock();
      m.unlock();
    };
  } else if constexpr (kKind == Kind::mutex) {
    return std::default_initializable<T> && requires(T & m) {
      { m.lock() } -> Awaiter;
      m.unlock();
    };
  } else if constexpr (kKind == Kind::shared_mutex && kMode == Mode::sync) {
    return std::default_initializable<T> && requires(T & m) {
      m.lock();
      m.unlock();
      m.lock_shared();
      m.unlock_shared();
    };
  } else if constexpr (kKind == Kind::shared_mutex) {
    return std::default_initializable<T> && requires(T & m) {
      { m.lock() } -> Awaiter;
      { m.lock_shared() } -> Awaiter;
      m.unlock();
      m.unlock_shared();
    };
  } else if constexpr (kKind == Kind::semaphore && kMode == Mode::sync) {
    return std::is_constructible_v<T, std::int64_t> && !std::is_convertible_v<std::int64_t, T> &&
           requires(T & s) {
      s.acquire();
      s.release();
    };
  } else if constexpr (kKind == Kind::semaphore) {
    return std::is_constructible_v<T, std::int64_t> && !std::is_convertible_v<std::int64_t, T> &&
           requires(T & s) {
      { s.acquire() } -> Awaiter;
      s.release();
    };
  } else if constexpr (kKind == Kind::event) {
    constexpr bool common = std::is_constructible_v<T, bool> && !std::is_convertible_v<bool, T> &&
                            std::same_as<decltype(T::kAutoReset), const bool> && requires(T & e) {
      e.set();
      e.reset();
    };
    if constexpr (kMode == Mode::sync) {
      return common && requires(T & e) { e.wait(); };
    } else {
      return common && requires(T & e) {
        { e.wait() } -> Awaiter;
      };
    }
  } else {  // work_queue: sync only
    return kMode == Mode::sync && std::default_initializable<T> && requires(T & q) {
      q.push(std::int64_t{1});
      q.consume_once([](std::int64_t) {});
    };
  }
}

#define SYNCSTRESS_CHECK_ROW(tmpl, kind, mode, source, claims, summary) \
  static_assert(offers_kind_interface<tmpl<Real>, kind, mode>(),        \
                #tmpl " on real does not offer its kind interface");    \
  static_assert(offers_kind_interface<tmpl<Sim>, kind, mode>(),         \
                #tmpl " on sim does not offer its kind interface");
SYNCSTRESS_PRIMITIVES(SYNCSTRESS_CHECK_ROW)
#undef SYNCSTRESS_CHECK_ROW

TEST(PrimitivesCatalog, EveryKindAndModeHasAControlOrCorrectedReference) {
  // A scenario needs something that must pass: a control, or a corrected variant.
  std::set<std::string> covered;
  for (const auto& p : all_primitives()) {
    const bool reference = p.source == "control" || p.name.find("_cancel_fixed") != p.name.npos;
    if (reference)
      covered.insert(std::string(to_string(p.kind)) + "/" + std::string(to_string(p.mode)));
  }
  for (const char* cell :
       {"mutex/sync", "mutex/async", "shared_mutex/sync", "shared_mutex/async", "semaphore/sync",
        "semaphore/async", "event/sync", "event/async", "work_queue/sync"}) {
    EXPECT_TRUE(covered.count(cell)) << "no reference primitive for " << cell;
  }
}

TEST(PrimitivesCatalog, DocumentedUnfairnessIsNotClaimedAsFifo) {
  for (const auto& p : all_primitives()) {
    if (p.name == "async_unfair_mutex" || p.name == "event_mutex") {
      EXPECT_EQ(p.claims & kFifoHandoff, 0u) << p.name;
      EXPECT_EQ(p.claims & kStarvationFreedom, 0u) << p.name;
    }
    if (p.name.starts_with("shared_mutex_part8")) {
      // Claimed like any shared mutex, so that the scenarios can catch the published bugs.
      EXPECT_NE(p.claims & kStarvationFreedom, 0u) << p.name;
      EXPECT_NE(p.claims & kNoLostWakeups, 0u) << p.name;
    }
  }
}

}  // namespace
}  // namespace primitives_catalog_test
}  // namespace syncstress
