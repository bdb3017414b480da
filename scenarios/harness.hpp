// What every scenario family shares: actors, the occupancy counters, the wait bookkeeping
// behind fairness and starvation metrics, and the uniform way to acquire a primitive whether
// it is used from threads (sync) or from coroutines (async).
//
// An actor is always a task<Sim> started on its own simulated thread. For a sync primitive the
// "awaits" below block the thread and never suspend, so the task runs to its end inside
// start(); for an async primitive the task suspends in the primitive and is resumed by whoever
// releases it, on whatever thread. Either way the execution's main thread waits for every
// actor's task to finish; one that never does shows up as a deadlock with the wait-for picture.
#pragma once

#include <algorithm>
#include <coroutine>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platform/sim.hpp"
#include "platform/task.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/acquire.hpp"
#include "scenarios/params.hpp"
#include "sim/runtime.hpp"

namespace syncstress::scenarios {

using Task = task<Sim>;

/// Per-actor numbers of one execution.
struct ActorStats {
  std::uint64_t acquisitions = 0;
  std::uint64_t bypassed = 0;        ///< acquisitions by later arrivals while this one waited
  std::uint64_t max_bypassed = 0;    ///< the most bypasses suffered in a single wait
  std::vector<std::uint64_t> waits;  ///< steps from arrival to acquisition, one per wait
};

/// What one execution observed, beyond what the runtime reports. Filled by the family body,
/// judged by the runner after the execution.
struct Observations {
  std::vector<ActorStats> actors;
  std::uint64_t fifo_violations = 0;
  /// Broken properties the primitive does not claim: counted, reported as metrics.
  std::map<std::string, std::uint64_t> unclaimed;
  /// Family-specific numbers of this execution (e.g. items processed).
  std::map<std::string, double> numbers;
};

/// Checks one property: a claimed one ends the execution on the spot through Sim::check (so
/// the counterexample's trace stops at the breach); an unclaimed one is only counted.
class Judge {
 public:
  Judge(std::uint32_t claims, Observations& obs) : claims_(claims), obs_(obs) {}

  bool claims(Claim c) const { return (claims_ & c) != 0; }

  void require(Claim c, bool ok, const std::string& message,
               source_location loc = source_location::current()) {
    if (ok) return;
    if (claims(c)) {
      Sim::check(false, (std::string(to_string(c)) + ": " + message).c_str(), loc);
    } else {
      ++obs_.unclaimed[std::string(to_string(c))];
    }
  }

 private:
  std::uint32_t claims_;
  Observations& obs_;
};

/// Who is waiting, since when: the bookkeeping behind bypass counts, FIFO violations and wait
/// times.
///
/// A waiter *arrives* (the step its acquisition starts) and is *settled* once it is certainly
/// in line: for a thread blocking in a sync primitive, at arrival (its first operation is its
/// doorway as far as the harness can tell); for a coroutine, once the primitive's await_suspend
/// returned with the coroutine suspended, i.e. queued. B is bypassed by A when A acquires while
/// B, settled strictly before A arrived, still waits. A primitive whose doorway comes after a
/// few steps (a failed fast path, then the queue) is thus not blamed for the order in which
/// two waiters raced through that doorway.
class WaitBook {
 public:
  explicit WaitBook(Observations& obs) : obs_(obs) {}

  struct Ticket {
    std::size_t actor;
    std::uint64_t arrival;
    std::uint64_t serial;
  };

  /// Stamps `actor`'s arrival. A `victim` is watched for starvation: see worst_victim().
  Ticket arrive(std::size_t actor, bool settled, bool victim = false) {
    Ticket t{actor, sim::current_step(), ++serials_};
    waiting_.push_back({t, 0, victim, settled ? t.arrival : kNotSettled});
    return t;
  }

  /// Marks the wait of `t` as settled now; a no-op if it already ended.
  void settle(const Ticket& t) {
    for (auto& w : waiting_) {
      if (w.ticket.serial == t.serial && w.settled_at == kNotSettled) {
        w.settled_at = sim::current_step();
      }
    }
  }

  /// Records the acquisition; returns how many earlier, settled waiters it bypassed.
  std::uint64_t acquired(const Ticket& t) {
    std::uint64_t passed = 0;
    for (auto& w : waiting_) {
      if (w.ticket.serial != t.serial && w.settled_at < t.arrival) {
        ++passed;
        ++w.bypasses;
        auto& victim = obs_.actors[w.ticket.actor];
        ++victim.bypassed;
        victim.max_bypassed = std::max(victim.max_bypassed, w.bypasses);
      }
    }
    obs_.fifo_violations += passed;
    auto& me = obs_.actors[t.actor];
    ++me.acquisitions;
    me.waits.push_back(sim::current_step() - t.arrival);
    std::erase_if(waiting_, [&](const Entry& e) { return e.ticket.serial == t.serial; });
    return passed;
  }

