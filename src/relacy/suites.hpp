// The Relacy test suites: what the actors of each family do on the relacy platform.
//
// Relacy fixes a test's thread count at compile time (rl::test_suite<derived, N>) and
// constructs the test afresh for every iteration, so the suites are templates over the
// primitive, its mode, the thread count and the number of dynamic threads the primitive may
// start (posts and thread-pool waits of the pooled variants), and they read their run-time
// parameters from one process-wide Params set before the search starts.
//
// Each family guards a `cell` (plain data, race-checked by Relacy) with the primitive, so a
// primitive that lets two holders in, or hands over without a release/acquire edge, fails with
// a data race even where the holders' counts look right. Occupancy is counted in plain ints:
// Relacy's threads are fibers of one OS thread, so the counters add no synchronisation that
// could hide a missing edge in the primitive.
//
// Actors run as task<Relacy> coroutines. A sync primitive's wait blocks the thread inside the
// task; an async one suspends the task, and whoever releases resumes it (on the releasing
// thread or a dynamic thread for the pooled variants). The starting thread then sleeps on a
// modelled flag until its task has finished; a task that never finishes leaves the thread
// asleep, which Relacy reports as a deadlock: how a lost wake-up shows here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/task.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/acquire.hpp"

namespace syncstress::relacy_suites {

/// The run-time parameters of every family (see `syncstress-relacy cell --help`).
struct Params {
  int actors = 3;     ///< safety: threads (2..kMaxActors)
  int rounds = 2;     ///< safety: acquisitions per actor
  int writers = 1;    ///< shared_mutex safety: how many actors lock exclusively
  int capacity = 1;   ///< semaphore safety: initial tokens
  int producers = 2;  ///< progress: producer threads (1..kMaxProducers)
  int items = 2;      ///< progress: items per producer
};
inline constexpr int kMaxActors = 3;
inline constexpr int kMaxProducers = 2;

/// The parameters of the running search (set once, before rl::simulate).
inline Params& params() {
  static Params p;
  return p;
}

using Task = task<Relacy>;

using scenarios::acquire;
using scenarios::acquire_shared;
using scenarios::acquire_token;
using scenarios::wait_for;

/// Runs `t` to its end from the calling thread: starts it, then sleeps on `finished` until the
/// task, wherever it was resumed, has set it. The frame is kept in `done` rather than destroyed
/// here: the thread that set the flag may still be inside the coroutine, between the flag and
/// its final suspension. The test's destructor frees the frames once every thread has ended.
inline void run_to_end(Task t, Relacy::atomic<int>& finished, std::vector<Task>& done) {
  t.start();
  finished.wait(0, std::memory_order_acquire);
  finished.store(0, std::memory_order_relaxed);
  done.push_back(std::move(t));
}

/// Wraps a body so that its last act is to flag `finished`.
inline Task flagged(Task body, Relacy::atomic<int>& finished) {
  co_await std::move(body);
  finished.store(1, std::memory_order_release);
  finished.notify_all();
}

/// What every suite holds first: the iteration's parkers and dynamic-thread budget, and one
/// finished-flag per static thread.
template <std::size_t N, std::size_t D>
struct Base {
  Relacy::IterationScope scope{N, D};
  Relacy::atomic<int> finished[N];
  std::vector<Task> done[N];

  /// Runs `t` to its end on thread `index`.
  void run(unsigned index, Task t) {
    run_to_end(flagged(std::move(t), finished[index]), finished[index], done[index]);
  }
};

// --- safety: mutex ---------------------------------------------------------------------------

template <template <class> class Prim, Mode M, std::size_t N, std::size_t D>
struct MutexSafety : rl::test_suite<MutexSafety<Prim, M, N, D>, N>, Base<N, D> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Prim<Relacy> m;
  Relacy::cell<int> guarded{0};
  int holders = 0;

  Task hold() {
    co_await acquire<M>(m);
    ++holders;
    Relacy::check(holders == 1, "mutual_exclusion: " + std::to_string(holders) +
                                    " exclusive holders where at most 1 is allowed");
    guarded.with_mut([](int& v) { ++v; });
    --holders;
    m.unlock();
  }
  void thread(unsigned index) {
    for (int r = 0; r < params().rounds; ++r) this->run(index, hold());
  }
};

// --- safety: shared mutex --------------------------------------------------------------------

template <template <class> class Prim, Mode M, std::size_t N, std::size_t D>
struct SharedMutexSafety : rl::test_suite<SharedMutexSafety<Prim, M, N, D>, N>, Base<N, D> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Prim<Relacy> m;
  Relacy::cell<int> guarded{0};
  int writers_in = 0;
  int readers_in = 0;

  Task write() {
    co_await acquire<M>(m);
    ++writers_in;
    Relacy::check(writers_in == 1 && readers_in == 0,
                  "mutual_exclusion: a writer holds the lock with " +
                      std::to_string(writers_in - 1) + " other writers and " +
                      std::to_string(readers_in) + " readers");
    guarded.with_mut([](int& v) { ++v; });
    --writers_in;
    m.unlock();
  }
  Task read() {
    co_await acquire_shared<M>(m);
    ++readers_in;
    Relacy::check(writers_in == 0, "mutual_exclusion: a reader holds the lock with a writer");
    (void)guarded.with([](const int& v) { return v; });
    --readers_in;
    m.unlock_shared();
  }
  void thread(unsigned index) {
    const bool writer = static_cast<int>(index) < params().writers;
    for (int r = 0; r < params().rounds; ++r) {
      this->run(index, writer ? write() : read());
    }
  }
};

