// What a lock may give (primitives/README.md, "What an acquisition gives"), through the scenario
// families on sim and on real threads: nothing, a bool, or a guard the harness keeps until it
// releases. Primitives whose acquisition gives a guard, and that have no unlock() or release()
// of their own, pass the families that apply to them; a guard that releases nothing, one that
// releases twice (its move leaves the source armed), and a blocking lock that gives false (or a
// guard that holds nothing) are each found. Syncstress-relacy runs a guard lock of its own
// (src/backends/relacy/child/planted.hpp, tests/cli_relacy_child_test.cpp).
//
// The test primitives offer their kind's interface, built from the Platform's mutex or from
// catalogue primitives. Each sim search is deterministic (one seed of the random strategy, or the
// reduced exhaustive search), so its outcome is fixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "backends/sim/on_sim.hpp"
#include "backends/stress/on_real.hpp"
#include "platform/real.hpp"
#include "platform/sim.hpp"
#include "primitives/async_unfair_mutex.hpp"
#include "primitives/awaitable_events.hpp"
#include "primitives/catalog.hpp"
#include "primitives/detail/lock_guard.hpp"
#include "primitives/ticket_mutex.hpp"
#include "primitives/ticket_shared_mutex.hpp"
#include "primitives/wait_on_address_semaphore.hpp"
#include "scenarios/acquire.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/family.hpp"
#include "scenarios/params.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace backends_lock_results_test {
namespace {

using scenarios::Acquisition;
using scenarios::Body;
using scenarios::Family;
using scenarios::Gives;
using scenarios::HeldBy;
using scenarios::Observations;
using scenarios::Params;

// ---------------------------------------------------------------------------------------------
// The test primitives.

/// How a test guard misbehaves, if it does.
enum class GuardBug {
  none,
  move_keeps_source,   ///< its move leaves the source armed: both release
  destructor_forgets,  ///< its destructor releases nothing: the primitive stays held
  tries_once,          ///< the lock only tries, and gives a guard that holds nothing when taken
};

/// The release calls a guard makes.
struct unlock_call {
  template <class M>
  void operator()(M& m) const {
    m.unlock();
  }
};
struct unlock_shared_call {
  template <class M>
  void operator()(M& m) const {
    m.unlock_shared();
  }
};
struct release_call {
  template <class S>
  void operator()(S& s) const {
    s.release();
  }
};

/// A move-only guard: destroying it makes `Release` on what it holds; a moved-from guard holds
/// nothing (but for GuardBug::move_keeps_source). Converts to bool: whether it holds.
template <class Owner, class Release, GuardBug Bug = GuardBug::none>
class scoped_guard {
 public:
  scoped_guard() = default;
  explicit scoped_guard(Owner& owner) : owner_(&owner) {}
  scoped_guard(scoped_guard&& other) noexcept
      : owner_(Bug == GuardBug::move_keeps_source ? other.owner_
                                                  : std::exchange(other.owner_, nullptr)) {}
  scoped_guard& operator=(scoped_guard&&) = delete;
  scoped_guard(const scoped_guard&) = delete;
  scoped_guard& operator=(const scoped_guard&) = delete;
  ~scoped_guard() {
    if (owner_ != nullptr && Bug != GuardBug::destructor_forgets) Release{}(*owner_);
  }
  explicit operator bool() const { return owner_ != nullptr; }

 private:
  Owner* owner_ = nullptr;
};

/// mutex, sync: the platform's mutex, whose lock() gives the guard; no unlock() of its own. A
/// second unlock of the platform's mutex is a violation on sim ("which is not held").
template <class P, GuardBug Bug>
class guard_lock_mutex {
 public:
  using guard = scoped_guard<typename P::mutex, unlock_call, Bug>;

  guard_lock_mutex() = default;
  guard_lock_mutex(const guard_lock_mutex&) = delete;
  guard_lock_mutex& operator=(const guard_lock_mutex&) = delete;

