// Document 001 (part 8 of the series): the awaitable shared mutex, exactly as published, on
// the awaitable library (primitives/awaitable_library.hpp) with part 5's calc_claim.
//
// Kept as published, bugs included (the author calls it broken and names the first two,
// document 001 lines 159-163, `broken`):
//   - shared claims (fast and slow) succeed while an exclusive waiter is queued (document 001
//     lines 46-52 and 64-80, `shared_transition`), so readers can starve a writer;
//   - were the last-reader test right, the mutex would be free between the last unlock_shared
//     and resume_a_bunch, and a newcomer could steal it (document 001 lines 93-99 and 107-124,
//     `resume_a_bunch`); the next bug masks this one;
//   - unlock_shared compares fetch_add(-1)'s OLD value with 0 (document 001 lines 95-96,
//     `owners.fetch_add`): the last reader (old value 1) never calls resume_a_bunch, so
//     waiters queued behind readers are not resumed (a lost wake-up);
//   - every store/RMW on `owners` in the unlock paths is relaxed (document 001 lines 96 and
//     123, `memory_order_relaxed`): nothing publishes the critical section to the next owner
//     (invisible on sim, which is SC).
// Deviations: `owners` is P::atomic<int> initialised to 0 (std::atomic<int> is value-
// initialised in C++20, so the same value); the forward declaration that the specialization
// needs (document 001 lines 16-22, `extra_await_data`); lock()/unlock() forward to
// lock_exclusive()/unlock_exclusive() for the kind interface; this-> for the dependent base.
#pragma once

#include "platform/platform.hpp"
#include "primitives/awaitable_library.hpp"

namespace syncstress {

namespace async_helpers {

template <Platform P, library_options kOptions>
struct shared_mutex_part8_state;

/// document 001 lines 16-22 (`extra_await_data`): each waiter says whether it wants an
/// exclusive or a shared claim.
template <Platform P, library_options kOptions>
struct extra_await_data<shared_mutex_part8_state<P, kOptions>> {
  extra_await_data(bool kind) : exclusive(kind) {}
  bool exclusive;
};

/// document 001 lines 28-125 (`awaitable_shared_mutex_state`)
template <Platform P, library_options kOptions>
struct shared_mutex_part8_state
    : awaitable_state<P, shared_mutex_part8_state<P, kOptions>, kOptions> {
  using base = awaitable_state<P, shared_mutex_part8_state<P, kOptions>, kOptions>;
  using typename base::extra_await_data;
  using typename base::node_list;

  // owners: -1 owned exclusively, 0 free, n > 0 owned shared by n. Transitions: exclusive
  // claim 0 -> -1; shared claim n >= 0 -> n+1; unlock_shared n -> n-1; resume_a_bunch
  // stores -1, 0 or the number of shared waiters it resumed.
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

  bool fast_claim(extra_await_data const& e) noexcept {
    if (e.exclusive) {
      return calc_claim<true>(owners, exclusive_transition, 0);
    } else {
      return calc_claim<true>(owners, shared_transition);
    }
  }

  bool claim(extra_await_data const& e) noexcept {
    if (e.exclusive) {
      return calc_claim<false>(owners, exclusive_transition);
    } else {
      return calc_claim<false>(owners, shared_transition);
    }
  }

  void unlock_exclusive(node_list& list) { resume_a_bunch(list); }

  void unlock_shared(node_list& list) {
    // As published (document 001 lines 95-96, `owners.fetch_add`): relaxed pairs with
    // nothing, and the OLD value is compared.
    if (owners.fetch_add(-1, std::memory_order_relaxed) == 0) {
      resume_a_bunch(list);
    }
  }

  void resume_a_bunch(node_list& list) {
    auto count = 0;
    auto peek = this->peek_head();
    if (!peek) {
      // nobody to release
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
    // As published (document 001 line 123, `owners.store`): relaxed pairs with nothing.
    owners.store(count, std::memory_order_relaxed);
  }
};

}  // namespace async_helpers

/// document 001 lines 135-153 (`awaitable_shared_mutex`). `co_await m.lock_exclusive()` /
/// `lock_shared()`; unlock with the matching unlock_exclusive() / unlock_shared(). Awaiting
/// the mutex itself is deleted (document 001 line 139, `operator co_await() = delete`).
template <Platform P, async_helpers::library_options kOptions>
class basic_shared_mutex_part8 : public async_helpers::awaitable_sync_object<
                                     async_helpers::shared_mutex_part8_state<P, kOptions>> {
  using state = async_helpers::shared_mutex_part8_state<P, kOptions>;

 public:
  void operator co_await() = delete;

  /// An awaitable that completes once the caller owns the mutex shared.
  auto lock_shared() { return this->make_awaiter(false); }
  /// An awaitable that completes once the caller owns the mutex exclusively.
  auto lock_exclusive() { return this->make_awaiter(true); }

  /// Releases an exclusive ownership.
  void unlock_exclusive() { this->action_impl(&state::unlock_exclusive); }

  /// Releases a shared ownership.
  void unlock_shared() { this->action_impl(&state::unlock_shared); }

  /// Kind interface: lock_exclusive().
  auto lock() { return lock_exclusive(); }
  /// Kind interface: unlock_exclusive().
  void unlock() { unlock_exclusive(); }
};

template <Platform P>
using shared_mutex_part8 = basic_shared_mutex_part8<P, async_helpers::kPart2>;
template <Platform P>
using shared_mutex_part8_pooled = basic_shared_mutex_part8<P, async_helpers::kPart3>;

}  // namespace syncstress
