// Control: a counting semaphore on one atomic word and wait-on-address. Not from a source
// document; a known-good reference for the semaphore kind (sync). Not FIFO.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress {

template <Platform P>
class wait_on_address_semaphore {
 public:
  /// Creates the semaphore with `initial_tokens` tokens (0 <= initial_tokens < 2^31).
  explicit wait_on_address_semaphore(std::int64_t initial_tokens)
      : tokens_(static_cast<std::int32_t>(initial_tokens)) {}
  wait_on_address_semaphore(const wait_on_address_semaphore&) = delete;
  wait_on_address_semaphore& operator=(const wait_on_address_semaphore&) = delete;

  /// Takes a token, sleeping while there is none.
  void acquire() {
    while (!try_acquire()) {
      P::wait_on_address(tokens_, std::int32_t{0});  // may return spuriously: re-check
    }
  }

  /// Takes a token if there is one; never blocks.
  bool try_acquire() {
    std::int32_t current = tokens_.load(std::memory_order_relaxed);  // a guess
    while (current > 0) {
      // acquire: pairs with release's release increment; relaxed failure refreshes the guess.
      if (tokens_.compare_exchange_weak(current, current - 1, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  /// Returns a token and wakes one sleeper.
  void release() {
    tokens_.fetch_add(1, std::memory_order_release);  // pairs with try_acquire's acquire
    P::wake_by_address_single(tokens_);
  }

 private:
  // tokens_: free tokens, >= 0. Transitions: acquire n -> n-1 (n > 0), release n -> n+1.
  typename P::template atomic<std::int32_t> tokens_;
};

}  // namespace syncstress