  guard lock() {
    if constexpr (Bug == GuardBug::tries_once) {
      if (!mutex_.try_lock()) return guard();
    } else {
      mutex_.lock();
    }
    return guard(mutex_);
  }

 private:
  typename P::mutex mutex_;
};

template <class P>
using guard_lock_mutex_ok = guard_lock_mutex<P, GuardBug::none>;
template <class P>
using guard_lock_mutex_move_keeps_source = guard_lock_mutex<P, GuardBug::move_keeps_source>;
template <class P>
using guard_lock_mutex_destructor_forgets = guard_lock_mutex<P, GuardBug::destructor_forgets>;
template <class P>
using guard_lock_mutex_tries_once = guard_lock_mutex<P, GuardBug::tries_once>;

/// mutex, async: a FIFO coroutine mutex, correct. Waiters queue by handle under the platform's
/// mutex; unlock passes the mutex to the oldest and resumes it on the releasing thread;
/// try_cancel withdraws a waiter still queued. An unlock of a free mutex (a release made twice)
/// fails a check.
template <class P>
class fifo_handle_mutex {
 public:
  fifo_handle_mutex() = default;
  fifo_handle_mutex(const fifo_handle_mutex&) = delete;
  fifo_handle_mutex& operator=(const fifo_handle_mutex&) = delete;

  struct lock_awaiter {
    fifo_handle_mutex& mutex;
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> h) {
      primitives_detail::lock_guard guard(mutex.mutex_);
      return mutex.state_.with_mut([&](State& s) {
        if (!s.held) {
          s.held = true;
          return false;  // taken: run on
        }
        s.queue.push_back(h);
        return true;
      });
    }
    void await_resume() noexcept {}
  };

  lock_awaiter lock() { return lock_awaiter{*this}; }

  void unlock() {
    std::coroutine_handle<> next;
    {
      primitives_detail::lock_guard guard(mutex_);
      next = state_.with_mut([](State& s) {
        P::check(s.held, "unlock of a free fifo_handle_mutex: a release made twice");
        std::coroutine_handle<> oldest;
        if (s.queue.empty()) {
          s.held = false;
        } else {
          oldest = s.queue.front();
          s.queue.pop_front();
        }
        return oldest;
      });
    }
    if (next) P::resume(next);  // the mutex passes to `next` still held
  }

  /// Withdraws a waiter still queued; false once unlock has taken it (its resumption is
  /// committed).
  bool try_cancel(std::coroutine_handle<> h) {
    primitives_detail::lock_guard guard(mutex_);
    return state_.with_mut([&](State& s) {
      const auto it = std::find(s.queue.begin(), s.queue.end(), h);
      if (it == s.queue.end()) return false;
      s.queue.erase(it);
      return true;
    });
  }

 private:
  struct State {
    bool held = false;
    std::deque<std::coroutine_handle<>> queue;  // waiting, oldest first
  };
  typename P::mutex mutex_;
  typename P::template cell<State> state_;  // guarded by mutex_
};

/// mutex, async: fifo_handle_mutex, whose co_await m.lock() gives the guard (cppcoro's
/// scoped_lock_async); no unlock() of its own. Offers try_cancel as the inner mutex does.
template <class P, GuardBug Bug>
class guard_async_mutex {
  using Inner = fifo_handle_mutex<P>;

 public:
  using guard = scoped_guard<Inner, unlock_call, Bug>;

  struct lock_awaiter {
    typename Inner::lock_awaiter inner;
    Inner& mutex;
    bool await_ready() noexcept { return inner.await_ready(); }
    bool await_suspend(std::coroutine_handle<> h) { return inner.await_suspend(h); }
    guard await_resume() noexcept {
      inner.await_resume();
      return guard(mutex);
    }
  };

  lock_awaiter lock() { return lock_awaiter{mutex_.lock(), mutex_}; }
  bool try_cancel(std::coroutine_handle<> h) { return mutex_.try_cancel(h); }

