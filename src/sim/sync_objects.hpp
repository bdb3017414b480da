// The sim runtime's synchronization objects: a mutex, a parker, auto- and manual-reset events,
// a counting semaphore and a condition variable, which the Sim platform offers as Sim::mutex,
// Sim::parker, ... Inside an execution each
// operation is a scheduling point performed by the engine; outside one it acts directly on the
// object, single-threaded, and one that would block forever throws std::logic_error.
#pragma once

#include <chrono>
#include <condition_variable>  // std::cv_status
#include <cstddef>
#include <source_location>

#include "schedules/strategy.hpp"

namespace syncstress::sim {

namespace detail {
class Engine;
struct Thread;
}  // namespace detail

using source_location = std::source_location;

/// Sim's mutex: lock blocks the fiber while another holds it; unlock makes every waiter
/// runnable to retry, so the strategy decides who wins. Not recursive (relocking deadlocks).
class mutex {
 public:
  mutex();
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  /// Blocks until the mutex is free, then takes it.
  void lock(source_location loc = source_location::current());
  /// Releases the mutex; unlocking a mutex that is not held is a violation ("check").
  void unlock(source_location loc = source_location::current());
  /// Takes the mutex if free; never blocks.
  bool try_lock(source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  bool held_ = false;
  ThreadId owner_ = 0;
};

/// A binary permit per simulated thread (ConcRT Context::Block/Unblock).
class parker {
 public:
  parker() = default;
  parker(const parker&) = delete;
  parker& operator=(const parker&) = delete;
  /// Consumes the permit, or blocks until unpark() gives one. May return spuriously when
  /// Options::spurious_wakeups is on (a recorded choice), at the call or later while blocked.
  void park(source_location loc = source_location::current());
  /// Gives the permit (not lost if the owner is not parked yet) and wakes the owner.
  void unpark(source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  friend struct detail::Thread;
  bool permit_ = false;
  ThreadId owner_ = 0;
};

/// Win32 auto-reset event: set releases one waiter (chosen by the strategy among blocked
/// threads and resume_on_signal registrations) or stays signaled until a wait consumes it.
class auto_reset_event {
 public:
  explicit auto_reset_event(bool initially_set = false);
  auto_reset_event(const auto_reset_event&) = delete;
  auto_reset_event& operator=(const auto_reset_event&) = delete;
  void set(source_location loc = source_location::current());
  void reset(source_location loc = source_location::current());
  /// Blocks until signaled; consumes the signal.
  void wait(source_location loc = source_location::current());
  /// wait until `timeout` on the virtual clock: false if it timed out (sim/engine.hpp,
  /// "Timeouts").
  bool wait_for(std::chrono::nanoseconds timeout, source_location loc = source_location::current());
  /// Consumes the signal if set; never blocks.
  bool try_wait(source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  bool signaled_;
};

/// Win32 manual-reset event: set releases every current waiter and stays set until reset.
class manual_reset_event {
 public:
  explicit manual_reset_event(bool initially_set = false);
  manual_reset_event(const manual_reset_event&) = delete;
  manual_reset_event& operator=(const manual_reset_event&) = delete;
  void set(source_location loc = source_location::current());
  void reset(source_location loc = source_location::current());
  void wait(source_location loc = source_location::current());
  bool wait_for(std::chrono::nanoseconds timeout, source_location loc = source_location::current());
  bool try_wait(source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  bool signaled_;
};

/// A counting semaphore (std::counting_semaphore, sem_t): release adds tokens and makes every
/// blocked acquirer runnable to retry, so the strategy decides who gets them; acquire takes one,
/// blocking while there is none. Never returns spuriously.
class counting_semaphore {
 public:
  /// Starts with `initial` tokens (>= 0).
  explicit counting_semaphore(std::ptrdiff_t initial);
  counting_semaphore(const counting_semaphore&) = delete;
  counting_semaphore& operator=(const counting_semaphore&) = delete;
  /// Adds `n` tokens (n >= 1; a negative or zero n is a violation).
  void release(std::ptrdiff_t n = 1, source_location loc = source_location::current());
  /// Takes a token, blocking while there is none.
  void acquire(source_location loc = source_location::current());
  /// Takes a token if there is one; never blocks.
  bool try_acquire(source_location loc = source_location::current());
  /// acquire that gives up once `timeout` has passed on the virtual clock (false then); the
  /// timeout is a recorded choice at any later scheduling point (sim/engine.hpp, "Timeouts").
  bool try_acquire_for(std::chrono::nanoseconds timeout,
                       source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  std::ptrdiff_t count_;
};

/// A condition variable over sim's mutex (std::condition_variable_any). wait unlocks the mutex
/// and blocks in one step, and locks it again once woken: by a notify, spuriously when
/// Options::spurious_wakeups is on (a recorded choice, at the call or later while blocked), or,
/// for wait_for, by its timeout.
class condition_variable {
 public:
  condition_variable();
  condition_variable(const condition_variable&) = delete;
  condition_variable& operator=(const condition_variable&) = delete;
  /// Precondition: the calling thread holds `m` (else a violation).
  void wait(mutex& m, source_location loc = source_location::current());
  /// wait until a notify, a spurious wake or `timeout` on the virtual clock: cv_status::timeout
  /// then.
  std::cv_status wait_for(mutex& m, std::chrono::nanoseconds timeout,
                          source_location loc = source_location::current());
  /// Wakes one waiter (chosen by the strategy if several) or, notify_all, every waiter.
  void notify_one(source_location loc = source_location::current());
  void notify_all(source_location loc = source_location::current());
};

}  // namespace syncstress::sim
