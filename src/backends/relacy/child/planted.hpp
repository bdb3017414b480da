// Deliberately broken primitives that only syncstress-relacy knows: the tool's tests of itself
// on the relacy platform (tests/cli_relacy_child_test.cpp). Each breaks one thing that sim, being
// sequentially consistent, cannot see or can see only as a hang; `syncstress-relacy list
// --planted` shows them, the plain `list` (what the CLI runs) does not.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress::relacy_planted {

/// A futex lock whose unlock stores with memory_order_relaxed: mutual exclusion holds on every
/// interleaving, but nothing orders one holder's writes before the next holder's reads, so
/// Relacy reports a data race on the guarded cell.
template <Platform P>
class relaxed_unlock_mutex {
 public:
  void lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(word_, 1);
  }
  void unlock() {
    word_.store(0, std::memory_order_relaxed);  // the planted bug: release is needed
    P::wake_by_address_single(word_);
  }

 private:
  typename P::template atomic<std::int32_t> word_{0};
};

/// A futex lock whose unlock forgets to wake a sleeper: the next waiter sleeps for ever once
/// the holders are done, which Relacy reports as a deadlock (a lost wake-up).
template <Platform P>
class forgetful_wake_mutex {
 public:
  void lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(word_, 1);
  }
  void unlock() { word_.store(0, std::memory_order_release); }  // the planted bug: no wake

 private:
  typename P::template atomic<std::int32_t> word_{0};
};

}  // namespace syncstress::relacy_planted
