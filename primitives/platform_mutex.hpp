// Control: the platform's own mutex (std::mutex on real, the runtime's mutex on sim) behind
// the mutex kind interface. Not from a source document; a known-good reference.
#pragma once

#include "platform/platform.hpp"

namespace syncstress {

template <Platform P>
class platform_mutex {
 public:
  platform_mutex() = default;
  platform_mutex(const platform_mutex&) = delete;
  platform_mutex& operator=(const platform_mutex&) = delete;

  /// Blocks until the caller owns the mutex.
  void lock() { mutex_.lock(); }
  /// Takes the mutex if free; never blocks.
  bool try_lock() { return mutex_.try_lock(); }
  /// Releases the mutex. Precondition: the caller owns it.
  void unlock() { mutex_.unlock(); }

 private:
  typename P::mutex mutex_;
};

}  // namespace syncstress