 private:
  Inner mutex_;
};

template <class P>
using guard_async_mutex_ok = guard_async_mutex<P, GuardBug::none>;
template <class P>
using guard_async_mutex_move_keeps_source = guard_async_mutex<P, GuardBug::move_keeps_source>;
template <class P>
using guard_async_mutex_destructor_forgets = guard_async_mutex<P, GuardBug::destructor_forgets>;

/// mutex, async: document 000's LockAsync as the lock. co_await gives the task's result, the
/// event_set_scope_exit that sets the event when destroyed; no unlock().
template <class P>
class lock_async_unfair_mutex {
 public:
  auto lock() { return mutex_.lock_async(); }

 private:
  async_unfair_mutex<P> mutex_;
};

/// shared_mutex, sync: ticket_shared_mutex, whose lock() and lock_shared() give guards; no
/// unlock() or unlock_shared() of its own.
template <class P>
class guard_shared_mutex {
  using Inner = ticket_shared_mutex<P>;

 public:
  scoped_guard<Inner, unlock_call> lock() {
    mutex_.lock();
    return scoped_guard<Inner, unlock_call>(mutex_);
  }
  scoped_guard<Inner, unlock_shared_call> lock_shared() {
    mutex_.lock_shared();
    return scoped_guard<Inner, unlock_shared_call>(mutex_);
  }

 private:
  Inner mutex_;
};

/// semaphore, sync: wait_on_address_semaphore, whose acquire() gives a guard holding one token;
/// no release() of its own.
template <class P>
class guard_semaphore {
  using Inner = wait_on_address_semaphore<P>;

 public:
  explicit guard_semaphore(std::int64_t initial_tokens) : semaphore_(initial_tokens) {}
  scoped_guard<Inner, release_call> acquire() {
    semaphore_.acquire();
    return scoped_guard<Inner, release_call>(semaphore_);
  }

 private:
  Inner semaphore_;
};

/// mutex, sync: the platform's mutex, whose lock() gives whether it acquired. Correct, it
/// blocks and gives true; kTries plants the bug: it only tries, and gives false when taken.
template <class P, bool kTries>
class bool_lock_mutex {
 public:
  bool lock() {
    if constexpr (kTries) return mutex_.try_lock();
    mutex_.lock();
    return true;
  }
  void unlock() { mutex_.unlock(); }

 private:
  typename P::mutex mutex_;
};

template <class P>
using bool_lock_mutex_ok = bool_lock_mutex<P, false>;
template <class P>
using bool_lock_mutex_tries = bool_lock_mutex<P, true>;

/// mutex, async: fifo_handle_mutex, whose co_await m.lock() gives a bool. Correct, true; the
/// planted bug of kFastPathOnly: it gives whether it got in without waiting.
template <class P, bool kFastPathOnly>
class bool_async_mutex {
  using Inner = fifo_handle_mutex<P>;

 public:
  struct lock_awaiter {
    typename Inner::lock_awaiter inner;
    bool waited = false;
    bool await_ready() noexcept { return inner.await_ready(); }
    bool await_suspend(std::coroutine_handle<> h) {
      waited = inner.await_suspend(h);
      return waited;
    }
    bool await_resume() noexcept { return !kFastPathOnly || !waited; }
  };

  lock_awaiter lock() { return lock_awaiter{mutex_.lock()}; }
  void unlock() { mutex_.unlock(); }

 private:
  Inner mutex_;
};

template <class P>
using bool_async_mutex_ok = bool_async_mutex<P, false>;
template <class P>
using bool_async_mutex_fast_path_only = bool_async_mutex<P, true>;

// The harness reads each shape from the type, and never asks a guard's primitive for a release
// call: these have none.
static_assert(HeldBy<Mode::sync, Acquisition::lock, guard_lock_mutex_ok<Sim>>::kGives ==
              Gives::guard);
static_assert(HeldBy<Mode::async, Acquisition::lock, guard_async_mutex_ok<Sim>>::kGives ==
              Gives::guard);
