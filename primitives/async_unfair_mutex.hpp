// Document 000: the unfair async mutex (an auto-reset event created signaled; enter with
// `co_await resume_on_signal(event)`, leave by setting the event from a scope-exit guard),
// packed as the bonus chatter does (document 000 lines 70-82, `LockAsync`), and the blocking
// form a reader proposes in the comments (WaitForSingleObject to enter, SetEvent to leave).
//
// Replacements:
//   - the event created signaled (document 000 lines 11-14, `CreateEvent`) and its WIL form
//     (document 000 lines 50 and 74-75, `wil::unique_event`) -> P::auto_reset_event(true);
//   - document 000 lines 31, 58 and 79 (`winrt::resume_on_signal`) -> an awaiter whose
//     await_suspend calls P::resume_on_signal;
//   - document 000 lines 16-23, 59 and 80 (`SetEvent_scope_exit`) -> the move-only
//     event_set_scope_exit below;
//   - document 000 line 77 (`wil::task<wil::event_set_scope_exit>`) -> task<P, guard>;
//   - document 000 lines 92-94 (`WaitForSingleObject`, `SetEvent`) -> P::auto_reset_event's
//     wait / set.
// Compile note: the struct at document 000 lines 16-23 (`struct SetEvent_scope_exit`) lacks
// its closing `;`.
// Deviation: lock() (the resume_on_signal awaiter) and unlock() (SetEvent) are added for the
// kind interface. The document promises no fairness (document 000 line 68, `unfair`).
#pragma once

#include <coroutine>
#include <utility>

#include "platform/platform.hpp"
#include "platform/task.hpp"

namespace syncstress {

/// Document 000's bonus: an async mutex on an auto-reset event. Unfair by design.
template <Platform P>
class async_unfair_mutex {
 public:
  /// Sets the event when destroyed (wil::event_set_scope_exit); move-only.
  class event_set_scope_exit {
   public:
    explicit event_set_scope_exit(typename P::auto_reset_event& e) : event_(&e) {}
    event_set_scope_exit(event_set_scope_exit&& other) noexcept
        : event_(std::exchange(other.event_, nullptr)) {}
    event_set_scope_exit& operator=(event_set_scope_exit&&) = delete;
    event_set_scope_exit(const event_set_scope_exit&) = delete;
    ~event_set_scope_exit() {
      if (event_) event_->set();
    }

   private:
    typename P::auto_reset_event* event_;
  };

  /// winrt::resume_on_signal(handle): always suspends; the platform's thread-pool wait
  /// consumes the signal and resumes the coroutine on the pool.
  class resume_on_signal_awaiter {
   public:
    explicit resume_on_signal_awaiter(typename P::auto_reset_event& e) : event_(e) {}
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) { P::resume_on_signal(event_, h); }
    void await_resume() const noexcept {}

   private:
    typename P::auto_reset_event& event_;
  };

  async_unfair_mutex() = default;
  async_unfair_mutex(const async_unfair_mutex&) = delete;
  async_unfair_mutex& operator=(const async_unfair_mutex&) = delete;

  /// Document 000's LockAsync(): owns the mutex when the task completes; the returned guard
  /// releases it when destroyed.
  task<P, event_set_scope_exit> lock_async() {
    co_await resume_on_signal_awaiter(serializer_handle_);
    co_return event_set_scope_exit(serializer_handle_);
  }

  /// Kind interface: `co_await m.lock()` is `co_await resume_on_signal(handle)`.
  resume_on_signal_awaiter lock() { return resume_on_signal_awaiter(serializer_handle_); }
  /// Kind interface: SetEvent(handle).
  void unlock() { serializer_handle_.set(); }

 private:
  // Signaled = free. An owner leaves it clear; set() passes it to one waiter or leaves it
  // signaled.
  typename P::auto_reset_event serializer_handle_{true};
};

/// The blocking form from the comments (document 000 lines 92-94, `WaitForSingleObject`): an
/// auto-reset event created signaled, WaitForSingleObject to enter and SetEvent to leave. No
/// thread affinity, not reentrant; fair today, but not by contract (document 000 line 96,
/// `contractual`).
template <Platform P>
class event_mutex {
 public:
  event_mutex() = default;
  event_mutex(const event_mutex&) = delete;
  event_mutex& operator=(const event_mutex&) = delete;

  /// Blocks until the caller owns the mutex (WaitForSingleObject).
  void lock() { event_.wait(); }
  /// Releases the mutex (SetEvent); any thread may release.
  void unlock() { event_.set(); }
  /// Takes the mutex if it is free (WaitForSingleObject with a zero timeout).
  bool try_lock() { return event_.try_wait(); }

 private:
  typename P::auto_reset_event event_{true};
};

}  // namespace syncstress