  /// The most bypasses any still-waiting victim has suffered in its current wait.
  std::uint64_t worst_victim() const {
    std::uint64_t worst = 0;
    for (const auto& w : waiting_) {
      if (w.victim) worst = std::max(worst, w.bypasses);
    }
    return worst;
  }

 private:
  static constexpr std::uint64_t kNotSettled = ~std::uint64_t{0};
  struct Entry {
    Ticket ticket;
    std::uint64_t bypasses;
    bool victim;
    std::uint64_t settled_at;
  };
  Observations& obs_;
  std::vector<Entry> waiting_;  // in arrival order; a handful of actors, so a vector
  std::uint64_t serials_ = 0;
};

/// Wraps a primitive's awaitable and calls `queued()` (or `queued(handle)`, if it takes the
/// suspended coroutine's handle) once the primitive's await_suspend has returned with the
/// coroutine suspended: from then on the coroutine is certainly in line.
template <class Inner, class OnQueued>
struct settling {
  Inner inner;
  OnQueued queued;

  bool await_ready() { return inner.await_ready(); }
  template <class Handle>
  auto await_suspend(Handle h) {
    // A copy first: once the inner await_suspend has queued the coroutine, another thread may
    // resume it (and end this awaiter's life) before the call returns here.
    OnQueued notify = queued;
    // The notification may take the suspended coroutine's handle (e.g. to cancel it later).
    auto notify_queued = [&notify, h] {
      if constexpr (std::is_invocable_v<OnQueued&, std::coroutine_handle<>>) {
        notify(std::coroutine_handle<>(h));
      } else {
        (void)h;
        notify();
      }
    };
    using R = decltype(inner.await_suspend(h));
    if constexpr (std::is_void_v<R>) {
      inner.await_suspend(h);
      notify_queued();
    } else if constexpr (std::is_same_v<R, bool>) {
      const bool suspended = inner.await_suspend(h);
      if (suspended) notify_queued();
      return suspended;
    } else {
      auto next = inner.await_suspend(h);
      notify_queued();
      return next;
    }
  }
  decltype(auto) await_resume() { return inner.await_resume(); }
};
template <class Inner, class OnQueued>
settling(Inner, OnQueued) -> settling<Inner, OnQueued>;

/// settling for a WaitBook ticket.
struct settle_in_book {
  WaitBook* book;
  WaitBook::Ticket ticket;
  void operator()() const { book->settle(ticket); }
};

/// The primitive under test, built as its kind is: a semaphore with `capacity` tokens, an
/// event not set, anything else by default. On the heap, so no family needs an optional.
template <Kind K, class Prim>
std::unique_ptr<Prim> make_primitive(std::int64_t capacity) {
  if constexpr (K == Kind::semaphore) {
    return std::make_unique<Prim>(capacity);
  } else if constexpr (K == Kind::event) {
    (void)capacity;
    return std::make_unique<Prim>(false);
  } else {
    (void)capacity;
    return std::make_unique<Prim>();
  }
}

/// Holders of a primitive right now, in Platform cells so Relacy can check them later.
struct Occupancy {
  Sim::cell<std::int64_t> exclusive{0};
  Sim::cell<std::int64_t> shared{0};

  std::int64_t add_exclusive(std::int64_t d) {
    return exclusive.with_mut([d](std::int64_t& v) { return v += d; });
  }
  std::int64_t add_shared(std::int64_t d) {
    return shared.with_mut([d](std::int64_t& v) { return v += d; });
  }
  std::int64_t exclusive_now() const {
    return exclusive.with([](const std::int64_t& v) { return v; });
  }
  std::int64_t shared_now() const {
    return shared.with([](const std::int64_t& v) { return v; });
  }
};

/// Steps taken inside a critical section: real scheduling points, so other actors get to run
/// (and to break in, if the primitive lets them) while the section is held.
inline void hold(Sim::atomic<std::int64_t>& work, std::int64_t steps) {
  for (std::int64_t i = 0; i < steps; ++i) work.fetch_add(1, std::memory_order_relaxed);
}

/// What every family's execution shares: its observations, the judge, the parameters, who
/// holds the primitive, and the checks made on entering a hold.
struct ScenarioContext {
  ScenarioContext(Observations& o, std::uint32_t claims, const Params& p)
      : obs(o), judge(claims, o), params(p) {}
  Observations& obs;
  Judge judge;
  const Params& params;
  Occupancy occupancy;
  Sim::atomic<std::int64_t> work{0};

