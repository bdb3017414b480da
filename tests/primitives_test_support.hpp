// Shared helpers for tests/primitives_*_test.cpp: run a test body on a platform (real: once,
// under a watchdog; sim: under many seeds of the random strategy), start coroutines that
// signal when they are gone, and name the (platform, primitive) pairs of the typed tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

#include "platform/real.hpp"
#include "platform/sim.hpp"
#include "platform/task.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"
#include "watchdog.hpp"

namespace syncstress::testing {

/// One typed-test parameter: primitive template M instantiated on platform P.
template <class P, template <class> class M>
struct Case {
  using Platform = P;
  using Type = M<P>;
};

/// Storage of detached coroutine frames not yet destroyed, with their sizes. An execution
/// that sim ends early (deadlock, violation) abandons its suspended coroutines; their frames
/// are never destroyed, so the test frees their storage afterwards (without running their
/// destructors: the objects they point at are gone with the execution).
inline std::map<void*, std::size_t>& live_detached_frames() {
  static thread_local std::map<void*, std::size_t> frames;
  return frames;
}

/// Frees the storage of every detached frame an ended sim execution abandoned.
inline void reclaim_abandoned_frames() {
  for (auto [p, n] : live_detached_frames()) ::operator delete(p, n);
  live_detached_frames().clear();
}

/// How a test body runs on a platform. Specialized per platform.
template <class P>
struct Env;

template <>
struct Env<Real> {
  /// Runs `body` once on real threads, failing on a hang (watchdog) or a failed Real::check.
  static void run(const std::string& what, const std::function<void()>& body,
                  int /*executions*/ = 1) {
    (void)Real::take_failures();
    {
      Watchdog watchdog(what, std::chrono::seconds(10));
      body();
    }
    auto failures = Real::take_failures();
    EXPECT_EQ(failures.count, 0u) << what << ": "
                                  << (failures.first ? failures.first->what : std::string());
  }
  /// Real multi-threaded bodies run with more threads and iterations than on sim.
  static constexpr int kThreads = 4;
  static constexpr int kIterations = 2000;
  static constexpr int kExecutions = 1;
};

template <>
struct Env<Sim> {
  /// Runs `body` as the main thread of `executions` sim executions, each under its own seed
  /// of the random strategy; every one must complete (no violation, deadlock, frame misuse).
  /// With `spurious_wakeups`, wait_on_address and park may return spuriously (a choice).
  static void run(const std::string& what, const std::function<void()>& body, int executions = 1,
                  bool spurious_wakeups = false) {
    sim::Options options;
    options.record_trace = false;
    options.spurious_wakeups = spurious_wakeups;
    sim::Runtime runtime(options);
    RandomStrategy strategy(kSeed);
    for (int i = 0; i < executions; ++i) {
      const Execution execution = *strategy.new_execution();
      const sim::ExecutionResult r = runtime.run(strategy, execution, body);
      reclaim_abandoned_frames();
      ASSERT_EQ(r.outcome, sim::Outcome::completed)
          << what << ": execution " << i << " (run seed " << kSeed << ") ended "
          << sim::to_string(r.outcome) << " [" << r.property << "] " << r.message;
    }
  }
  /// Small sizes, many schedules.
  static constexpr int kThreads = 3;
  static constexpr int kIterations = 3;
  static constexpr int kExecutions = 200;
  static constexpr std::uint64_t kSeed = 20210318;
};

/// A fire-and-forget coroutine whose frame comes from (and is reported to) P like a task's.
/// start(done) runs it until its first suspension; when it finishes it destroys its own
/// frame and then sets `done`, so whoever waits on `done` never races with a live frame.
template <class P>
class detached {
 public:
  struct promise_type {
    typename P::manual_reset_event* done = nullptr;

    // noinline: once inlined, g++ -O3 pairs P::frame_allocate's ::operator new with this class
    // operator delete and warns (-Wmismatched-new-delete), though the pair is the class's own.
    [[gnu::noinline]] static void* operator new(std::size_t n) {
      void* p = P::frame_allocate(n);
      // Only sim abandons frames; real frames may die on another OS thread than their birth.
      if constexpr (std::is_same_v<P, Sim>) live_detached_frames().emplace(p, n);
      return p;
    }
    [[gnu::noinline]] static void operator delete(void* p, std::size_t n) {
      if constexpr (std::is_same_v<P, Sim>) live_detached_frames().erase(p);
      P::frame_deallocate(p, n);
    }
    promise_type() { P::frame_created(std::coroutine_handle<promise_type>::from_promise(*this)); }
    ~promise_type() {
      P::frame_destroyed(std::coroutine_handle<promise_type>::from_promise(*this));
    }

    detached get_return_object() {
      return detached(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto* done = h.promise().done;
        h.destroy();
        if (done) done->set();
      }
      void await_resume() noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    // As a task does: P learns the line of each co_await the frame reaches.
    template <class A>
    auto await_transform(A&& awaitable, source_location loc = source_location::current()) {
      return task_detail::pass_awaiter<P>(std::coroutine_handle<promise_type>::from_promise(*this),
                                          static_cast<A&&>(awaitable), loc);
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };

  detached(detached&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  detached(const detached&) = delete;
  ~detached() {
    if (h_) h_.destroy();  // never started
  }

  /// Runs the coroutine until it first suspends; `done` is set once it has finished.
  void start(typename P::manual_reset_event& done) {
    h_.promise().done = &done;
    P::resume(std::exchange(h_, {}));
  }

 private:
  explicit detached(std::coroutine_handle<promise_type> h) : h_(h) {}
  std::coroutine_handle<promise_type> h_;
};

/// The typed-test parameters: every primitive template Ms on every platform.
template <template <class> class... Ms>
using OnAllPlatforms = ::testing::Types<Case<Real, Ms>..., Case<Sim, Ms>...>;

}  // namespace syncstress::testing
