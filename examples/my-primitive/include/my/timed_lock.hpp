// A hand-off mutex with a timed acquisition, written once against syncstress's Platform concept.
//
// lock() queues a waiter that finds the lock held on a waiter list kept in the lock word itself
// (an atomic std::uintptr_t: the top waiter's address, with the held bit in bit 0) and sleeps on
// the waiter's own counting semaphore; unlock() pops the top waiter and hands it the lock, which
// stays held throughout. A waiter that gives up cannot leave that list safely (the unlocker may be
// handing it the lock), so try_lock_for(d) waits apart: on a condition variable, over an internal
// mutex, for the lock to become free, until its deadline on P::now(). Both return a guard that
// unlocks when destroyed (try_lock_for's holds nothing after a timeout).
//
// The Variant picks, at compile time:
//   exchange         the timed path takes a free lock with a compare-exchange (correct);
//   check_then_set   the timed path loads the word and, seeing it free, stores it held: its
//                    author counted on the internal mutex, which lock() never takes, so a lock()
//                    between the two enters too, or queues a waiter the store then erases. A
//                    planted bug that only a scenario calling try_lock_for reaches.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

#include "platform/platform.hpp"

namespace my {

enum class TimedVariant { exchange, check_then_set };

template <syncstress::Platform P, TimedVariant V = TimedVariant::exchange>
class timed_lock {
 public:
  /// Holds the lock from an acquisition until it is destroyed; a moved-from guard, or the one a
  /// timed-out try_lock_for gives, holds nothing.
  class guard {
   public:
    guard() = default;
    explicit guard(timed_lock& lock) : lock_(&lock) {}
    guard(guard&& other) noexcept : lock_(std::exchange(other.lock_, nullptr)) {}
    guard& operator=(guard&&) = delete;
    ~guard() {
      if (lock_ != nullptr) lock_->unlock();
    }
    /// Whether it holds the lock.
    explicit operator bool() const { return lock_ != nullptr; }

   private:
    timed_lock* lock_ = nullptr;
  };

  timed_lock() = default;
  timed_lock(const timed_lock&) = delete;
  timed_lock& operator=(const timed_lock&) = delete;

  /// Blocks until the caller holds the lock.
  [[nodiscard]] guard lock() {
    std::uintptr_t word = word_.load(std::memory_order_relaxed);
    waiter self;
    for (;;) {
      if (word == kFree) {
        // acquire: pairs with unlock's release, so the last holder's writes are seen.
        if (word_.compare_exchange_weak(word, kHeld, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
          return guard(*this);
        }
        continue;
      }
      self.next.with_mut([word](std::uintptr_t& next) { next = word & ~kHeld; });
      // release: publishes self.next to the unlocker that pops this waiter (its acquire load).
      if (word_.compare_exchange_weak(word, reinterpret_cast<std::uintptr_t>(&self) | kHeld,
                                      std::memory_order_release, std::memory_order_relaxed)) {
        self.handed.acquire();  // the unlocker popped this waiter: the lock is ours
        return guard(*this);
      }
    }
  }

  /// Waits up to `patience` for the lock to be free and takes it; the guard holds nothing if it
  /// was not free in time.
  [[nodiscard]] guard try_lock_for(std::chrono::nanoseconds patience) {
    const auto deadline = P::now() + patience;
    free_.lock();
    for (;;) {
      if (take_if_free()) {
        free_.unlock();
        return guard(*this);
      }
      const auto now = P::now();
      if (now >= deadline) break;
      // Under free_: unlock() notifies under it, so a release after the look above wakes us.
      free_became_.wait_for(free_,
                            std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now));
    }
    free_.unlock();
    return guard();
  }

 private:
  /// A lock() that found the lock held: on its caller's stack until it is handed the lock.
  struct alignas(2) waiter {
    typename P::counting_semaphore handed{0};  // released once, by the unlocker that pops it
    typename P::template cell<std::uintptr_t> next{0};  // the waiter below, 0 for none
  };

  static constexpr std::uintptr_t kFree = 0;
  static constexpr std::uintptr_t kHeld = 1;

  /// The timed path's take of a free lock.
  bool take_if_free() {
    if constexpr (V == TimedVariant::exchange) {
      std::uintptr_t expected = kFree;
      // acquire: pairs with unlock's release.
      return word_.compare_exchange_strong(expected, kHeld, std::memory_order_acquire,
                                           std::memory_order_relaxed);
    } else {
      // The planted bug: lock() may take the lock, or queue on it, between this load and the store.
      if (word_.load(std::memory_order_acquire) != kFree) return false;
      word_.store(kHeld, std::memory_order_relaxed);
      return true;
    }
  }

  /// Hands the lock to the top waiter, or frees it and wakes the timed waiters. Only a guard
  /// calls it, once, for the holder.
  void unlock() {
    // acquire: pairs with lock()'s release push, so the top waiter's next is seen.
    std::uintptr_t word = word_.load(std::memory_order_acquire);
    for (;;) {
      if (word == kFree) {
        // Only a lock that let two holders in gets here: the other one freed it already.
        P::check(false, "unlock() of a lock nobody holds");
        return;
      }
      if (word == kHeld) {
        // acq_rel: the release pairs with the acquire of the next taker (lock() or
        // take_if_free); the acquire is a failure's, which reloads a newer top whose next is
        // read below (Relacy gives a failed compare-exchange its success order, so it is here).
        if (word_.compare_exchange_weak(word, kFree, std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
          break;
        }
        continue;
      }
      // Only the holder pops, so the top cannot be popped and pushed again under us.
      auto* top = reinterpret_cast<waiter*>(word & ~kHeld);
      const std::uintptr_t below = top->next.with([](const std::uintptr_t& next) { return next; });
      // acq_rel: the failure reloads a newer top (acquire, as above); the hand-off's own order is
      // the semaphore's.
      if (word_.compare_exchange_weak(word, below | kHeld, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
        top->handed.release();  // the lock stays held, now by top's thread
        return;
      }
    }
    free_.lock();
    free_became_.notify_all();
    free_.unlock();
  }

  // kFree: nobody holds it. kHeld: held, no waiter queued. address|kHeld: held, with the top of
  // the waiters' stack at address. lock() takes kFree -> kHeld or pushes itself; unlock() pops
  // a waiter (the word stays held) or takes kHeld -> kFree; try_lock_for takes kFree -> kHeld.
  typename P::template atomic<std::uintptr_t> word_{kFree};
  typename P::mutex free_;                      // orders the timed waiters' look and their sleep
  typename P::condition_variable free_became_;  // notified when the word becomes kFree
};

}  // namespace my
