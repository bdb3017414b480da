// The sim runtime's synchronization objects: a mutex, a parker, auto- and manual-reset events,
// which the Sim platform offers as Sim::mutex, Sim::parker, ... Inside an execution each
// operation is a scheduling point performed by the engine; outside one it acts directly on the
// object, single-threaded, and one that would block forever throws std::logic_error.
#pragma once

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
  bool try_wait(source_location loc = source_location::current());

 private:
  friend class detail::Engine;
  bool signaled_;
};

}  // namespace syncstress::sim
