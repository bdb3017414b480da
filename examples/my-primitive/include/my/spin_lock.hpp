// A test-and-set spin lock, written once against syncstress's Platform concept so that the
// same source runs on real threads, on syncstress's deterministic scheduler and under Relacy.
//
// The Variant picks, at compile time, between correct locks and planted bugs:
//   exchange        take the flag with one atomic exchange (the correct lock);
//   check_then_set  load the flag, and if it is clear store it set: two operations, so two
//                   threads can both see it clear before either sets it (both enter);
//   fences          the exchange and the store relaxed, ordered by fences instead: an acquire
//                   fence after taking the flag, a release fence before clearing it (correct);
//   fence_dropped   the same without the release fence: mutual exclusion holds, but nothing
//                   orders the holder's writes before the next holder's reads (a data race
//                   that only a memory model, Relacy's, can show).
#pragma once

#include "platform/platform.hpp"

namespace my {

enum class Variant { exchange, check_then_set, fences, fence_dropped };

template <syncstress::Platform P, Variant V = Variant::exchange>
class spin_lock {
 public:
  spin_lock() = default;
  spin_lock(const spin_lock&) = delete;
  spin_lock& operator=(const spin_lock&) = delete;

  /// Spins (yielding) until the caller holds the lock.
  void lock() {
    for (;;) {
      if constexpr (V == Variant::exchange) {
        // acquire: pairs with unlock's release store, so the last holder's writes are seen.
        if (!locked_.exchange(true, std::memory_order_acquire)) return;
      } else if constexpr (V == Variant::fences || V == Variant::fence_dropped) {
        if (!locked_.exchange(true, std::memory_order_relaxed)) {
          // acquire fence: with unlock's release fence, orders the last holder's writes before
          // what this holder reads.
          P::atomic_thread_fence(std::memory_order_acquire);
          return;
        }
      } else {
        // The planted bug: another thread may take the lock between this load and the store.
        if (!locked_.load(std::memory_order_acquire)) {
          locked_.store(true, std::memory_order_relaxed);
          return;
        }
      }
      // relaxed: only a hint that the lock looks free; the exchange above decides.
      while (locked_.load(std::memory_order_relaxed)) P::yield();
    }
  }

  /// Releases the lock. Precondition: the caller holds it.
  void unlock() {
    if constexpr (V == Variant::fences) {
      // release fence: pairs with lock's acquire fence through the relaxed store below.
      P::atomic_thread_fence(std::memory_order_release);
      locked_.store(false, std::memory_order_relaxed);
    } else if constexpr (V == Variant::fence_dropped) {
      // The planted bug: the release fence is missing.
      locked_.store(false, std::memory_order_relaxed);
    } else {
      // release: pairs with lock's acquire exchange (or load).
      locked_.store(false, std::memory_order_release);
    }
  }

 private:
  // false: free; true: held. lock() sets it (false -> true), unlock() clears it.
  typename P::template atomic<bool> locked_{false};
};

}  // namespace my
