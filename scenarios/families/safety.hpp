// The safety family: at most one exclusive holder; never exclusive and shared together;
// semaphore holders never above capacity; events release no waiter before a set.
//
// Occupancy lives in Platform cells and is checked on every entry, with scheduling points
// inside each critical section so a primitive that lets a second holder in gets caught while
// the first is still there. Every actor must also finish: a primitive that loses a wake-up
// leaves one blocked, which sim and Relacy report as a deadlock. Holders also write (shared
// holders read) the context's guarded cell, and event waiters read the value the setter
// published before its first set: under Relacy a missing release/acquire edge in the
// primitive is a data race on them.
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

template <Platform P, Mode M, class Prim>
task<P> exclusive_actor(ScenarioContext<P>& c, ActorStats& me, Prim& m, std::int64_t rounds) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    const auto arrived = HarnessHooks<P>::now();
    auto held = co_await acquire<M>(m);
    me.waits.push_back(HarnessHooks<P>::now() - arrived);
    if (!acquired(c.checks, held, me)) continue;
    c.enter_exclusive();
    c.hold_section();
    c.leave_exclusive();
    held.release(m);
  }
}

template <Platform P, Mode M, class Prim>
task<P> shared_actor(ScenarioContext<P>& c, ActorStats& me, Prim& m, std::int64_t rounds) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    const auto arrived = HarnessHooks<P>::now();
    auto held = co_await acquire_shared<M>(m);
    me.waits.push_back(HarnessHooks<P>::now() - arrived);
    if (!acquired(c.checks, held, me)) continue;
    c.enter_shared();
    c.hold_section();
    c.leave_shared();
    held.release(m);
  }
}

template <Platform P, Mode M, class Prim>
task<P> token_actor(ScenarioContext<P>& c, ActorStats& me, Prim& s, std::int64_t rounds,
                    std::int64_t capacity) {
  for (std::int64_t r = 0; r < rounds; ++r) {
    const auto arrived = HarnessHooks<P>::now();
    auto held = co_await acquire_token<M>(s);
    me.waits.push_back(HarnessHooks<P>::now() - arrived);
    if (!acquired(c.checks, held, me)) continue;
    c.enter_exclusive(capacity);
    c.hold_section();
    c.leave_exclusive();
    held.release(s);
  }
}

/// The event's bookkeeping: the sets (a harness counter), the releases (a platform word the
/// setter waits on), and the value the setter publishes (through the platform's cell) before
/// its first set.
template <Platform P>
struct EventBook {
  Counter<P> sets;
  /// The releases, on the platform: the setter waits on it for the previous set to be taken.
  typename P::template atomic<std::int32_t> taken{0};
  typename P::template cell<std::int64_t> published{0};
  static constexpr std::int64_t kValue = 42;
};

/// Event waiters: each wait must be justified by a set. For an auto-reset event every set
/// releases at most one waiter, so releases never exceed sets; a manual-reset event is never
/// reset here, so any release needs one set before it. A release counts as the waiter's
/// acquisition, with its wait, for the metrics.
template <Platform P, Mode M, class Prim>
task<P> event_waiter(ScenarioContext<P>& c, ActorStats& me, Prim& e, EventBook<P>& book) {
  const auto arrived = HarnessHooks<P>::now();
  const auto waited = co_await wait_for<M>(e);
  me.waits.push_back(HarnessHooks<P>::now() - arrived);
  if (acquired(c.checks, waited)) ++me.acquisitions;  // else a finding, and taken as a release
  // The sets first: once this release is counted, the setter may set again.
  const auto set_count = book.sets.get();
  const std::int64_t released = book.taken.fetch_add(1, std::memory_order_relaxed) + 1;
  P::wake_by_address_all(book.taken);
  if constexpr (Prim::kAutoReset) {
    c.checks.require(kMutualExclusion, released <= set_count,
                     std::to_string(released) + " waiters released by " +
                         std::to_string(set_count) + " sets of an auto-reset event");
  } else {
    c.checks.require(kMutualExclusion, set_count >= 1, "a waiter was released before any set");
  }
  // Last: where the counts above hold, a missing edge from the set is still a race here.
  const auto seen = book.published.with([](const std::int64_t& v) { return v; });
  c.checks.require(kMutualExclusion, seen == EventBook<P>::kValue,
                   "a wait completed without seeing the value published before the first set");
}