// A task<P, guard>: co_await applies its operator co_await, which takes the task as an rvalue.
static_assert(HeldBy<Mode::async, Acquisition::lock, lock_async_unfair_mutex<Sim>>::kGives ==
              Gives::guard);
static_assert(HeldBy<Mode::sync, Acquisition::lock_shared, guard_shared_mutex<Sim>>::kGives ==
              Gives::guard);
static_assert(HeldBy<Mode::sync, Acquisition::acquire, guard_semaphore<Sim>>::kGives ==
              Gives::guard);
static_assert(HeldBy<Mode::sync, Acquisition::lock, bool_lock_mutex_ok<Sim>>::kGives ==
              Gives::flag);
static_assert(HeldBy<Mode::async, Acquisition::lock, bool_async_mutex_ok<Sim>>::kGives ==
              Gives::flag);
static_assert(HeldBy<Mode::sync, Acquisition::lock, ticket_mutex<Sim>>::kGives == Gives::nothing);
static_assert(HeldBy<Mode::async, Acquisition::lock, mutex_part7<Sim>>::kGives == Gives::nothing);
template <class Prim>
constexpr bool kHasReleaseCall = requires(Prim& p) {
  p.unlock();
}
|| requires(Prim& p) { p.unlock_shared(); }
|| requires(Prim& p) { p.release(); };
static_assert(!kHasReleaseCall<guard_lock_mutex_ok<Sim>> &&
              !kHasReleaseCall<guard_async_mutex_ok<Sim>> &&
              !kHasReleaseCall<lock_async_unfair_mutex<Sim>> &&
              !kHasReleaseCall<guard_shared_mutex<Sim>> && !kHasReleaseCall<guard_semaphore<Sim>>);

// ---------------------------------------------------------------------------------------------
// Running a family on sim.

constexpr std::uint64_t kSeed = 1;
/// Executions a search may take before the test gives up on the finding.
constexpr std::uint64_t kSearchBudget = 5000;
/// Executions every correct primitive must get through with nothing reported.
constexpr std::uint64_t kCleanExecutions = 1000;

constexpr std::uint32_t kSafe = kMutualExclusion | kNoLostWakeups;

Params params_of(Family family, const nlohmann::json& values = nlohmann::json::object()) {
  return Params::resolve(scenarios::sim_param_specs(family), values, {},
                         "backends_lock_results_test");
}

template <class P, template <class> class Tmpl, Kind K, Mode M>
Body body_of(Family family, std::uint32_t claims) {
  auto body = scenarios::bind_body<P, Tmpl, K, M>(family, claims);
  EXPECT_TRUE(body.has_value());
  return body ? *body : Body{};
}

/// What a search reported: the property ("mutual_exclusion", "deadlock", "check",
/// "acquisition_failed", ...) and message of its first finding, empty if none.
struct Searched {
  std::uint64_t executions = 0;
  std::string property;
  std::string message;
};

/// What ends a search: any broken property, or only a claimed one (a primitive that promises no
/// order is measured by the fairness and starvation families, its bypasses counted unclaimed).
enum class Stop { anything, claimed };

/// Runs executions of `body` on sim under `strategy` until one reports what `stop` names or
/// `budget` executions have run.
Searched search_with(Strategy& strategy, const Body& body, const Params& p, std::uint64_t budget,
                     Stop stop = Stop::anything) {
  sim::Runtime runtime(scenarios::runtime_options(p, /*trace=*/false));
  Searched s;
  while (s.executions < budget) {
    const auto execution = strategy.new_execution();
    if (!execution) break;  // an exhaustive search ran out of schedules
    Observations obs;
    auto r = runtime.run(strategy, *execution, [&] { body(obs, p); });
    ++s.executions;
    if (r.outcome != sim::Outcome::pruned) {
      // Every claim, and no fault family: whatever broke is reported.
      const auto v = scenarios::sim_execution_verdict(r, obs, Family::safety, ~std::uint32_t{0});
      if (v.broken || (stop == Stop::anything && !obs.unclaimed.empty())) {
        s.property = v.broken ? v.property : "unclaimed " + obs.unclaimed.begin()->first;
        s.message = v.message;
        runtime.recycle(std::move(r));
        return s;
      }
    }
    runtime.recycle(std::move(r));
  }
  return s;
}

