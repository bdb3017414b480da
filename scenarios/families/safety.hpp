// The safety family: at most one exclusive holder; never exclusive and shared together;
// semaphore holders never above capacity; events release no waiter before a set.
//
// Occupancy lives in Platform cells and is checked on every entry, with scheduling points
// inside each critical section so a primitive that lets a second holder in gets caught while
// the first is still there. Every actor must also finish: a primitive that loses a wake-up
// leaves one blocked, which the runtime reports as a deadlock.
#pragma once

#include <string>

#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios::safety {

inline std::vector<ParamSpec> specs() {
  using T = ParamSpec::Type;
  return {
      {"actors", T::integer, 1, 16, 3, "actors contending for the primitive"},
      {"rounds", T::integer, 1, 1000, 2, "acquisitions per actor"},
      {"writers", T::integer, 0, 16, 1, "shared_mutex: how many actors lock exclusively"},
      {"capacity", T::integer, 1, 16, 2, "semaphore: initial tokens, the most holders allowed"},
      {"hold_steps", T::integer, 0, 16, 1, "scheduling points inside each critical section"},
  };
}

using Context = ScenarioContext;

template <Mode M, class Prim>
Task exclusive_actor(Context& c, Prim& m, std::int64_t rounds) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    co_await acquire<M>(m);
    c.enter_exclusive();
    c.hold_section();
    c.leave_exclusive();
    m.unlock();
  }
}

template <Mode M, class Prim>
Task shared_actor(Context& c, Prim& m, std::int64_t rounds) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    co_await acquire_shared<M>(m);
    c.enter_shared();
    c.hold_section();
    c.leave_shared();
    m.unlock_shared();
  }
}

template <Mode M, class Prim>
Task token_actor(Context& c, Prim& s, std::int64_t rounds, std::int64_t capacity) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    co_await acquire_token<M>(s);
    c.enter_exclusive(capacity);
    c.hold_section();
    c.leave_exclusive();
    s.release();
  }
}

/// Event waiters: each wait must be justified by a set. For an auto-reset event every set
/// releases at most one waiter, so releases never exceed sets; a manual-reset event is never
/// reset here, so any release needs one set before it.
template <Mode M, class Prim>
Task event_waiter(Context& c, Prim& e, Sim::cell<std::int64_t>& sets,
                  Sim::cell<std::int64_t>& releases) {
  co_await wait_for<M>(e);
  const auto released = releases.with_mut([](std::int64_t& v) { return ++v; });
  const auto set_count = sets.with([](const std::int64_t& v) { return v; });
  if constexpr (Prim::kAutoReset) {
    c.judge.require(kMutualExclusion, released <= set_count,
                    std::to_string(released) + " waiters released by " + std::to_string(set_count) +
                        " sets of an auto-reset event");
  } else {
    c.judge.require(kMutualExclusion, set_count >= 1, "a waiter was released before any set");
  }
}

template <Mode M, class Prim>
Task event_setter(Context& c, Prim& e, Sim::cell<std::int64_t>& sets,
                  Sim::cell<std::int64_t>& releases, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) {
    // Setting an event that is already set does nothing (Win32), so the next set waits until
    // the previous one was taken: otherwise a correct auto-reset event would strand a waiter.
    while (releases.with([](const std::int64_t& v) { return v; }) < i) Sim::yield();
    c.hold_section();
    // Counted before the set: a waiter released by this set must already see it.
    sets.with_mut([](std::int64_t& v) { ++v; });
    e.set();
  }
  co_return;
}

/// One execution of the safety family against primitive `Prim` of kind `K`.
template <Kind K, Mode M, class Prim>
void run(Observations& obs, std::uint32_t claims, const Params& p) {
  Context c(obs, claims, p);
  const auto actors = p.integer("actors");
  const auto rounds = p.integer("rounds");
  const auto capacity = p.integer("capacity");
  obs.actors.resize(static_cast<std::size_t>(actors) + 1);
  // Everything the actors use is declared before them: if the execution ends early, the
  // actors' frames are destroyed first, and their awaiters still reach the primitive.
  const auto storage = make_primitive<K, Prim>(capacity);
  Prim& prim = *storage;
  Sim::cell<std::int64_t> sets{0};
  Sim::cell<std::int64_t> releases{0};
  Actors group;
  if constexpr (K == Kind::mutex) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&] { return exclusive_actor<M>(c, prim, rounds); });
    }
  } else if constexpr (K == Kind::shared_mutex) {
    const auto writers = std::min(p.integer("writers"), actors);
    for (std::int64_t i = 0; i < actors; ++i) {
      if (i < writers) {
        group.add([&] { return exclusive_actor<M>(c, prim, rounds); });
      } else {
        group.add([&] { return shared_actor<M>(c, prim, rounds); });
      }
    }
  } else if constexpr (K == Kind::semaphore) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&] { return token_actor<M>(c, prim, rounds, capacity); });
    }
  } else if constexpr (K == Kind::event) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&] { return event_waiter<M>(c, prim, sets, releases); });
    }
    // An auto-reset event needs one set per waiter; a manual-reset one releases all at once.
    const std::int64_t set_count = Prim::kAutoReset ? actors : 1;
    // By value: set_count's scope ends before group.run().
    group.add([&, count = set_count] { return event_setter<M>(c, prim, sets, releases, count); });
  }
  group.run();
}

}  // namespace syncstress::scenarios::safety
