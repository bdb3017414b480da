// The cancellation-during-resume family: coroutines waiting on an async primitive are
// destroyed at every point the schedule allows: while queued, after a release has moved them
// to the resumption list but before they run, while their resumption is posted to the pool.
//
// How a waiter is cancelled depends on what the primitive offers:
//   - a primitive with `bool try_cancel(std::coroutine_handle<>)` (see primitives/README.md,
//     "Cancellation") is asked first, and the waiter is destroyed only when it said yes; a
//     waiter it refuses (its resumption is committed) is left to run. Cancellation is a
//     request, as in every coroutine library that supports it;
//   - any other primitive gets the raw `destroy()` that document 003 describes (its awaiter's
//     destructor is the cancellation hook), at whatever point the schedule reaches.
//
// Checks: no destroyed frame is ever resumed and none is destroyed while queued on the pool
// (the runtime's frame tracker), the other waiters still get through (else a deadlock), and
// no ownership or token is lost: once everyone is done, a fresh acquisition must get through
// (else a deadlock naming that acquisition). The canceller only touches a waiter that has
// queued and not yet run past its await, which it knows from the stage the waiter records:
// destroying a frame that is running would be the harness's bug, not the primitive's.
// Limit: "resumed" is recorded in the first step after the await, so a primitive whose
// await_resume (or awaiter destructor on that path) itself makes a Platform call gives the
// canceller one step in which it sees a running frame as queued. No catalogued primitive does.
#pragma once

#include <atomic>
#include <coroutine>
#include <deque>
#include <string>

#include "primitives/awaitable_library.hpp"  // cancellable_by_request
#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios::cancellation {

inline std::vector<ParamSpec> specs() {
  using T = ParamSpec::Type;
  return {
      {"waiters", T::integer, 1, 16, 3, "coroutines waiting on the held primitive"},
      {"cancellations", T::integer, 0, 16, 1, "how many of the waiters get destroyed"},
      {"writers", T::integer, 0, 16, 1, "shared_mutex: how many waiters lock exclusively"},
      {"capacity", T::integer, 1, 16, 1, "semaphore: initial tokens (all held at the start)"},
      {"hold_steps", T::integer, 0, 16, 1, "scheduling points inside each critical section"},
  };
}

/// Where a waiter is: its stage, and its coroutine once queued (what try_cancel is given).
/// Harness bookkeeping, so std::atomic (see harness.hpp): the handle is stored before the
/// stage that publishes it.
struct Waiting {
  static constexpr int kNotQueued = 0, kQueued = 1, kResumed = 2;
  std::atomic<int> stage{kNotQueued};
  std::atomic<void*> handle{nullptr};
};

template <Platform P>
struct Context : ScenarioContext<P> {
  using ScenarioContext<P>::ScenarioContext;
  std::vector<std::unique_ptr<Waiting>> waiting;

  void resumed(std::size_t i) {
    note_harness_access<P>(waiting[i].get(), true);
    waiting[i]->stage.store(Waiting::kResumed);
  }
  /// The waiter's coroutine while it is queued and not yet resumed, else a null handle.
  std::coroutine_handle<> cancellable(std::size_t i) const {
    note_harness_access<P>(waiting[i].get(), false);
    if (waiting[i]->stage.load() != Waiting::kQueued) return {};
    return std::coroutine_handle<>::from_address(waiting[i]->handle.load());
  }
  auto on_queued(std::size_t i) {
    return [this, i](std::coroutine_handle<> h) {
      Waiting& w = *waiting[i];
      note_harness_access<P>(&w, true);
      w.handle.store(h.address());
      // The waiter may already have been resumed by the time its await_suspend returns.
      int expected = Waiting::kNotQueued;
      w.stage.compare_exchange_strong(expected, Waiting::kQueued);
    };
  }
};

// Waiters co_await the primitive's own awaitable (no wrapper coroutine), so the "resumed" mark
// is set in the very step the frame is resumed.
template <Platform P, Kind K, class Prim>
task<P> exclusive_waiter(Context<P>& c, Prim& p, std::size_t me, std::int64_t capacity) {
  constexpr Acquisition A = exclusive_acquisition(K);
  auto held = co_await acquiring<A>([&] {
    return settling{acquisition_call<A>(p), c.on_queued(me)};
  });
  c.resumed(me);
  if (!acquired(c.checks, held)) co_return;
  c.enter_exclusive(capacity);
  c.hold_section();
  c.leave_exclusive();
  held.release(p);
}

