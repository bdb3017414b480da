// What every scenario family shares, on every platform: actors, the occupancy counters, the
// wait bookkeeping behind fairness and starvation metrics, and the uniform way to acquire a
// primitive whether it is used from threads (sync) or from coroutines (async).
//
// Everything here is a template over the Platform P, so one family body runs on sim, under
// Relacy and on real threads. An actor is a task<P> started on a P::thread of its own. For a
// sync primitive the "awaits" below block the thread and never suspend, so the task runs to its
// end inside start(); for an async primitive the task suspends in the primitive and is resumed
// by whoever releases it, on whatever thread. Either way the body's thread waits for every
// actor's task to finish; one that never does shows up as a deadlock (sim, Relacy).
//
// The harness's own bookkeeping (who holds the primitive, how many sets an event saw) is kept
// in std::atomic, not in Platform objects: it must not add scheduling points on sim (the traces
// would change), nor synchronisation that Relacy would credit to the primitive, and it must be
// exact on real threads. What the primitive must order is touched through P::cell: a holder's
// write of `guarded`, a waiter's read of an event's published value.
#pragma once

#include <algorithm>
#include <atomic>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "platform/platform.hpp"
#include "platform/task.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/acquire.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {

/// What the harness needs from a platform beyond the Platform concept, which is all a primitive
/// may use. One specialization per platform, beside its driver: src/backends/sim/on_sim.hpp,
/// src/backends/relacy/child/on_relacy.hpp, src/backends/stress/on_real.hpp. Each provides
///   static std::uint64_t now();                     the clock of wait times (sim: steps)
///   static void name(const void* object, const std::string& name);   for deadlock reports
///   static void found(const Finding&, const source_location& where)
///                                                   a claimed property broke: end the execution
///   static void retire(std::shared_ptr<void> state)  harness state that a finishing actor may
///                     still touch (its flag, its frame): keep it until the execution ends
/// and, where the clock is a wall clock (real threads), optionally
///   static std::uint64_t settle_delay();            how long after its arrival a thread blocking
///                     in a sync primitive counts as queued (WaitBook; 0 when absent)
///   static std::uint64_t victim_wait_bound();       the longest one wait of a starvation victim
///                     may last before a claimed starvation freedom fails (0: none; absent: none)
template <class P>
struct HarnessHooks;

/// HarnessHooks<P>::settle_delay(), or 0 where the platform has none.
template <class P>
std::uint64_t settle_delay() {
  if constexpr (requires { HarnessHooks<P>::settle_delay(); }) {
    return HarnessHooks<P>::settle_delay();
  } else {
    return 0;
  }
}

/// HarnessHooks<P>::victim_wait_bound(), or 0 (no bound) where the platform has none.
template <class P>
std::uint64_t victim_wait_bound() {
  if constexpr (requires { HarnessHooks<P>::victim_wait_bound(); }) {
    return HarnessHooks<P>::victim_wait_bound();
  } else {
    return 0;
  }
}

/// Whether every heap allocation and free is a choice of P's scheduler
/// (HarnessHooks<P>::kAllocationsAreChoices): Relacy draws at every free whether to defer the
/// block's reuse, so what the harness allocates is part of every Relacy schedule: a change to
/// it changes the executions a seed and iteration run.
template <class P>
constexpr bool allocations_are_choices() {
  if constexpr (requires { HarnessHooks<P>::kAllocationsAreChoices; }) {
    return HarnessHooks<P>::kAllocationsAreChoices;
  } else {
    return false;
  }
}

/// Checks one property: a claimed one records its Finding and ends the execution on the spot
/// (so the counterexample's trace stops at the breach); an unclaimed one is only counted.
template <Platform P>
class Judge {
 public:
  Judge(std::uint32_t claims, Observations& obs) : claims_(claims), obs_(obs) {}

  bool claims(Claim c) const { return (claims_ & c) != 0; }

