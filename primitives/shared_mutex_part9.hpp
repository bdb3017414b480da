// Part 9 of the series: the repaired awaitable shared mutex, the corrected variant of
// shared_mutex_part8 (primitives/shared_mutex_part8.hpp), on the same awaitable library.
//
// Part 9 is not among the seed documents; this follows the design seeds/README.md gives:
//   - a claim, fast or slow, fails whenever anyone is queued ("go to the end of the queue");
//     the fast claim, which cannot look at the queue, therefore only succeeds from the free
//     state 0, and owners == 0 implies an empty queue (owners only becomes 0 in
//     resume_a_bunch, under the lock, when the queue is empty);
//   - the last unlock_shared moves owners from 1 straight to -1 (as if owned exclusively) and
//     hands ownership over in resume_a_bunch, so nobody can steal it in between;
//   - resume_a_bunch looks at the head: empty -> owners = 0; exclusive -> that one alone,
//     owners = -1; otherwise the run of shared waiters up to the first exclusive one,
//     owners = their count;
//   - resumed waiters already own the mutex and do not claim again (the library's
//     await_resume only clears the handle).
// Memory orders are the correct ones: claims acquire (calc_claim), releases release.
// Variants: part 2 or part 3 resumption, the corrected unlink, and the hand-off of a destroyed
// granted waiter's ownership (awaitable_hand_off.hpp).
#pragma once

#include "platform/platform.hpp"
#include "primitives/awaitable_hand_off.hpp"
#include "primitives/awaitable_library.hpp"

namespace syncstress {

namespace async_helpers {

template <Platform P, library_options kOptions>
struct shared_mutex_part9_state;

/// Each waiter says whether it wants an exclusive or a shared claim.
template <Platform P, library_options kOptions>
struct extra_await_data<shared_mutex_part9_state<P, kOptions>> {
  extra_await_data(bool kind) : exclusive(kind) {}
  bool exclusive;
};

template <Platform P, library_options kOptions>
struct shared_mutex_part9_state
    : awaitable_state_for<P, shared_mutex_part9_state<P, kOptions>, kOptions> {
  using base = awaitable_state_for<P, shared_mutex_part9_state<P, kOptions>, kOptions>;
  using typename base::extra_await_data;
  using typename base::node_list;

  // owners: -1 owned exclusively (or being handed over), 0 free (and nobody queued), n > 0
  // owned shared by n. Transitions: fast claims 0 -> -1 / 0 -> 1 (lock-free); slow claims,
  // only with an empty queue, 0 -> -1 / n >= 0 -> n+1; unlock_shared n -> n-1 (n > 1) or
  // 1 -> -1 then resume_a_bunch; resume_a_bunch stores -1, 0 or the shared count. Every
  // change away from a nonzero value happens under the state's lock.
  typename P::template atomic<int> owners{0};

  static bool exclusive_transition(int current, int& future) noexcept {
    if (current != 0) return false;
    future = -1;
    return true;
  }

  static bool shared_transition(int current, int& future) noexcept {
    if (current < 0) return false;
    future = current + 1;
    return true;
  }

  // The last shared owner keeps the mutex "owned" (-1) until resume_a_bunch decides.
  static bool unlock_shared_transition(int current, int& future) noexcept {
    future = current == 1 ? -1 : current - 1;
    return true;
  }

  bool fast_claim(extra_await_data const& e) noexcept {
    // Only from 0: a nonzero owners may have waiters queued, which the fast path cannot see.
    return calc_claim<true>(owners, e.exclusive ? exclusive_transition : shared_transition, 0);
  }

  bool claim(extra_await_data const& e) noexcept {
    if (this->peek_head()) return false;  // someone is queued: go to the end of the queue
    return calc_claim<false>(owners, e.exclusive ? exclusive_transition : shared_transition);
  }

  void unlock_exclusive(node_list& list) { resume_a_bunch(list); }

  void unlock_shared(node_list& list) {
    int current = owners.load(std::memory_order_relaxed);  // a guess; the exchange checks it
    int future = 0;
    unlock_shared_transition(current, future);
    // release: pairs with the acquire of the next claim; a CAS because fast claims from 0
    // race with nothing here (owners > 0), but this keeps the transition atomic regardless.
    while (!owners.compare_exchange_weak(current, future, std::memory_order_release,
                                         std::memory_order_relaxed)) {
      unlock_shared_transition(current, future);
    }
    if (future == -1) resume_a_bunch(list);
  }

  void resume_a_bunch(node_list& list) {
    auto count = 0;
    auto peek = this->peek_head();
    if (!peek) {
      // nobody to hand over to: free
    } else if (peek->exclusive) {
      this->resume_one(list);
      count = -1;
    } else {
      do {
        ++count;
        this->resume_one(list);
        peek = this->peek_head();
      } while (peek && !peek->exclusive);
    }
    // release: pairs with the acquire of the next fast claim when count == 0; the resumed
    // waiters are ordered after this by the resumption itself.
    owners.store(count, std::memory_order_release);
  }

  /// cancel_unlink::hand_off: a granted waiter destroyed before it ran already counted as an
  /// owner (resume_a_bunch set owners for it); it unlocks the way it locked.
  void abandon(node_list& list, extra_await_data const& e) {
    if (e.exclusive) {
      unlock_exclusive(list);
    } else {
      unlock_shared(list);
    }
  }
};

}  // namespace async_helpers

/// The repaired shared mutex: FIFO by arrival among waiters, writers never starved.
template <Platform P, async_helpers::library_options kOptions>
class basic_shared_mutex_part9
    : public async_helpers::awaitable_sync_object_for<
          async_helpers::shared_mutex_part9_state<P, kOptions>, kOptions> {
  using state = async_helpers::shared_mutex_part9_state<P, kOptions>;

 public:
  void operator co_await() = delete;

  /// An awaitable that completes once the caller owns the mutex shared.
  auto lock_shared() { return this->make_awaiter(false); }
  /// An awaitable that completes once the caller owns the mutex exclusively.
  auto lock_exclusive() { return this->make_awaiter(true); }

  /// Releases an exclusive ownership, handing it to the head of the queue.
  void unlock_exclusive() { this->action_impl(&state::unlock_exclusive); }

  /// Releases a shared ownership; the last one hands the mutex to the head of the queue.
  void unlock_shared() { this->action_impl(&state::unlock_shared); }

  /// Kind interface: lock_exclusive().
  auto lock() { return lock_exclusive(); }
  /// Kind interface: unlock_exclusive().
  void unlock() { unlock_exclusive(); }
};

template <Platform P>
using shared_mutex_part9 = basic_shared_mutex_part9<P, async_helpers::kPart2>;
template <Platform P>
using shared_mutex_part9_pooled = basic_shared_mutex_part9<P, async_helpers::kPart3>;
template <Platform P>
using shared_mutex_part9_cancel_fixed =
    basic_shared_mutex_part9<P, async_helpers::kPart2CancelFixed>;
template <Platform P>
using shared_mutex_part9_pooled_cancel_fixed =
    basic_shared_mutex_part9<P, async_helpers::kPart3CancelFixed>;
template <Platform P>
using shared_mutex_part9_cancel_handoff =
    basic_shared_mutex_part9<P, async_helpers::kPart2CancelHandoff>;
template <Platform P>
using shared_mutex_part9_pooled_cancel_handoff =
    basic_shared_mutex_part9<P, async_helpers::kPart3CancelHandoff>;

}  // namespace syncstress
