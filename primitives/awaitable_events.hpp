// The series' events and mutex on the awaitable library (primitives/awaitable_library.hpp):
// the manual-reset event (part 4), the auto-reset event (part 5) and the mutex, which is the
// auto-reset event created signaled (part 7).
//
// Parts 4, 5 and 7 are not among the seed documents; seeds/README.md describes what they add
// and these follow that description on document 003's pattern (state + fast_claim + claim +
// actions). With no published text there is nothing "as published" to keep, so the memory
// orders are the correct ones (release on set, acquire on claim).
// Each comes in the library's variants: part 2 resumption (synchronous, the default), part 3
// (pooled), with the corrected cancellation unlink, and (the mutex) with the hand-off of a
// destroyed granted waiter's ownership (awaitable_hand_off.hpp).
#pragma once

#include "platform/platform.hpp"
#include "primitives/awaitable_hand_off.hpp"
#include "primitives/awaitable_library.hpp"

namespace syncstress {

namespace async_helpers {

/// Part 4's state. signaled_: false (waiters queue) or true (every await completes at once).
/// Transitions: set false/true -> true (releasing all queued waiters), reset -> false.
template <Platform P, library_options kOptions>
struct manual_reset_event_state
    : awaitable_state_for<P, manual_reset_event_state<P, kOptions>, kOptions> {
  using base = awaitable_state_for<P, manual_reset_event_state<P, kOptions>, kOptions>;
  using typename base::extra_await_data;
  using typename base::node_list;

  explicit manual_reset_event_state(bool initially_set) : signaled_(initially_set) {}

  typename P::template atomic<bool> signaled_;

  bool fast_claim(extra_await_data const&) noexcept {
    return signaled_.load(std::memory_order_acquire);  // pairs with set's release store
  }
  bool claim(extra_await_data const&) noexcept {
    return signaled_.load(std::memory_order_acquire);  // pairs with set's release store
  }
  void set(node_list& list) noexcept {
    signaled_.store(true, std::memory_order_release);  // pairs with the claims' acquire loads
    this->resume_all(list);
  }
  void reset(node_list&) noexcept {
    // relaxed: reset publishes nothing; the lock orders it against set and the claims.
    signaled_.store(false, std::memory_order_relaxed);
  }
};

/// Part 5's state. signaled_: true (one await may complete) or false. Transitions: a claim
/// true -> false; set hands the signal to the head waiter if any, else false -> true.
template <Platform P, library_options kOptions>
struct auto_reset_event_state
    : awaitable_state_for<P, auto_reset_event_state<P, kOptions>, kOptions> {
  using base = awaitable_state_for<P, auto_reset_event_state<P, kOptions>, kOptions>;
  using typename base::extra_await_data;
  using typename base::node_list;

  explicit auto_reset_event_state(bool initially_set) : signaled_(initially_set) {}

  typename P::template atomic<bool> signaled_;

  static bool claim_transition(bool current, bool& future) noexcept {
    if (!current) return false;
    future = false;
    return true;
  }
  bool fast_claim(extra_await_data const&) noexcept {
    return calc_claim<true>(signaled_, claim_transition, true);
  }
  bool claim(extra_await_data const&) noexcept {
    return calc_claim<false>(signaled_, claim_transition);
  }
  void set(node_list& list) noexcept {
    if (!this->resume_one(list)) {
      signaled_.store(true, std::memory_order_release);  // pairs with calc_claim's acquire
    }
  }
  /// cancel_unlink::hand_off: a granted waiter destroyed before it ran received the signal;
  /// give it back as a set would.
  void abandon(node_list& list, extra_await_data const&) noexcept { set(list); }
  void reset(node_list&) noexcept {
    // relaxed: reset publishes nothing; the lock orders it against set and the slow claim.
    signaled_.store(false, std::memory_order_relaxed);
  }
};

}  // namespace async_helpers

/// Part 4: the manual-reset event. `co_await e.wait()` (or `co_await e`) completes once the
/// event is set; set() releases every waiter and keeps the event set until reset().
template <Platform P, async_helpers::library_options kOptions>
class basic_manual_reset_event_part4
    : public async_helpers::awaitable_sync_object_for<
          async_helpers::manual_reset_event_state<P, kOptions>, kOptions> {
  using base =
      async_helpers::awaitable_sync_object_for<async_helpers::manual_reset_event_state<P, kOptions>,
                                               kOptions>;
  using state = async_helpers::manual_reset_event_state<P, kOptions>;

 public:
  static constexpr bool kAutoReset = false;

  /// Creates the event set or clear.
  explicit basic_manual_reset_event_part4(bool initially_set) : base(initially_set) {}

  /// An awaitable that completes once the event is set.
  auto wait() { return this->make_awaiter(); }
  /// Sets the event, resuming every waiter (part 2: on this thread; part 3: on the pool).
  void set() { this->action_impl(&state::set); }
  /// Clears the event.
  void reset() { this->action_impl(&state::reset); }
};

/// Part 5: the auto-reset event. set() hands the signal to the oldest waiter, or leaves the
/// event set for the next await; each signal completes exactly one await.
template <Platform P, async_helpers::library_options kOptions>
class basic_auto_reset_event_part5
    : public async_helpers::awaitable_sync_object_for<
          async_helpers::auto_reset_event_state<P, kOptions>, kOptions> {
  using base =
      async_helpers::awaitable_sync_object_for<async_helpers::auto_reset_event_state<P, kOptions>,
                                               kOptions>;
  using state = async_helpers::auto_reset_event_state<P, kOptions>;

 public:
  static constexpr bool kAutoReset = true;

  /// Creates the event set or clear.
  explicit basic_auto_reset_event_part5(bool initially_set) : base(initially_set) {}

  /// An awaitable that completes once it has consumed a signal.
  auto wait() { return this->make_awaiter(); }
  /// Signals: resumes the oldest waiter, or sets the event if nobody waits.
  void set() { this->action_impl(&state::set); }
  /// Clears the event.
  void reset() { this->action_impl(&state::reset); }
};

/// Part 7: the mutex is the auto-reset event, created signaled. No owner identity (a
/// coroutine has none), so it is not recursive and any coroutine may unlock.
template <Platform P, async_helpers::library_options kOptions>
class basic_mutex_part7 : public basic_auto_reset_event_part5<P, kOptions> {
 public:
  basic_mutex_part7() : basic_auto_reset_event_part5<P, kOptions>(true) {}