  void require(Claim c, bool ok, const std::string& message,
               source_location loc = source_location::current()) {
    if (ok) return;
    if (!claims(c)) {
      const std::lock_guard<std::mutex> lock(mutex_);
      ++obs_.unclaimed[std::string(to_string(c))];
      return;
    }
    Finding f{c, std::string(to_string(c)), message, loc.file_name(), loc.line()};
    {
      // The first breach is the execution's finding (on real threads others may follow).
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!obs_.finding) obs_.finding = f;
    }
    HarnessHooks<P>::found(f, loc);
  }
  /// The same with the message made by `make_message`, only on a breach: a check made at every
  /// step of every execution builds no string while it holds. Where allocations are choices of
  /// the platform's scheduler (allocations_are_choices), it is made every time.
  template <class MakeMessage>
  requires std::is_invocable_r_v<std::string, MakeMessage&>
  void require(Claim c, bool ok, MakeMessage make_message,
               source_location loc = source_location::current()) {
    if (allocations_are_choices<P>() || !ok) require(c, ok, make_message(), loc);
  }

 private:
  std::uint32_t claims_;
  Observations& obs_;
  // Harness state, not the model's: it never blocks a scheduling point (sim, Relacy run their
  // threads on one OS thread) and keeps real threads from racing on the observations.
  std::mutex mutex_;
};

/// Tells a reducing search on sim (Sim::note_access) that the current step reads or writes
/// harness state whose order a verdict depends on; nothing on the other platforms.
template <Platform P>
void note_harness_access(const void* object, bool write) {
  if constexpr (requires { P::note_access(object, write); }) P::note_access(object, write);
}

/// Tells a reducing search on sim (Sim::note_created) that harness state it will be told of
/// was just made by the current thread, so it names it by creator, not address.
template <Platform P>
void note_harness_created(const void* object) {
  if constexpr (requires { P::note_created(object); }) P::note_created(object);
}

/// Who is waiting, since when: the bookkeeping behind bypass counts, FIFO violations and wait
/// times.
///
/// A waiter *arrives* (the tick its acquisition starts) and is *settled* once it is certainly
/// in line: for a thread blocking in a sync primitive, at arrival (its first operation is its
/// doorway as far as the harness can tell); for a coroutine, once the primitive's await_suspend
/// returned with the coroutine suspended, i.e. queued. B is bypassed by A when A acquires while
/// B, settled strictly before A arrived, still waits. A primitive whose doorway comes after a
/// few steps (a failed fast path, then the queue) is thus not blamed for the order in which
/// two waiters raced through that doorway. On real threads a thread may be preempted between
/// its arrival and its doorway for as long as the kernel likes, so a sync waiter counts as
/// settled only settle_delay() after it arrived.
template <Platform P>
class WaitBook {
 public:
  explicit WaitBook(Observations& obs) : obs_(obs) { note_harness_created<P>(this); }

  struct Ticket {
    std::size_t actor;
    std::uint64_t arrival;
    std::uint64_t serial;
  };

  /// Stamps `actor`'s arrival. A `victim` is watched for starvation: see worst_victim().
  Ticket arrive(std::size_t actor, bool settled, bool victim = false) {
    note_harness_access<P>(this, true);
    const std::lock_guard<std::mutex> lock(mutex_);
    Ticket t{actor, HarnessHooks<P>::now(), ++serials_};
    if (victim) obs_.actors[actor].victim = true;
    waiting_.push_back({t, 0, victim, settled ? t.arrival + settle_delay<P>() : kNotSettled});
    return t;
  }