template <Platform P, Mode M, class Prim>
task<P> event_setter(ScenarioContext<P>& c, Prim& e, EventBook<P>& book, std::int64_t count) {
  book.published.with_mut([](std::int64_t& v) { v = EventBook<P>::kValue; });
  // After the first set (which races the waiters' arrivals), where the platform can tell when
  // every other thread is blocked (sim), the sets come back to back once they all are: each
  // waiter still waiting is then inside its wait, and a set with a waiter blocked releases one
  // and leaves the event reset (Win32), so none of those sets may be lost.
  bool back_to_back = false;
  for (std::int64_t i = 0; i < count; ++i) {
    if (i == 1) back_to_back = await_quiescence<P>();
    // Elsewhere, setting an event that is already set does nothing (Win32), so the next set
    // waits until the previous one was taken: otherwise a correct auto-reset event could
    // strand a waiter. A wait, not a poll: a reducing search need not try the set after every
    // poll.
    for (auto taken = book.taken.load(std::memory_order_relaxed); !back_to_back && taken < i;
         taken = book.taken.load(std::memory_order_relaxed)) {
      P::wait_on_address(book.taken, taken);
    }
    c.hold_section();
    // Counted before the set: a waiter released by this set must already see it.
    book.sets.add(1);
    e.set();
  }
  co_return;
}

/// One execution of the safety family against primitive `Prim` of kind `K`, on platform P.
template <Platform P, Kind K, Mode M, class Prim>
void run(Observations& obs, std::uint32_t claims, const Params& p) {
  ScenarioContext<P> c(obs, claims, p);
  const auto actors = p.integer("actors");
  const auto rounds = p.integer("rounds");
  const auto capacity = p.integer("capacity");
  // One per actor (an event's waiters; not its setter, which acquires nothing): acquisitions and
  // waits, for the metrics. Each actor writes only its own.
  obs.actors.resize(static_cast<std::size_t>(actors));
  auto stats = [&obs](std::int64_t i) -> ActorStats& {
    return obs.actors[static_cast<std::size_t>(i)];
  };
  // Everything the actors use is declared before them: if the execution ends early, the
  // actors' frames are destroyed first, and their awaiters still reach the primitive.
  const auto storage = make_primitive<K, M, Prim>(capacity);
  Prim& prim = *storage;
  EventBook<P> book;
  Actors<P> group(obs);
  // Interchangeable actors: the writers (or all actors), and the readers.
  constexpr Role kTwins{0};
  constexpr Role kOtherTwins{1};
  if constexpr (K == Kind::mutex) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&, i] { return exclusive_actor<P, M>(c, stats(i), prim, rounds); }, kTwins);
    }
  } else if constexpr (K == Kind::shared_mutex) {
    const auto writers = std::min(p.integer("writers"), actors);
    for (std::int64_t i = 0; i < actors; ++i) {
      if (i < writers) {
        group.add([&, i] { return exclusive_actor<P, M>(c, stats(i), prim, rounds); }, kTwins);
      } else {
        group.add([&, i] { return shared_actor<P, M>(c, stats(i), prim, rounds); }, kOtherTwins);
      }
    }
  } else if constexpr (K == Kind::semaphore) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&, i] { return token_actor<P, M>(c, stats(i), prim, rounds, capacity); }, kTwins);
    }
  } else if constexpr (K == Kind::event) {
    for (std::int64_t i = 0; i < actors; ++i) {
      group.add([&, i] { return event_waiter<P, M>(c, stats(i), prim, book); }, kTwins);
    }
    // An auto-reset event needs one set per waiter; a manual-reset one releases all at once.
    const std::int64_t set_count = Prim::kAutoReset ? actors : 1;
    // By value: set_count's scope ends before group.run().
    group.add([&, count = set_count] { return event_setter<P, M>(c, prim, book, count); });
  }
  group.run();
}

}  // namespace syncstress::scenarios::safety
