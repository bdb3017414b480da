// The harness's coroutine type: task<P, T>.
//
// Every coroutine that a scenario or a test runs against an async primitive is a task, so the
// platform sees its frame: the frame's storage comes from P::frame_allocate (on sim it is kept
// until the execution ends, so a primitive that touches a destroyed frame reads stale memory
// instead of crashing the tool), its birth and death are reported to P, and every resumption
// goes through P::resume.
//
// A task starts suspended. start() runs it on the calling thread until its first suspension.
// co_await task runs it and resumes the awaiting coroutine (through P::resume) once it
// finishes. destroy() (or the destructor) destroys the frame whatever its state: destroying a
// suspended frame is how a scenario cancels a waiting coroutine.
#pragma once

#include <atomic>
#include <coroutine>
#include <exception>
#include <optional>
#include <utility>

#include "platform/platform.hpp"

namespace syncstress {

template <class P, class T = void>
class task;

namespace task_detail {

// The hand-off between a finishing task and the coroutine awaiting it. Harness state, not a
// primitive's: it uses std::atomic directly. States: 0 nobody arrived, 1 one side arrived; the
// second side to arrive (exchange returns 1) resumes the continuation. Its acq_rel exchange
// orders the two sides; a platform that models the memory model is told of it
// (P::harness_acq_rel, sim's), as it cannot see a std::atomic.
template <class P>
bool arrive(std::atomic<int>& arrivals) {
  // Which side arrives second decides which thread runs the awaiting coroutine on: a race the
  // platform's reducing search must see (Sim::note_access), as both sides write.
  if constexpr (requires { P::note_access(&arrivals, true); }) P::note_access(&arrivals, true);
  const bool second = arrivals.exchange(1, std::memory_order_acq_rel) == 1;
  if constexpr (requires { P::harness_acq_rel(&arrivals); }) P::harness_acq_rel(&arrivals);
  return second;
}

/// Names `arrivals` for a reducing search by who made it, not by where it lives.
template <class P>
void created(const std::atomic<int>& arrivals) {
  if constexpr (requires { P::note_created(&arrivals); }) P::note_created(&arrivals);
}

// The awaiter `co_await a` uses: what a's operator co_await gives, or a itself (a reference).
template <class A>
decltype(auto) awaiter_of(A&& a) {
  if constexpr (requires { static_cast<A&&>(a).operator co_await(); }) {
    return static_cast<A&&>(a).operator co_await();
  } else if constexpr (requires { operator co_await(static_cast<A&&>(a)); }) {
    return operator co_await(static_cast<A&&>(a));
  } else {
    return static_cast<A&&>(a);
  }
}

// An awaiter passed on unchanged: W is the awaiter's type, or a reference to the awaitable that
// is its own awaiter. A prvalue of it is what await_transform returns: the compiler keeps it
// in the frame as it kept the awaiter, without moving the awaitable (some cannot move).
template <class W>
struct passed_awaiter {
  W awaiter;
  bool await_ready() { return awaiter.await_ready(); }
  template <class H>
  decltype(auto) await_suspend(H h) {
    return awaiter.await_suspend(h);
  }
  decltype(auto) await_resume() { return awaiter.await_resume(); }
};

// What a promise's await_transform does: tells P that the frame `h` reached the co_await at
// `loc`, and passes the awaitable's awaiter on.
template <class P, class A>
auto pass_awaiter(std::coroutine_handle<> h, A&& a, const source_location& loc) {
  P::frame_awaits(h, loc);
  return passed_awaiter<decltype(awaiter_of(static_cast<A&&>(a)))>{awaiter_of(static_cast<A&&>(a))};
}

// What the two promises share; Self is the promise deriving from it.
template <class P, class Self>
struct promise_base {
  std::coroutine_handle<> continuation{};
  std::atomic<int> arrivals{0};
  std::exception_ptr error{};

  static void* operator new(std::size_t n) { return P::frame_allocate(n); }
  static void operator delete(void* p, std::size_t n) { P::frame_deallocate(p, n); }

  std::suspend_always initial_suspend() noexcept { return {}; }

