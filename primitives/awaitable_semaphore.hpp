// Part 6 of the series: the semaphore on the awaitable library
// (primitives/awaitable_library.hpp), with a token count, set and set_many.
//
// Part 6 is not among the seed documents; seeds/README.md describes it and this follows that
// description on document 003's pattern. With no published text to keep, the memory orders
// are the correct ones. Deviation: the kind interface's names acquire() (= the awaiter) and
// release() (= set()) are added as thin forwarding members.
// Variants: part 2 or part 3 resumption, the corrected unlink, and the hand-off of a destroyed
// granted waiter's token (awaitable_hand_off.hpp).
#pragma once

#include <cstdint>

#include "platform/platform.hpp"
#include "primitives/awaitable_hand_off.hpp"
#include "primitives/awaitable_library.hpp"

namespace syncstress {

namespace async_helpers {

/// tokens_: how many awaits may complete without waiting, >= 0. Transitions: a claim n -> n-1
/// (n > 0); set_many(k) first hands tokens straight to queued waiters (tokens_ stays 0 while
/// anyone waits), then adds what is left.
template <Platform P, library_options kOptions>
struct semaphore_state : awaitable_state_for<P, semaphore_state<P, kOptions>, kOptions> {
  using base = awaitable_state_for<P, semaphore_state<P, kOptions>, kOptions>;
  using typename base::extra_await_data;
  using typename base::node_list;

  explicit semaphore_state(std::int64_t initial_tokens) : tokens_(initial_tokens) {}

  typename P::template atomic<std::int64_t> tokens_;

  static bool claim_transition(std::int64_t current, std::int64_t& future) noexcept {
    if (current <= 0) return false;
    future = current - 1;
    return true;
  }
  bool fast_claim(extra_await_data const&) noexcept {
    return calc_claim<true>(tokens_, claim_transition);
  }
  bool claim(extra_await_data const&) noexcept {
    return calc_claim<false>(tokens_, claim_transition);
  }
  void set(node_list& list) noexcept { set_many(list, 1); }
  void set_many(node_list& list, std::int64_t n) noexcept {
    while (n > 0 && this->resume_one(list)) --n;
    if (n > 0) tokens_.fetch_add(n, std::memory_order_release);  // pairs with calc_claim
  }
  /// cancel_unlink::hand_off: a granted waiter destroyed before it ran received a token; give
  /// it back as a set would.
  void abandon(node_list& list, extra_await_data const&) noexcept { set_many(list, 1); }
};

}  // namespace async_helpers

/// Part 6: an awaitable counting semaphore. `co_await s.acquire()` takes a token, waiting in
/// FIFO order when there is none; release()/set() returns one, set_many(n) returns n.
template <Platform P, async_helpers::library_options kOptions>
class basic_semaphore_part6
    : public async_helpers::awaitable_sync_object_for<async_helpers::semaphore_state<P, kOptions>,
                                                      kOptions> {
  using base = async_helpers::awaitable_sync_object_for<async_helpers::semaphore_state<P, kOptions>,
                                                        kOptions>;
  using state = async_helpers::semaphore_state<P, kOptions>;

 public:
  /// Creates the semaphore holding `initial_tokens` tokens (>= 0).
  explicit basic_semaphore_part6(std::int64_t initial_tokens) : base(initial_tokens) {}

  /// An awaitable that completes once it has taken a token.
  auto acquire() { return this->make_awaiter(); }
  /// Returns one token (same as set()).
  void release() { set(); }
  /// Returns one token: resumes the oldest waiter, or adds the token to the count.
  void set() { this->action_impl(&state::set); }
  /// Returns n tokens (n >= 0): resumes up to n waiters in FIFO order, adds the rest.
  void set_many(std::int64_t n) { this->action_impl(&state::set_many, n); }
};

template <Platform P>
using semaphore_part6 = basic_semaphore_part6<P, async_helpers::kPart2>;
template <Platform P>
using semaphore_part6_pooled = basic_semaphore_part6<P, async_helpers::kPart3>;
template <Platform P>
using semaphore_part6_cancel_fixed = basic_semaphore_part6<P, async_helpers::kPart2CancelFixed>;
template <Platform P>
using semaphore_part6_cancel_handoff = basic_semaphore_part6<P, async_helpers::kPart2CancelHandoff>;
template <Platform P>
using semaphore_part6_pooled_cancel_handoff =
    basic_semaphore_part6<P, async_helpers::kPart3CancelHandoff>;

}  // namespace syncstress