Searched search(const Body& body, const Params& p, std::uint64_t budget,
                Stop stop = Stop::anything) {
  RandomStrategy random(kSeed);
  return search_with(random, body, p, budget, stop);
}

/// The reduced exhaustive search, to its end or to the first finding.
Searched exhaustive(const Body& body, const Params& p) {
  DporStrategy dpor;
  MemoryModelStrategy sc(dpor, MemoryModel::sc);
  auto s = search_with(sc, body, p, 10'000'000);
  EXPECT_TRUE(!s.property.empty() || dpor.complete()) << "the search neither found nor finished";
  return s;
}

::testing::AssertionResult clean(const Searched& s) {
  if (!s.property.empty()) {
    return ::testing::AssertionFailure() << "execution " << s.executions << " reported '"
                                         << s.property << ": " << s.message << "'";
  }
  if (s.executions == 0) return ::testing::AssertionFailure() << "no execution ran";
  std::printf("%llu clean executions\n", static_cast<unsigned long long>(s.executions));
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult found(const Searched& s, std::string_view property,
                                 std::string_view fragment) {
  if (s.property.empty()) {
    return ::testing::AssertionFailure() << "nothing found in " << s.executions << " executions";
  }
  if (s.property != property || s.message.find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "execution " << s.executions << " reported '" << s.property << ": " << s.message
           << "', expected " << property << " with '" << fragment << "'";
  }
  return ::testing::AssertionSuccess() << "found at execution " << s.executions;
}

// ---------------------------------------------------------------------------------------------
// Guards that release correctly pass; no release is made twice (a second unlock of the
// platform's mutex, or of fifo_handle_mutex, would be reported).

TEST(LockResultsOnSim, ASyncMutexWhoseLockGivesAGuardPassesEveryFamilyOfItsKind) {
  EXPECT_TRUE(clean(
      search(body_of<Sim, guard_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::safety, kSafe),
             params_of(Family::safety), kCleanExecutions)));
  EXPECT_TRUE(clean(
      exhaustive(body_of<Sim, guard_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::safety, kSafe),
                 params_of(Family::safety, {{"actors", 2}, {"rounds", 2}}))));
  // The platform's mutex promises no order: fairness and starvation measure it, and count its
  // bypasses unclaimed.
  EXPECT_TRUE(clean(
      search(body_of<Sim, guard_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::fairness, kSafe),
             params_of(Family::fairness), kCleanExecutions, Stop::claimed)));
  EXPECT_TRUE(clean(search(
      body_of<Sim, guard_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::starvation, kSafe),
      params_of(Family::starvation, {{"stream_rounds", 4}}), kCleanExecutions, Stop::claimed)));
}

TEST(LockResultsOnSim, ACoroutineMutexWhoseLockGivesAGuardPassesEveryFamilyOfItsKind) {
  const auto claims = kSafe | kFifoHandoff | kStarvationFreedom | kCancellationSafety;
  for (const Family family : {Family::safety, Family::fairness, Family::cancellation}) {
    EXPECT_TRUE(
        clean(search(body_of<Sim, guard_async_mutex_ok, Kind::mutex, Mode::async>(family, claims),
                     params_of(family), kCleanExecutions)))
        << to_string(family);
  }
  EXPECT_TRUE(clean(search(
      body_of<Sim, guard_async_mutex_ok, Kind::mutex, Mode::async>(Family::starvation, claims),
      params_of(Family::starvation, {{"stream_rounds", 4}}), kCleanExecutions)));
  EXPECT_TRUE(clean(exhaustive(
      body_of<Sim, guard_async_mutex_ok, Kind::mutex, Mode::async>(Family::safety, claims),
      params_of(Family::safety, {{"actors", 2}, {"rounds", 2}}))));
}

