// Controls: the platform's own Win32-style events (P::auto_reset_event,
// P::manual_reset_event) behind the event kind interface (sync). Not from a source document;
// known-good references for the event scenarios.
#pragma once

#include "platform/platform.hpp"

namespace syncstress {

/// P::auto_reset_event: each set() releases one wait.
template <Platform P>
class platform_auto_reset_event {
 public:
  static constexpr bool kAutoReset = true;

  explicit platform_auto_reset_event(bool initially_set) : event_(initially_set) {}
  platform_auto_reset_event(const platform_auto_reset_event&) = delete;
  platform_auto_reset_event& operator=(const platform_auto_reset_event&) = delete;

  /// Releases one waiter, or leaves the event set for the next wait.
  void set() { event_.set(); }
  /// Clears the event.
  void reset() { event_.reset(); }
  /// Blocks until it consumes a signal.
  void wait() { event_.wait(); }

 private:
  typename P::auto_reset_event event_;
};

/// P::manual_reset_event: set() releases everyone until reset().
template <Platform P>
class platform_manual_reset_event {
 public:
  static constexpr bool kAutoReset = false;

  explicit platform_manual_reset_event(bool initially_set) : event_(initially_set) {}
  platform_manual_reset_event(const platform_manual_reset_event&) = delete;
  platform_manual_reset_event& operator=(const platform_manual_reset_event&) = delete;

  /// Sets the event, releasing every waiter.
  void set() { event_.set(); }
  /// Clears the event.
  void reset() { event_.reset(); }
  /// Blocks until the event is set.
  void wait() { event_.wait(); }

 private:
  typename P::manual_reset_event event_;
};

}  // namespace syncstress
