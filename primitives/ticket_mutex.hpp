// Control: a FIFO ticket lock written on Platform. Not from a source document; a known-good
// reference every mutex scenario must pass. Each locker takes a ticket and waits (on the
// address of now_serving_) until its number comes up, so ownership passes in ticket order.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress {

template <Platform P>
class ticket_mutex {
 public:
  ticket_mutex() = default;
  ticket_mutex(const ticket_mutex&) = delete;
  ticket_mutex& operator=(const ticket_mutex&) = delete;

  /// Blocks until the caller owns the mutex; owners are served in ticket order.
  void lock() {
    // relaxed: the ticket only orders lockers; the acquire load below synchronizes.
    const std::int32_t ticket = next_ticket_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      // acquire: pairs with unlock's release increment.
      const std::int32_t serving = now_serving_.load(std::memory_order_acquire);
      if (serving == ticket) return;
      // May return spuriously; the loop re-checks.
      P::wait_on_address(now_serving_, serving);
    }
  }

  /// Takes the mutex only if nobody holds or waits for it.
  bool try_lock() {
    std::int32_t serving = now_serving_.load(std::memory_order_acquire);  // pairs: unlock
    std::int32_t expected = serving;
    // acquire on success: pairs with unlock's release increment; relaxed on failure.
    return next_ticket_.compare_exchange_strong(expected, serving + 1, std::memory_order_acquire,
                                                std::memory_order_relaxed);
  }

  /// Passes ownership to the next ticket. Precondition: the caller owns the mutex.
  void unlock() {
    // release: pairs with the acquire load in lock().
    now_serving_.fetch_add(1, std::memory_order_release);
    P::wake_by_address_all(now_serving_);  // the next ticket is one of the sleepers
  }

 private:
  // next_ticket_: the next ticket to hand out; now_serving_: the ticket that owns the mutex
  // (free when equal). Both only grow (wrapping, harmlessly, as two's complement).
  typename P::template atomic<std::int32_t> next_ticket_{0};
  typename P::template atomic<std::int32_t> now_serving_{0};
};

}  // namespace syncstress
