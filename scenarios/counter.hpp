// The harness's counters (Counter): what a family counts during an execution, kept out of the
// primitive's schedule.
#pragma once

#include <atomic>
#include <cstdint>

#include "platform/platform.hpp"
#include "scenarios/harness_hooks.hpp"

namespace syncstress::scenarios {

/// A harness counter: exact on every platform, invisible to the schedule (std::atomic; see
/// scenarios/harness.hpp). Relaxed: the counts are observations, never used to order anything. A
/// reducing search on sim is told of each access (note_harness_access), so that executions it
/// counts as equivalent see the counter's updates in the same order.
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

}  // namespace syncstress::scenarios