TEST(LockResultsOnSim, DocumentZerosLockAsyncWhoseTaskGivesTheGuardPassesSafety) {
  EXPECT_TRUE(clean(
      search(body_of<Sim, lock_async_unfair_mutex, Kind::mutex, Mode::async>(Family::safety, kSafe),
             params_of(Family::safety), kCleanExecutions)));
}

TEST(LockResultsOnSim, GuardsOfASharedMutexAndOfASemaphorePass) {
  const auto claims = kSafe | kStarvationFreedom;
  EXPECT_TRUE(clean(search(
      body_of<Sim, guard_shared_mutex, Kind::shared_mutex, Mode::sync>(Family::safety, claims),
      params_of(Family::safety, {{"actors", 3}, {"writers", 1}}), kCleanExecutions)));
  EXPECT_TRUE(clean(search(
      body_of<Sim, guard_shared_mutex, Kind::shared_mutex, Mode::sync>(Family::starvation, claims),
      params_of(Family::starvation, {{"stream_rounds", 4}}), kCleanExecutions)));
  EXPECT_TRUE(clean(
      search(body_of<Sim, guard_semaphore, Kind::semaphore, Mode::sync>(Family::safety, kSafe),
             params_of(Family::safety, {{"actors", 3}, {"capacity", 2}}), kCleanExecutions)));
}

// ---------------------------------------------------------------------------------------------
// Guards that release wrongly, and acquisitions that say they failed, are found.

TEST(LockResultsOnSim, AGuardWhoseDestructorForgetsToUnlockDeadlocks) {
  EXPECT_TRUE(
      found(search(body_of<Sim, guard_lock_mutex_destructor_forgets, Kind::mutex, Mode::sync>(
                       Family::safety, kSafe),
                   params_of(Family::safety), kSearchBudget),
            "deadlock", "no thread can run"));
  EXPECT_TRUE(
      found(search(body_of<Sim, guard_async_mutex_destructor_forgets, Kind::mutex, Mode::async>(
                       Family::safety, kSafe),
                   params_of(Family::safety), kSearchBudget),
            "deadlock", "no thread can run"));
}

TEST(LockResultsOnSim, AGuardWhoseMoveLeavesItsSourceArmedReleasesTwiceAndIsFound) {
  // One actor, one round: nothing but the second release can go wrong.
  const auto p = params_of(Family::safety, {{"actors", 1}, {"rounds", 1}});
  EXPECT_TRUE(
      found(search(body_of<Sim, guard_lock_mutex_move_keeps_source, Kind::mutex, Mode::sync>(
                       Family::safety, kSafe),
                   p, kSearchBudget),
            "check", "which is not held"));
  EXPECT_TRUE(
      found(search(body_of<Sim, guard_async_mutex_move_keeps_source, Kind::mutex, Mode::async>(
                       Family::safety, kSafe),
                   p, kSearchBudget),
            "check", "a release made twice"));
}

TEST(LockResultsOnSim, ABlockingLockThatGivesFalseIsAFinding) {
  EXPECT_TRUE(found(
      search(body_of<Sim, bool_lock_mutex_tries, Kind::mutex, Mode::sync>(Family::safety, kSafe),
             params_of(Family::safety), kSearchBudget),
      "acquisition_failed", "lock() gave false"));
  EXPECT_TRUE(found(search(body_of<Sim, bool_async_mutex_fast_path_only, Kind::mutex, Mode::async>(
                               Family::safety, kSafe),
                           params_of(Family::safety), kSearchBudget),
                    "acquisition_failed", "co_await lock() gave false"));
  EXPECT_TRUE(found(search(body_of<Sim, guard_lock_mutex_tries_once, Kind::mutex, Mode::sync>(
                               Family::fairness, kSafe),
                           params_of(Family::fairness), kSearchBudget),
                    "acquisition_failed", "lock() gave a guard that holds nothing"));
  // Locks that give true pass.
  EXPECT_TRUE(
      clean(search(body_of<Sim, bool_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::safety, kSafe),
                   params_of(Family::safety), kCleanExecutions)));
  EXPECT_TRUE(clean(
      search(body_of<Sim, bool_async_mutex_ok, Kind::mutex, Mode::async>(Family::safety, kSafe),
             params_of(Family::safety), kCleanExecutions)));
}