template <Platform P, class Prim>
task<P> shared_waiter(Context<P>& c, Prim& p, std::size_t me) {
  auto held = co_await acquiring<Acquisition::lock_shared>([&] {
    return settling{p.lock_shared(), c.on_queued(me)};
  });
  c.resumed(me);
  if (!acquired(c.checks, held)) co_return;
  c.enter_shared();
  c.hold_section();
  c.leave_shared();
  held.release(p);
}

/// What the scenario's own acquisitions (every token, or the lock) keep until give_all. A
/// deque: a push never moves what earlier ones keep.
template <Kind K, class Prim>
using Holds = std::deque<HeldBy<Mode::async, exclusive_acquisition(K), Prim>>;

/// Takes the primitive completely (every token), so that every waiter has to queue.
template <Platform P, Kind K, class Prim>
task<P> take_all(Context<P>& c, Prim& p, std::int64_t capacity, Holds<K, Prim>& holds) {
  for (std::int64_t i = 0; i < capacity; ++i) {
    auto held = co_await acquisition<Mode::async, exclusive_acquisition(K)>(p);
    if (acquired(c.checks, held)) holds.push_back(std::move(held));
  }
}

template <Kind K, class Prim>
void give_all(Prim& p, Holds<K, Prim>& holds) {
  for (auto& held : holds) held.release(p);
  holds.clear();
}

/// One execution of the cancellation-during-resume family (async mutex, shared_mutex and
/// semaphore primitives).
template <Platform P, Kind K, Mode M, class Prim>
void run(Observations& obs, std::uint32_t claims, const Params& p) {
  static_assert(M == Mode::async, "cancellation applies to coroutine primitives");
  Context<P> c(obs, claims, p);
  const auto waiters = static_cast<std::size_t>(p.integer("waiters"));
  const auto cancellations = std::min<std::size_t>(waiters, p.integer("cancellations"));
  const auto writers = static_cast<std::size_t>(p.integer("writers"));
  const auto capacity = K == Kind::semaphore ? p.integer("capacity") : 1;
  for (std::size_t i = 0; i < waiters; ++i) {
    c.waiting.push_back(std::make_unique<Waiting>());
    note_harness_created<P>(c.waiting.back().get());
  }
  obs.actors.resize(waiters);

  const auto storage = make_primitive<K, M, Prim>(capacity);
  Prim& prim = *storage;
  Holds<K, Prim> holds;
  run_to_end<P>(take_all<P, K>(c, prim, capacity, holds), "the scenario's first acquisition");

  Actors<P> group(obs);
  // Interchangeable actors: the exclusive waiters the canceller does not target, and the
  // shared ones (each target is named by its place in the canceller's order).
  constexpr Role kExclusive{0};
  constexpr Role kShared{1};
  const auto role = [&](std::size_t i, Role r) {
    return i < cancellations ? std::nullopt : std::optional<Role>(r);
  };
  for (std::size_t i = 0; i < waiters; ++i) {
    if (K == Kind::shared_mutex && i >= writers) {
      if constexpr (K == Kind::shared_mutex) {
        group.add([&, i] { return shared_waiter<P>(c, prim, i); }, role(i, kShared));
      }
    } else {
      group.add([&, i] { return exclusive_waiter<P, K>(c, prim, i, capacity); },
                role(i, kExclusive));
    }
  }
  // The canceller cancels waiters 0..cancellations-1 that have queued and not yet run past
  // their await; when it does, in relation to the release, is the schedule's choice.
  group.add([&]() -> task<P> {
    for (std::size_t v = 0; v < cancellations; ++v) {
      c.work.fetch_add(1, std::memory_order_relaxed);  // a scheduling point before each cancel
      const std::coroutine_handle<> handle = c.cancellable(v);
      if (!handle) continue;
      if constexpr (cancellable_by_request<Prim>) {
        // Between the look above and the primitive's lock the waiter may be committed,
        // resumed, even finished: try_cancel decides under the lock, by handle.
        if (!prim.try_cancel(handle)) {
          ++obs.numbers["cancel_refused"];
          continue;
        }
      }
      group.task_of(v).destroy();
      ++obs.numbers["cancelled"];
      group.cancelled(v);
    }
    co_return;
  });
  // The releaser hands the primitive to the waiters.
  group.add([&]() -> task<P> {
    hold<P>(c.work, 1);
    give_all<K>(prim, holds);
    co_return;
  });
  group.run();

  // Nothing lost: with everyone gone, the primitive must be free again. If a cancelled waiter
  // took ownership or a token with it, this blocks for good and the runtime reports a
  // deadlock naming this wait.
  run_to_end<P>(take_all<P, K>(c, prim, capacity, holds),
                "the final acquisition, after every waiter finished or was cancelled");
  give_all<K>(prim, holds);
}

}  // namespace syncstress::scenarios::cancellation