  /// One more exclusive holder (for a semaphore: one more token holder); at most `capacity`
  /// may hold it, and never with a shared holder inside.
  void enter_exclusive(std::int64_t capacity = 1,
                       source_location loc = source_location::current()) {
    const auto holders = occupancy.add_exclusive(1);
    const auto shared = occupancy.shared_now();
    judge.require(kMutualExclusion, holders <= capacity && shared == 0,
                  std::to_string(holders) + " exclusive holders where at most " +
                      std::to_string(capacity) + " are allowed, " + std::to_string(shared) +
                      " shared holders inside",
                  loc);
  }
  /// One more shared holder; never with an exclusive holder inside.
  void enter_shared(source_location loc = source_location::current()) {
    occupancy.add_shared(1);
    judge.require(kMutualExclusion, occupancy.exclusive_now() == 0,
                  "a shared holder entered while an exclusive holder is inside", loc);
  }
  /// The hold_steps scheduling points of a critical section.
  void hold_section() { hold(work, params.integer("hold_steps")); }
  void leave_exclusive() { occupancy.add_exclusive(-1); }
  void leave_shared() { occupancy.add_shared(-1); }
};

/// Runs `t` on the calling thread and blocks the thread until the task has finished, wherever
/// it was resumed (an async primitive may resume it on a pool worker). A task that never
/// finishes leaves the caller blocked on an atomic named `what`, so the runtime's deadlock
/// report says what was being waited for.
inline void run_to_end(Task t, const std::string& what) {
  Sim::atomic<std::int32_t> finished{0};
  sim::set_name(&finished, what);
  auto signal = [](Task inner, Sim::atomic<std::int32_t>& flag) -> Task {
    co_await std::move(inner);
    flag.store(1, std::memory_order_release);  // pairs with the acquire load below
    Sim::wake_by_address_all(flag);
  };
  Task whole = signal(std::move(t), finished);
  whole.start();
  while (finished.load(std::memory_order_acquire) == 0) Sim::wait_on_address(finished, 0);
}

/// The actors of one execution. Lives on the main thread's stack; run() spawns one simulated
/// thread per actor, each starting its task, then waits until every task has finished.
class Actors {
 public:
  Actors() = default;
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;

  /// Adds an actor; `make` is called on the actor's own thread and returns its task.
  void add(std::function<Task()> make) { makers_.push_back(std::move(make)); }

  /// Starts every actor and blocks the calling (main) thread until all have finished.
  void run() {
    tasks_.resize(makers_.size());
    std::vector<std::unique_ptr<Sim::thread>> threads;
    for (std::size_t i = 0; i < makers_.size(); ++i) {
      threads.push_back(std::make_unique<Sim::thread>([this, i] {
        tasks_[i] = finish_counted(makers_[i]());
        tasks_[i].start();
      }));
    }
    for (auto& t : threads) t->join();
    wait_all_finished();
  }

  /// The task of actor i, e.g. to cancel it by destroying its frame.
  Task& task_of(std::size_t i) { return tasks_[i]; }
  std::size_t size() const { return makers_.size(); }
  /// How many actors have run to their end.
  std::int32_t finished() const { return finished_.load(std::memory_order_acquire); }
  /// Counts a cancelled actor as finished, so run() stops waiting for it.
  void cancelled() {
    finished_.fetch_add(1, std::memory_order_acq_rel);
    Sim::wake_by_address_all(finished_);
  }

 private:
  Task finish_counted(Task inner) {
    co_await inner.finished();
    // An exception escaping an actor is a finding (the scenario's or the primitive's), never
    // swallowed with the task. The runtime's teardown unwinds with a type of its own, not a
    // std::exception, which is left to go its way.
    if (auto error = inner.error()) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        Sim::check(false, (std::string("exception: ") + e.what()).c_str());
      } catch (...) {
        throw;
      }
    }
    // Pairs with the acquire load in wait_all_finished.
    finished_.fetch_add(1, std::memory_order_acq_rel);
    Sim::wake_by_address_all(finished_);
  }

  void wait_all_finished() {
    const auto n = static_cast<std::int32_t>(makers_.size());
    for (std::int32_t seen = finished_.load(std::memory_order_acquire); seen < n;
         seen = finished_.load(std::memory_order_acquire)) {
      Sim::wait_on_address(finished_, seen);
    }
  }

  std::vector<std::function<Task()>> makers_;
  std::vector<Task> tasks_;
  Sim::atomic<std::int32_t> finished_{0};
};

}  // namespace syncstress::scenarios