// ---------------------------------------------------------------------------------------------
// The same bodies on real threads.

/// Runs `executions` executions of `body` on real threads; the first finding, if any.
std::optional<scenarios::Finding> run_on_real(const Body& body, const Params& p, int executions) {
  (void)Real::take_failures();
  for (int i = 0; i < executions; ++i) {
    Observations obs;
    body(obs, p);
    const auto failures = Real::take_failures();
    EXPECT_EQ(failures.count > 0, obs.finding.has_value()) << "execution " << i;
    if (obs.finding) return obs.finding;
  }
  return std::nullopt;
}

Params real_params_of(Family family, const nlohmann::json& values) {
  return Params::resolve(scenarios::family_param_specs(family), values, {},
                         "backends_lock_results_test");
}

TEST(LockResultsOnReal, GuardsThatReleaseCorrectlyPass) {
  const auto p = real_params_of(Family::safety, {{"actors", 4}, {"rounds", 50}, {"hold_steps", 4}});
  EXPECT_EQ(run_on_real(
                body_of<Real, guard_lock_mutex_ok, Kind::mutex, Mode::sync>(Family::safety, kSafe),
                p, 20),
            std::nullopt);
  EXPECT_EQ(run_on_real(body_of<Real, guard_async_mutex_ok, Kind::mutex, Mode::async>(
                            Family::safety, kSafe),
                        p, 20),
            std::nullopt);
  EXPECT_EQ(run_on_real(body_of<Real, lock_async_unfair_mutex, Kind::mutex, Mode::async>(
                            Family::safety, kSafe),
                        p, 20),
            std::nullopt);
  EXPECT_EQ(run_on_real(body_of<Real, guard_shared_mutex, Kind::shared_mutex, Mode::sync>(
                            Family::safety, kSafe),
                        p, 20),
            std::nullopt);
  EXPECT_EQ(run_on_real(
                body_of<Real, guard_semaphore, Kind::semaphore, Mode::sync>(Family::safety, kSafe),
                p, 20),
            std::nullopt);
}

TEST(LockResultsOnReal, ALockThatOnlyTriesIsFoundByWhatItGives) {
  // As ScenariosOnReal.SafetyCatchesALockThatExcludesNobody: found at once on an idle machine,
  // a generous budget for two loaded cores where the threads may run one after another.
  const auto p =
      real_params_of(Family::safety, {{"actors", 4}, {"rounds", 1000}, {"hold_steps", 16}});
  const auto gave_false = run_on_real(
      body_of<Real, bool_lock_mutex_tries, Kind::mutex, Mode::sync>(Family::safety, kSafe), p,
      5000);
  ASSERT_TRUE(gave_false.has_value()) << "four threads overlapped nowhere in 5000 executions";
  EXPECT_EQ(gave_false->property, "acquisition_failed");
  EXPECT_EQ(gave_false->message, "lock() gave false: a blocking acquisition must acquire");
  const auto held_nothing = run_on_real(
      body_of<Real, guard_lock_mutex_tries_once, Kind::mutex, Mode::sync>(Family::safety, kSafe), p,
      5000);
  ASSERT_TRUE(held_nothing.has_value()) << "four threads overlapped nowhere in 5000 executions";
  EXPECT_EQ(held_nothing->property, "acquisition_failed");
}

}  // namespace
}  // namespace backends_lock_results_test
}  // namespace syncstress