// --- safety: semaphore -----------------------------------------------------------------------

template <template <class> class Prim, Mode M, std::size_t N, std::size_t D>
struct SemaphoreSafety : rl::test_suite<SemaphoreSafety<Prim, M, N, D>, N>, Base<N, D> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Prim<Relacy> s{static_cast<std::int64_t>(params().capacity)};
  // With one token the holders are exclusive and write one cell, so the token's hand-over must
  // order them; with more, holders may overlap and only their count is checked.
  Relacy::cell<int> guarded{0};
  int holders = 0;

  Task hold() {
    co_await acquire_token<M>(s);
    ++holders;
    Relacy::check(holders <= params().capacity,
                  "mutual_exclusion: " + std::to_string(holders) + " holders where at most " +
                      std::to_string(params().capacity) + " are allowed");
    if (params().capacity == 1) guarded.with_mut([](int& v) { ++v; });
    --holders;
    s.release();
  }
  void thread(unsigned index) {
    for (int r = 0; r < params().rounds; ++r) {
      this->run(index, hold());
    }
  }
};

// --- safety: event ---------------------------------------------------------------------------

/// Thread 0 publishes a value in a cell and sets the event; every other thread waits and then
/// reads the value: a wait that returns before the set, or without an edge from it, fails
/// (the value is missing, or Relacy sees the race). An auto-reset event releases one waiter per
/// set, so each released waiter passes the signal on with a set of its own.
template <template <class> class Prim, Mode M, std::size_t N, std::size_t D>
struct EventSafety : rl::test_suite<EventSafety<Prim, M, N, D>, N>, Base<N, D> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Prim<Relacy> e{false};
  Relacy::cell<int> published{0};

  Task wait() {
    co_await wait_for<M>(e);
    const int seen = published.with([](const int& v) { return v; });
    Relacy::check(seen == 42, "mutual_exclusion: a wait completed before the event was set");
    if constexpr (Prim<Relacy>::kAutoReset) e.set();
  }
  void thread(unsigned index) {
    if (index == 0) {
      published.with_mut([](int& v) { v = 42; });
      e.set();
      return;
    }
    this->run(index, wait());
  }
};

// --- progress: work queue --------------------------------------------------------------------

/// Thread 0 consumes; threads 1..N-1 produce `items` items each. A producer writes the item's
/// payload cell before it pushes; the consumer checks every item arrives once, with its
/// payload visible, and stops after the last: a lost wake-up leaves it asleep for ever, which
/// Relacy reports as a deadlock.
template <template <class> class Prim, Mode M, std::size_t N, std::size_t D>
struct WorkQueueProgress : rl::test_suite<WorkQueueProgress<Prim, M, N, D>, N>, Base<N, D> {
  static const rl::thread_id_t dynamic_thread_count = D;
  Prim<Relacy> q;
  std::vector<std::unique_ptr<Relacy::cell<int>>> payload;
  std::vector<int> seen;

  WorkQueueProgress() {
    const int total = static_cast<int>(N - 1) * params().items;
    for (int i = 0; i < total; ++i) payload.push_back(std::make_unique<Relacy::cell<int>>(0));
    seen.assign(static_cast<std::size_t>(total), 0);
  }
  void thread(unsigned index) {
    const int items = params().items;
    if (index == 0) {
      const int total = static_cast<int>(N - 1) * items;
      int consumed = 0;
      while (consumed < total) {
        q.consume_once([&](std::int64_t item) {
          Relacy::check(item >= 0 && item < total,
                        "no_lost_wakeups: unknown item " + std::to_string(item));
          auto& count = seen[static_cast<std::size_t>(item)];
          Relacy::check(++count == 1,
                        "no_lost_wakeups: item " + std::to_string(item) + " processed twice");
          const int value =
              payload[static_cast<std::size_t>(item)]->with([](const int& v) { return v; });
          Relacy::check(
              value == static_cast<int>(item) + 1,
              "no_lost_wakeups: item " + std::to_string(item) + " arrived before its payload");
          ++consumed;
        });
      }
      return;
    }
    for (int k = 0; k < items; ++k) {
      const int item = static_cast<int>(index - 1) * items + k;
      payload[static_cast<std::size_t>(item)]->with_mut([item](int& v) { v = item + 1; });
      q.push(item);
    }
  }
};

}  // namespace syncstress::relacy_suites