  struct final_awaiter {
    bool await_ready() noexcept { return false; }
    template <class Promise>
    void await_suspend(std::coroutine_handle<Promise> self) noexcept {
      auto& p = self.promise();
      if (p.continuation && arrive<P>(p.arrivals)) {
        P::resume(p.continuation);
      }
    }
    void await_resume() noexcept {}
  };
  final_awaiter final_suspend() noexcept { return {}; }
  // Every co_await in a task passes through here: P learns where the frame waits (a default
  // source_location of a call the compiler makes for a co_await is the co_await's own), and
  // the awaitable's awaiter goes on unchanged.
  template <class A>
  auto await_transform(A&& awaitable, source_location loc = source_location::current()) {
    return pass_awaiter<P>(std::coroutine_handle<Self>::from_promise(static_cast<Self&>(*this)),
                           static_cast<A&&>(awaitable), loc);
  }
  // A std::exception is kept for the awaiting coroutine (or error()). Anything else, such as
  // the sim runtime's teardown unwinding a fiber, leaves the coroutine (suspended at its final
  // point) and goes on unwinding the resumer's stack, as it must.
  void unhandled_exception() {
    try {
      throw;
    } catch (const std::exception&) {
      error = std::current_exception();
    }
  }
};

template <class P, class T>
struct promise : promise_base<P, promise<P, T>> {
  std::optional<T> value;
  promise() {
    P::frame_created(std::coroutine_handle<promise>::from_promise(*this));
    task_detail::created<P>(this->arrivals);
  }
  ~promise() { P::frame_destroyed(std::coroutine_handle<promise>::from_promise(*this)); }
  task<P, T> get_return_object() noexcept;
  template <class U>
  void return_value(U&& v) {
    value.emplace(std::forward<U>(v));
  }
};

template <class P>
struct promise<P, void> : promise_base<P, promise<P, void>> {
  promise() {
    P::frame_created(std::coroutine_handle<promise>::from_promise(*this));
    task_detail::created<P>(this->arrivals);
  }
  ~promise() { P::frame_destroyed(std::coroutine_handle<promise>::from_promise(*this)); }
  task<P, void> get_return_object() noexcept;
  void return_void() noexcept {}
};

}  // namespace task_detail

template <class P, class T>
class [[nodiscard]] task {
 public:
  using promise_type = task_detail::promise<P, T>;
  using handle_type = std::coroutine_handle<promise_type>;

  task() = default;
  explicit task(handle_type h) : h_(h) {}
  task(task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  task& operator=(task&& other) noexcept {
    if (this != &other) {
      destroy();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  task(const task&) = delete;
  task& operator=(const task&) = delete;
  ~task() { destroy(); }

  /// Runs the coroutine on the calling thread until it first suspends or finishes.
  /// Precondition: the task has a frame and was never started.
  void start(source_location loc = source_location::current()) { P::resume(h_, loc); }

  /// True once the coroutine ran to its end (or ended with an exception).
  bool done() const noexcept { return h_ && h_.done(); }
  bool valid() const noexcept { return static_cast<bool>(h_); }
  handle_type handle() const noexcept { return h_; }

  /// Destroys the frame in whatever state it is; a no-op for an empty task.
  void destroy() noexcept {
    if (!h_) return;
    auto h = std::exchange(h_, {});
    // Announced before the destructors run: they may take locks (an awaiter unlinking its
    // node), and a thread that resumes the frame meanwhile must find it already dead.
    P::frame_destroyed(h);
    h.destroy();
  }

  /// The coroutine's exception, rethrown, if it ended with one.
  void rethrow_if_failed() const {
    if (h_ && h_.promise().error) std::rethrow_exception(h_.promise().error);
  }

  /// The value the coroutine returned. Precondition: done() and no exception.
  decltype(auto) result() {
    rethrow_if_failed();
    if constexpr (!std::is_void_v<T>) return std::move(*h_.promise().value);
  }

  auto operator co_await() && noexcept { return awaiter<true>{h_}; }

  /// Awaits the end of the task like co_await, but leaves an exception it ended with in the
  /// task (see error()) instead of rethrowing it in the awaiting coroutine.
  auto finished() & noexcept { return awaiter<false>{h_}; }

  /// The exception the coroutine ended with, if any.
  std::exception_ptr error() const noexcept { return h_ ? h_.promise().error : nullptr; }

 private:
  template <bool kRethrow>
  struct awaiter {
    handle_type child;
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> parent) {
      child.promise().continuation = parent;
      P::resume(child);
      // Whoever arrives second resumes the parent; if the child already finished, the
      // parent simply does not suspend.
      return !task_detail::arrive<P>(child.promise().arrivals);
    }
    decltype(auto) await_resume() {
      if constexpr (kRethrow) {
        if (child.promise().error) std::rethrow_exception(child.promise().error);
        if constexpr (!std::is_void_v<T>) return std::move(*child.promise().value);
      }
    }
  };

  handle_type h_{};
};

namespace task_detail {
template <class P, class T>
task<P, T> promise<P, T>::get_return_object() noexcept {
  return task<P, T>(std::coroutine_handle<promise>::from_promise(*this));
}
template <class P>
task<P, void> promise<P, void>::get_return_object() noexcept {
  return task<P, void>(std::coroutine_handle<promise>::from_promise(*this));
}
}  // namespace task_detail

}  // namespace syncstress
