// Control: a FIFO (ticket) reader/writer lock on Platform atomics and wait-on-address. Not
// from a source document; a known-good reference for the shared_mutex kind (sync).
//
// Everyone takes a ticket and waits for its turn. A reader, on its turn, registers itself in
// readers_ and at once passes the turn on, so consecutive readers share; a writer keeps the
// turn and waits for the registered readers to leave. A reader arriving after a waiting
// writer has a later ticket, so writers are never starved.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress {

template <Platform P>
class ticket_shared_mutex {
 public:
  ticket_shared_mutex() = default;
  ticket_shared_mutex(const ticket_shared_mutex&) = delete;
  ticket_shared_mutex& operator=(const ticket_shared_mutex&) = delete;

  /// Blocks until the caller owns the mutex exclusively.
  void lock() {
    wait_for_turn(take_ticket());
    for (;;) {
      // acquire: pairs with unlock_shared's release decrement.
      const std::int32_t readers = readers_.load(std::memory_order_acquire);
      if (readers == 0) return;
      P::wait_on_address(readers_, readers);  // may return spuriously: re-check
    }
  }

  /// Releases an exclusive ownership: the next ticket's turn.
  void unlock() { pass_turn(); }

  /// Blocks until the caller owns the mutex shared.
  void lock_shared() {
    wait_for_turn(take_ticket());
    // relaxed: ordered before pass_turn's release, which the next writer acquires.
    readers_.fetch_add(1, std::memory_order_relaxed);
    pass_turn();
  }

  /// Releases a shared ownership; the last reader out wakes a writer waiting for it.
  void unlock_shared() {
    // release: pairs with lock()'s acquire load of readers_.
    if (readers_.fetch_sub(1, std::memory_order_release) == 1) {
      P::wake_by_address_all(readers_);
    }
  }

 private:
  std::int32_t take_ticket() {
    // relaxed: the ticket only orders arrivals; wait_for_turn's acquire load synchronizes.
    return next_ticket_.fetch_add(1, std::memory_order_relaxed);
  }

  void wait_for_turn(std::int32_t ticket) {
    for (;;) {
      // acquire: pairs with pass_turn's release increment.
      const std::int32_t serving = now_serving_.load(std::memory_order_acquire);
      if (serving == ticket) return;
      P::wait_on_address(now_serving_, serving);  // may return spuriously: re-check
    }
  }

  void pass_turn() {
    now_serving_.fetch_add(1, std::memory_order_release);  // pairs with wait_for_turn
    P::wake_by_address_all(now_serving_);
  }

  // next_ticket_: the next ticket; now_serving_: whose turn it is (only grows); readers_: the
  // readers that took their turn and have not unlocked yet (>= 0).
  typename P::template atomic<std::int32_t> next_ticket_{0};
  typename P::template atomic<std::int32_t> now_serving_{0};
  typename P::template atomic<std::int32_t> readers_{0};
};

}  // namespace syncstress