  /// Marks the wait of `t` as settled now; a no-op if it already ended.
  void settle(const Ticket& t) {
    note_harness_access<P>(this, true);
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto& w : waiting_) {
      if (w.ticket.serial == t.serial && w.settled_at == kNotSettled) {
        w.settled_at = HarnessHooks<P>::now();
      }
    }
  }

  /// Records the acquisition; returns how many earlier, settled waiters it bypassed.
  std::uint64_t acquired(const Ticket& t) {
    note_harness_access<P>(this, true);
    const std::lock_guard<std::mutex> lock(mutex_);
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
    me.waits.push_back(HarnessHooks<P>::now() - t.arrival);
    std::erase_if(waiting_, [&](const Entry& e) { return e.ticket.serial == t.serial; });
    return passed;
  }

  /// The longest a still-waiting victim has waited so far, in clock ticks.
  std::uint64_t longest_victim_wait() const {
    note_harness_access<P>(this, false);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = HarnessHooks<P>::now();
    std::uint64_t worst = 0;
    for (const auto& w : waiting_) {
      if (w.victim && now > w.ticket.arrival) worst = std::max(worst, now - w.ticket.arrival);
    }
    return worst;
  }

  /// The most bypasses any still-waiting victim has suffered in its current wait.
  std::uint64_t worst_victim() const {
    note_harness_access<P>(this, false);
    const std::lock_guard<std::mutex> lock(mutex_);
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
  mutable std::mutex mutex_;  // for real threads; see Judge
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
template <Platform P>
struct settle_in_book {
  WaitBook<P>* book;
  typename WaitBook<P>::Ticket ticket;
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

/// A harness counter: exact on every platform, invisible to the schedule (see the file
/// comment). Relaxed: the counts are observations, never used to order anything. A reducing
/// search on sim is told of each access (note_harness_access), so that executions it counts
/// as equivalent see the counter's updates in the same order.
template <Platform P>
class Counter {
 public:
  explicit Counter(std::int64_t v = 0) : v_(v) { note_harness_created<P>(this); }
  std::int64_t add(std::int64_t d) {
    note_harness_access<P>(this, true);
    return v_.fetch_add(d, std::memory_order_relaxed) + d;
  }
  std::int64_t get() const {
    note_harness_access<P>(this, false);
    return v_.load(std::memory_order_relaxed);
  }
  void set(std::int64_t v) {
    note_harness_access<P>(this, true);
    v_.store(v, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::int64_t> v_;
};

/// Holders of a primitive right now.
template <Platform P>
struct Occupancy {
  Counter<P> exclusive;
  Counter<P> shared;
};

/// Steps taken inside a critical section: real scheduling points, so other actors get to run
/// (and to break in, if the primitive lets them) while the section is held.
template <Platform P>
void hold(typename P::template atomic<std::int64_t>& work, std::int64_t steps) {
  for (std::int64_t i = 0; i < steps; ++i) work.fetch_add(1, std::memory_order_relaxed);
}

/// What every family's execution shares: its observations, the judge, the parameters, who
/// holds the primitive, and the checks made on entering a hold.
template <Platform P>
struct ScenarioContext {
  ScenarioContext(Observations& o, std::uint32_t claims, const Params& p)
      : obs(o), judge(claims, o), params(p) {}
  Observations& obs;
  Judge<P> judge;
  const Params& params;
  Occupancy<P> occupancy;
  typename P::template atomic<std::int64_t> work{0};
  /// Data only exclusive holders write and shared holders read: the primitive must order
  /// these accesses (a race on it is Relacy's evidence of a missing edge).
  typename P::template cell<std::int64_t> guarded{0};

  /// One more exclusive holder (for a semaphore: one more token holder); at most `capacity`
  /// may hold it, and never with a shared holder inside.
  void enter_exclusive(std::int64_t capacity = 1,
                       source_location loc = source_location::current()) {
    const auto holders = occupancy.exclusive.add(1);
    const auto shared = occupancy.shared.get();
    judge.require(
        kMutualExclusion, holders <= capacity && shared == 0,
        [&] {
          return std::to_string(holders) + " exclusive holders where at most " +
                 std::to_string(capacity) + " are allowed, " + std::to_string(shared) +
                 " shared holders inside";
        },
        loc);
    // Holders of a multi-token semaphore overlap by design: only a lone holder writes.
    if (capacity == 1) guarded.with_mut([](std::int64_t& v) { ++v; });
  }
  /// One more shared holder; never with an exclusive holder inside.
  void enter_shared(source_location loc = source_location::current()) {
    occupancy.shared.add(1);
    judge.require(kMutualExclusion, occupancy.exclusive.get() == 0,
                  "a shared holder entered while an exclusive holder is inside", loc);
    (void)guarded.with([](const std::int64_t& v) { return v; });
  }
  /// The hold_steps scheduling points of a critical section.
  void hold_section() {
    // Looked up once per execution, not per section: a lookup by name costs more than a step.
    if (hold_steps_ < 0) hold_steps_ = params.integer("hold_steps");
    hold<P>(work, hold_steps_);
  }
  void leave_exclusive() { occupancy.exclusive.add(-1); }
  void leave_shared() { occupancy.shared.add(-1); }

 private:
  std::int64_t hold_steps_ = -1;  // params' hold_steps, once hold_section asked (never negative)
};

/// Runs `t` on the calling thread and blocks the thread until the task has finished, wherever
/// it was resumed (an async primitive may resume it on a pool worker). A task that never
/// finishes leaves the caller blocked on an atomic named `what`, so a deadlock report says
/// what was being waited for.
template <Platform P>
void run_to_end(task<P> t, const std::string& what) {
  // The flag and the frame outlive this call (see HarnessHooks::retire): the thread that sets
  // the flag may still be inside the coroutine, between the store and its final suspension.
  struct State {
    typename P::template atomic<std::int32_t> finished{0};
    task<P> whole;
  };
  auto state = std::make_shared<State>();
  auto& finished = state->finished;
  HarnessHooks<P>::name(&finished, what);
  auto signal = [](task<P> inner, typename P::template atomic<std::int32_t>& flag) -> task<P> {
    co_await std::move(inner);
    flag.store(1, std::memory_order_release);  // pairs with the acquire load below
    P::wake_by_address_all(flag);
  };
  state->whole = signal(std::move(t), finished);
  state->whole.start();
  while (finished.load(std::memory_order_acquire) == 0) P::wait_on_address(finished, 0);
  HarnessHooks<P>::retire(std::move(state));
}

/// The actors of one execution. Lives on the body's stack; run() starts one P::thread per
/// actor, each starting its task, then waits until every task has finished.
template <Platform P>
class Actors {
 public:
  using Task = task<P>;

  explicit Actors(Observations& obs) : obs_(obs) {}
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;
  // The counter and the frames outlive the group (see HarnessHooks::retire): the last actor
  // may still be waking the counter, or inside its frame, when run() has returned.
  ~Actors() { HarnessHooks<P>::retire(std::move(state_)); }

  /// Adds an actor; `make` is called on the actor's own thread and returns its task.
  void add(std::function<Task()> make) { makers_.push_back(std::move(make)); }

  /// Starts every actor and blocks the calling thread until all have finished. The spawns are
  /// traced at `loc` (the family's call), not inside std::make_unique.
  void run(source_location loc = source_location::current()) {
    state_->tasks.resize(makers_.size());
    std::vector<std::unique_ptr<typename P::thread>> threads;
    for (std::size_t i = 0; i < makers_.size(); ++i) {
      threads.push_back(std::make_unique<typename P::thread>(
          [this, i] {
            state_->tasks[i] = finish_counted(makers_[i]());
            state_->tasks[i].start();
          },
          loc));
    }
    for (auto& t : threads) t->join();
    wait_all_finished();
  }

  /// The task of actor i, e.g. to cancel it by destroying its frame.
  Task& task_of(std::size_t i) { return state_->tasks[i]; }
  /// Counts a cancelled actor as finished, so run() stops waiting for it.
  void cancelled() {
    state_->finished.fetch_add(1, std::memory_order_acq_rel);
    P::wake_by_address_all(state_->finished);
  }

 private:
  Task finish_counted(Task inner) {
    co_await inner.finished();
    // An exception escaping an actor is a finding (the scenario's or the primitive's), never
    // swallowed with the task. A runtime's teardown unwinds with a type of its own, not a
    // std::exception, which is left to go its way.
    if (auto error = inner.error()) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        Finding f{std::nullopt, "exception", e.what(), __FILE__, __LINE__};
        {
          const std::lock_guard<std::mutex> lock(finding_mutex_);
          if (!obs_.finding) obs_.finding = f;
        }
        HarnessHooks<P>::found(f, source_location::current());
      } catch (...) {
        throw;
      }
    }
    // Once the count is in, run() may return and the group (whose members live on the body's
    // stack) go away: only the retired state, through a pointer in this frame, is touched after.
    auto& finished = state_->finished;
    // Pairs with the acquire load in wait_all_finished.
    finished.fetch_add(1, std::memory_order_acq_rel);
    P::wake_by_address_all(finished);
  }

  void wait_all_finished() {
    const auto n = static_cast<std::int32_t>(makers_.size());
    for (std::int32_t seen = state_->finished.load(std::memory_order_acquire); seen < n;
         seen = state_->finished.load(std::memory_order_acquire)) {
      P::wait_on_address(state_->finished, seen);
    }
  }

  Observations& obs_;
  std::mutex finding_mutex_;  // real threads may fail together; see Judge
  std::vector<std::function<Task()>> makers_;
  struct State {
    typename P::template atomic<std::int32_t> finished{0};
    std::vector<Task> tasks;  // after the counter: destroyed first, as the frames go first
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace syncstress::scenarios
