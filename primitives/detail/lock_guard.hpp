// A scope guard for a Platform mutex that passes the caller's source location through, so a
// sim trace names the primitive's own line rather than a line inside <mutex>'s lock_guard.
#pragma once

#include "platform/platform.hpp"

namespace syncstress::primitives_detail {

/// Locks `m` for the guard's lifetime (std::lock_guard for P::mutex).
template <class Mutex>
class lock_guard {
 public:
  explicit lock_guard(Mutex& m, source_location loc = source_location::current())
      : m_(m), loc_(loc) {
    m_.lock(loc_);
  }
  ~lock_guard() { m_.unlock(loc_); }
  lock_guard(const lock_guard&) = delete;
  lock_guard& operator=(const lock_guard&) = delete;

 private:
  Mutex& m_;
  source_location loc_;
};

}  // namespace syncstress::primitives_detail