  /// An awaitable that completes once the caller owns the mutex.
  auto lock() { return this->make_awaiter(); }
  /// Releases the mutex: ownership passes to the oldest waiter, if any.
  void unlock() { this->set(); }
};

template <Platform P>
using manual_reset_event_part4 = basic_manual_reset_event_part4<P, async_helpers::kPart2>;
template <Platform P>
using manual_reset_event_part4_pooled = basic_manual_reset_event_part4<P, async_helpers::kPart3>;
template <Platform P>
using manual_reset_event_part4_cancel_fixed =
    basic_manual_reset_event_part4<P, async_helpers::kPart2CancelFixed>;

template <Platform P>
using auto_reset_event_part5 = basic_auto_reset_event_part5<P, async_helpers::kPart2>;
template <Platform P>
using auto_reset_event_part5_pooled = basic_auto_reset_event_part5<P, async_helpers::kPart3>;
template <Platform P>
using auto_reset_event_part5_cancel_fixed =
    basic_auto_reset_event_part5<P, async_helpers::kPart2CancelFixed>;

template <Platform P>
using mutex_part7 = basic_mutex_part7<P, async_helpers::kPart2>;
template <Platform P>
using mutex_part7_pooled = basic_mutex_part7<P, async_helpers::kPart3>;
template <Platform P>
using mutex_part7_cancel_fixed = basic_mutex_part7<P, async_helpers::kPart2CancelFixed>;
template <Platform P>
using mutex_part7_pooled_cancel_fixed = basic_mutex_part7<P, async_helpers::kPart3CancelFixed>;
template <Platform P>
using mutex_part7_cancel_handoff = basic_mutex_part7<P, async_helpers::kPart2CancelHandoff>;
template <Platform P>
using mutex_part7_pooled_cancel_handoff = basic_mutex_part7<P, async_helpers::kPart3CancelHandoff>;

}  // namespace syncstress
