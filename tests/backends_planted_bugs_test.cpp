// Every check the scenario families make can fail: for each one, a primitive with one planted
// bug that breaks the property the check is about (and, but for one, nothing else), run through the
// family's own body on sim until the breach shows, and a correct control from primitives/ run the
// same way (same parameters, claims and seed) that reports nothing. A check no planted bug can trip
// would be a check that cannot fail.
//
// The planted primitives offer exactly their kind's interface (primitives/README.md, "Kind
// interfaces") and are built from the Platform's atomics, mutex, events and parkers, as the
// real ones are. Each search is deterministic (one seed of the random strategy), so the number
// of executions to detection is fixed; it is recorded as the test property
// "executions_to_detection".
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/bind.hpp"
#include "backends/sim/execution.hpp"
#include "backends/sim/on_sim.hpp"
#include "backends/sim/shrink.hpp"
#include "platform/sim.hpp"
#include "primitives/awaitable_events.hpp"
#include "primitives/catalog.hpp"
#include "primitives/detail/lock_guard.hpp"
#include "primitives/locked_work_queue.hpp"
#include "primitives/platform_events.hpp"
#include "primitives/ticket_mutex.hpp"
#include "primitives/ticket_shared_mutex.hpp"
#include "primitives/wait_on_address_semaphore.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/families/cancellation.hpp"
#include "scenarios/families/contention.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/families/work_queue.hpp"
#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"
#include "scenarios/resolved_cell.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/memory_model_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {

// ---------------------------------------------------------------------------------------------
// The planted-bug primitives. Each comment names the one property it breaks and how.

/// mutex, sync. Breaks mutual exclusion: the test and the set of the lock word are two steps,
/// so two lockers can both see it free. Wakes every sleeper on unlock, so nothing else breaks.
template <class P>
class check_then_set_mutex {
 public:
  check_then_set_mutex() = default;
  check_then_set_mutex(const check_then_set_mutex&) = delete;
  check_then_set_mutex& operator=(const check_then_set_mutex&) = delete;

  void lock() {
    // acquire: pairs with unlock's release store.
    while (locked_.load(std::memory_order_acquire) != 0) P::wait_on_address(locked_, 1);
    locked_.store(1, std::memory_order_relaxed);  // the planted bug: not a compare-exchange
  }
  void unlock() {
    locked_.store(0, std::memory_order_release);  // pairs with lock's acquire load
    P::wake_by_address_all(locked_);
  }

 private:
  // locked_: 0 free, 1 held. lock 0 -> 1 (meant to be atomic with the test), unlock 1 -> 0.
  typename P::template atomic<std::int32_t> locked_{0};
};

/// shared_mutex, sync. Breaks mutual exclusion: lock_shared registers the reader and enters
/// without looking at the writer flag. Writers exclude each other and wait for the readers
/// inside, and every change a sleeper waits for is woken.
template <class P>
class reader_ignores_writer_shared_mutex {
 public:
  reader_ignores_writer_shared_mutex() = default;
  reader_ignores_writer_shared_mutex(const reader_ignores_writer_shared_mutex&) = delete;
  reader_ignores_writer_shared_mutex& operator=(const reader_ignores_writer_shared_mutex&) = delete;

  void lock() {
    for (;;) {
      std::int32_t expected = 0;
      // acquire: pairs with unlock's release store; relaxed failure only feeds the wait.
      if (writer_.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                          std::memory_order_relaxed)) {
        break;
      }
      P::wait_on_address(writer_, expected);
    }
    for (;;) {
      // acquire: pairs with unlock_shared's release decrement.
      const std::int32_t readers = readers_.load(std::memory_order_acquire);
      if (readers == 0) return;
      P::wait_on_address(readers_, readers);
    }
  }
  void unlock() {
    writer_.store(0, std::memory_order_release);  // pairs with lock's acquire exchange
    P::wake_by_address_all(writer_);
  }
  void lock_shared() {
    // The planted bug: a reader should wait while writer_ is 1; it enters regardless.
    readers_.fetch_add(1, std::memory_order_seq_cst);
  }
  void unlock_shared() {
    // release: pairs with lock's acquire load of readers_.
    if (readers_.fetch_sub(1, std::memory_order_release) == 1) P::wake_by_address_all(readers_);
  }

 private:
  // writer_: 0 no writer, 1 a writer holds it or waits for the readers to leave.
  // readers_: readers inside (>= 0); the last one out wakes a writer waiting on it.
  typename P::template atomic<std::int32_t> writer_{0};
  typename P::template atomic<std::int32_t> readers_{0};
};

/// semaphore, sync. Breaks mutual exclusion (capacity): acquire takes a token while the count
/// is >= 0 instead of > 0, so the count reaches -1 and one holder more than tokens gets in.
/// Otherwise wait_on_address_semaphore: every release wakes a sleeper.
template <class P>
class off_by_one_semaphore {
 public:
  explicit off_by_one_semaphore(std::int64_t initial_tokens)
      : tokens_(static_cast<std::int32_t>(initial_tokens)) {}
  off_by_one_semaphore(const off_by_one_semaphore&) = delete;
  off_by_one_semaphore& operator=(const off_by_one_semaphore&) = delete;

  void acquire() {
    std::int32_t current = tokens_.load(std::memory_order_relaxed);  // a guess
    for (;;) {
      if (current >= 0) {  // the planted bug: `> 0` is meant
        // acquire: pairs with release's increment; relaxed failure refreshes the guess.
        if (tokens_.compare_exchange_weak(current, current - 1, std::memory_order_acquire,
                                          std::memory_order_relaxed)) {
          return;
        }
        continue;
      }
      P::wait_on_address(tokens_, current);
      current = tokens_.load(std::memory_order_relaxed);
    }
  }
  void release() {
    tokens_.fetch_add(1, std::memory_order_release);  // pairs with acquire's compare-exchange
    P::wake_by_address_single(tokens_);
  }

 private:
  // tokens_: free tokens; -1 once the bug has let a holder too many in.
  typename P::template atomic<std::int32_t> tokens_;
};

/// event (manual reset), sync. Breaks "a wait completes only for a set": a misplaced fast
/// path lets the second wait() ever made return at once, set or not. Every other wait is the
/// platform's manual-reset event.
template <class P>
class second_wait_returns_event {
 public:
  static constexpr bool kAutoReset = false;

  explicit second_wait_returns_event(bool initially_set) : event_(initially_set) {}
  second_wait_returns_event(const second_wait_returns_event&) = delete;
  second_wait_returns_event& operator=(const second_wait_returns_event&) = delete;

  void set() { event_.set(); }
  void reset() { event_.reset(); }
  void wait() {
    // relaxed: a count of calls, ordering nothing. The planted bug: it decides the wait.
    if (waits_.fetch_add(1, std::memory_order_relaxed) == 1) return;
    event_.wait();
  }

 private:
  typename P::template atomic<std::int32_t> waits_{0};  // wait() calls so far; only grows
  typename P::manual_reset_event event_;
};

/// event (auto reset), sync. Breaks "at most one wait per set": built on a manual-reset event
/// that the released waiter resets, so one set releases every waiter blocked at that moment
/// (and any that arrives before the first reset).
template <class P>
class set_releases_all_auto_reset_event {
 public:
  static constexpr bool kAutoReset = true;

  explicit set_releases_all_auto_reset_event(bool initially_set) : event_(initially_set) {}
  set_releases_all_auto_reset_event(const set_releases_all_auto_reset_event&) = delete;
  set_releases_all_auto_reset_event& operator=(const set_releases_all_auto_reset_event&) = delete;

  void set() { event_.set(); }
  void reset() { event_.reset(); }
  void wait() {
    event_.wait();
    event_.reset();  // the planted bug: too late, the set has released everyone waiting
  }

 private:
  typename P::manual_reset_event event_;
};

/// event (auto reset), sync. Breaks "no lost wake-ups": a flag says the event is signaled and a
/// counting semaphore carries the signal to one waiter, who clears the flag once it is through.
/// A set that finds the flag still up does nothing, so a second set made before the waiter the
/// first one released has cleared it is lost, and a waiter blocked all along sleeps for ever.
/// Sets that each wait for the previous one to be taken never show it.
template <class P>
class semaphore_flag_event {
 public:
  static constexpr bool kAutoReset = true;

  explicit semaphore_flag_event(bool initially_set)
      : signaled_(initially_set), tokens_(initially_set ? 1 : 0) {}
  semaphore_flag_event(const semaphore_flag_event&) = delete;
  semaphore_flag_event& operator=(const semaphore_flag_event&) = delete;

  void set() {
    // The planted bug: "already signaled" is read from the flag, which stays up until the
    // released waiter runs, not from whether a waiter is still to be released.
    if (!signaled_.exchange(true, std::memory_order_acq_rel)) tokens_.release();
  }
  void wait() {
    tokens_.acquire();
    signaled_.store(false, std::memory_order_release);
  }

 private:
  typename P::template atomic<bool> signaled_;
  typename P::counting_semaphore tokens_;
};

/// mutex, sync. Breaks FIFO hand-off, and with it starvation freedom: a ticket lock whose unlock
/// passes the turn to the newest waiting ticket instead of the oldest, so a waiter is passed
/// over for as long as newer ones keep arriving. Its doorway is its first operation (taking the
/// ticket), as ticket_mutex's, so the WaitBook (which settles a sync waiter at arrival) blames
/// it for the hand-off order alone: serving the oldest instead, this is ticket_mutex. One turn
/// at a time keeps mutual exclusion; every change of turn wakes every sleeper.
template <class P>
class lifo_ticket_mutex {
 public:
  lifo_ticket_mutex() = default;
  lifo_ticket_mutex(const lifo_ticket_mutex&) = delete;
  lifo_ticket_mutex& operator=(const lifo_ticket_mutex&) = delete;

  void lock() {
    // relaxed: the ticket only orders lockers; the acquire load below synchronizes.
    const std::int32_t ticket = next_ticket_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      // acquire: pairs with unlock's release store.
      const std::int32_t turn = turn_.load(std::memory_order_acquire);
      if (turn == ticket) break;
      P::wait_on_address(turn_, turn);
    }
    owner_.with_mut([&](Owner& o) { o.ticket = ticket; });
  }
  void unlock() {
    // Tickets taken so far; one taken after this load finds the mutex free, or waits.
    const std::int32_t taken = next_ticket_.load(std::memory_order_seq_cst);
    const std::int32_t next = owner_.with_mut([&](Owner& o) {
      o.served.resize(static_cast<std::size_t>(taken), false);
      o.served[static_cast<std::size_t>(o.ticket)] = true;
      // The planted bug: the newest waiting ticket first; FIFO would scan upwards.
      for (std::int32_t t = taken - 1; t >= 0; --t) {
        if (!o.served[static_cast<std::size_t>(t)]) return t;
      }
      return taken;  // nobody waits: the next ticket taken owns it at once
    });
    turn_.store(next, std::memory_order_release);  // pairs with lock's acquire load
    P::wake_by_address_all(turn_);
  }

 private:
  struct Owner {
    std::int32_t ticket = 0;
    std::vector<bool> served;  // by ticket
  };
  // next_ticket_: the next ticket to hand out (only grows). turn_: the ticket that owns the
  // mutex, or the next one to be taken when it is free; set only by the owner's unlock.
  typename P::template atomic<std::int32_t> next_ticket_{0};
  typename P::template atomic<std::int32_t> turn_{0};
  typename P::template cell<Owner> owner_;  // touched by the owner only: the mutex guards it
};

/// shared_mutex, sync. Breaks starvation freedom (of writers): a reader is admitted whenever
/// no writer holds the mutex, also while a writer waits for the readers to drain. Exclusion
/// and wake-ups are correct.
template <class P>
class reader_preferring_shared_mutex {
 public:
  reader_preferring_shared_mutex() = default;
  reader_preferring_shared_mutex(const reader_preferring_shared_mutex&) = delete;
  reader_preferring_shared_mutex& operator=(const reader_preferring_shared_mutex&) = delete;

  void lock() {
    for (;;) {
      std::int32_t expected = 0;
      // acquire: pairs with the release of unlock and unlock_shared; relaxed failure only
      // feeds the wait.
      if (state_.compare_exchange_strong(expected, -1, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
        return;
      }
      P::wait_on_address(state_, expected);
    }
  }
  void unlock() {
    state_.store(0, std::memory_order_release);  // pairs with the acquires of the lockers
    P::wake_by_address_all(state_);
  }
  void lock_shared() {
    std::int32_t current = state_.load(std::memory_order_relaxed);  // a guess
    for (;;) {
      if (current >= 0) {  // the planted bug (a policy): no look at waiting writers
        // acquire: pairs with unlock's release store; relaxed failure refreshes the guess.
        if (state_.compare_exchange_weak(current, current + 1, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
          return;
        }
        continue;
      }
      P::wait_on_address(state_, current);
      current = state_.load(std::memory_order_relaxed);
    }
  }
  void unlock_shared() {
    // release: pairs with lock's acquire compare-exchange.
    if (state_.fetch_sub(1, std::memory_order_release) == 1) P::wake_by_address_all(state_);
  }

 private:
  // state_: -1 a writer holds it, 0 free, n > 0 readers hold it. Writers sleep on the reader
  // count; the last reader out and every writer's unlock wake all sleepers.
  typename P::template atomic<std::int32_t> state_{0};
};

/// semaphore, sync. Breaks spurious-wake-up tolerance only: document 004's design (a count
/// that goes negative with waiters, a queue of parkers, release unparks one), where the waiter
/// takes one return from park() as "a release picked me". Correct while park never returns
/// spuriously.
template <class P>
class park_once_semaphore {
 public:
  explicit park_once_semaphore(std::int64_t initial_tokens) : count_(initial_tokens) {}
  park_once_semaphore(const park_once_semaphore&) = delete;
  park_once_semaphore& operator=(const park_once_semaphore&) = delete;

  void acquire() {
    // acq_rel: acquire pairs with release's fetch_add; release orders the announcement.
    if (count_.fetch_sub(1, std::memory_order_acq_rel) - 1 >= 0) return;
    auto& me = P::current_parker();
    {
      primitives_detail::lock_guard guard(mutex_);
      queue_.with_mut([&](std::deque<typename P::parker*>& q) { q.push_back(&me); });
    }
    me.park();  // the planted bug: no loop re-checking that a release picked this waiter
  }
  void release() {
    // acq_rel: pairs with acquire's fetch_sub.
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 > 0) return;  // nobody waits
    // A waiter announced itself in count_; as in 004, spin until it has queued.
    for (;;) {
      typename P::parker* next = nullptr;
      {
        primitives_detail::lock_guard guard(mutex_);
        queue_.with_mut([&](std::deque<typename P::parker*>& q) {
          if (!q.empty()) {
            next = q.front();
            q.pop_front();
          }
        });
      }
      if (next != nullptr) {
        next->unpark();  // a thread's parker outlives the wait: no use after the waiter left
        return;
      }
      P::yield();
    }
  }

 private:
  // count_: free tokens when >= 0; minus the waiters announced when < 0.
  typename P::template atomic<std::int64_t> count_;
  typename P::mutex mutex_;
  typename P::template cell<std::deque<typename P::parker*>> queue_;  // guarded by mutex_
};

/// semaphore, sync. Breaks "no lost wake-ups": release wakes a sleeper only when the count
/// leaves zero. A second release before the first woken sleeper took its token wakes nobody,
/// and with two sleepers one of them sleeps on with a token free. Otherwise
/// wait_on_address_semaphore. With `Spins`, an acquirer finding no token re-reads the count up
/// to that many times, yielding, before it sleeps (a spin-then-sleep path, as published
/// semaphores have).
template <class P, int Spins = 0>
class wake_from_zero_only_semaphore {
 public:
  explicit wake_from_zero_only_semaphore(std::int64_t initial_tokens)
      : tokens_(static_cast<std::int32_t>(initial_tokens)) {}
  wake_from_zero_only_semaphore(const wake_from_zero_only_semaphore&) = delete;
  wake_from_zero_only_semaphore& operator=(const wake_from_zero_only_semaphore&) = delete;

  void acquire() {
    std::int32_t current = tokens_.load(std::memory_order_relaxed);  // a guess
    for (;;) {
      if (current > 0) {
        // acquire: pairs with release's increment; relaxed failure refreshes the guess.
        if (tokens_.compare_exchange_weak(current, current - 1, std::memory_order_acquire,
                                          std::memory_order_relaxed)) {
          return;
        }
        continue;
      }
      for (int i = 0; i < Spins && current == 0; ++i) {
        P::yield();
        current = tokens_.load(std::memory_order_relaxed);
      }
      if (current > 0) continue;
      P::wait_on_address(tokens_, 0);
      current = tokens_.load(std::memory_order_relaxed);
    }
  }
  void release() {
    // release: pairs with acquire's compare-exchange.
    if (tokens_.fetch_add(1, std::memory_order_release) == 0) {  // the planted bug
      P::wake_by_address_single(tokens_);
    }
  }

 private:
  typename P::template atomic<std::int32_t> tokens_;  // free tokens, >= 0
};

/// work_queue, sync. Breaks "every item processed": a single slot that push overwrites, so an
/// item pushed while the previous one is still in the slot is lost. Never delivers an item
/// twice or one nobody pushed.
template <class P>
class overwriting_slot_queue {
 public:
  overwriting_slot_queue() = default;
  overwriting_slot_queue(const overwriting_slot_queue&) = delete;
  overwriting_slot_queue& operator=(const overwriting_slot_queue&) = delete;

  void push(std::int64_t item) {
    slot_.store(item, std::memory_order_release);  // the planted bug; pairs with the exchange
    work_available_.set();
  }
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    // acquire: pairs with push's release store.
    const std::int64_t item = slot_.exchange(kEmpty, std::memory_order_acquire);
    if (item != kEmpty) process(item);
  }

 private:
  static constexpr std::int64_t kEmpty = -1;
  typename P::template atomic<std::int64_t> slot_{kEmpty};  // the latest item, or kEmpty
  typename P::auto_reset_event work_available_{false};
};

/// work_queue, sync. Breaks "every item processed once": the consumer copies the items out
/// instead of taking them, so a later consume_once processes them again.
template <class P>
class copy_not_take_queue {
 public:
  copy_not_take_queue() = default;
  copy_not_take_queue(const copy_not_take_queue&) = delete;
  copy_not_take_queue& operator=(const copy_not_take_queue&) = delete;

  void push(std::int64_t item) {
    {
      primitives_detail::lock_guard guard(mutex_);
      items_.with_mut([&](std::deque<std::int64_t>& items) { items.push_back(item); });
    }
    work_available_.set();
  }
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    std::deque<std::int64_t> taken;
    {
      primitives_detail::lock_guard guard(mutex_);
      taken = items_.with([](const std::deque<std::int64_t>& items) { return items; });  // bug
    }
    for (std::int64_t item : taken) process(item);
  }

 private:
  typename P::mutex mutex_;
  typename P::template cell<std::deque<std::int64_t>> items_;  // guarded by mutex_
  typename P::auto_reset_event work_available_{false};
};

/// work_queue, sync. Breaks "the consumer only gets pushed items": push appends a placeholder
/// and fills it in a second critical section, so a consumer flushing in between takes the
/// placeholder (and never reads the item that later lands behind its cursor).
template <class P>
class placeholder_first_queue {
 public:
  placeholder_first_queue() = default;
  placeholder_first_queue(const placeholder_first_queue&) = delete;
  placeholder_first_queue& operator=(const placeholder_first_queue&) = delete;

  void push(std::int64_t item) {
    std::size_t index = 0;
    {
      primitives_detail::lock_guard guard(mutex_);
      index = log_.with_mut([](std::vector<std::int64_t>& log) {
        log.push_back(kPlaceholder);  // the planted bug: visible before it is filled
        return log.size() - 1;
      });
    }
    {
      primitives_detail::lock_guard guard(mutex_);
      log_.with_mut([&](std::vector<std::int64_t>& log) { log[index] = item; });
    }
    work_available_.set();
  }
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    std::vector<std::int64_t> taken;
    {
      primitives_detail::lock_guard guard(mutex_);
      log_.with([&](const std::vector<std::int64_t>& log) {
        taken.assign(log.begin() + static_cast<std::ptrdiff_t>(next_), log.end());
        next_ = log.size();
      });
    }
    for (std::int64_t item : taken) process(item);
  }

 private:
  static constexpr std::int64_t kPlaceholder = -1;
  typename P::mutex mutex_;
  typename P::template cell<std::vector<std::int64_t>> log_;  // every push; guarded by mutex_
  std::size_t next_ = 0;  // consumer only: the first log entry not yet taken
  typename P::auto_reset_event work_available_{false};
};

/// work_queue, sync. Loses some items and delivers others twice: a single slot that push
/// overwrites and the consumer reads without emptying. A push that lands between the
/// consumer's read and the previous push's set() has its item processed again on the next
/// wake-up; one pushed while the slot is unread is lost.
template <class P>
class unemptied_slot_queue {
 public:
  unemptied_slot_queue() = default;
  unemptied_slot_queue(const unemptied_slot_queue&) = delete;
  unemptied_slot_queue& operator=(const unemptied_slot_queue&) = delete;

  void push(std::int64_t item) {
    slot_.store(item, std::memory_order_release);  // pairs with the consumer's acquire load
    work_available_.set();
  }
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    const std::int64_t item = slot_.load(std::memory_order_acquire);  // pairs with push
    if (item != kEmpty) process(item);
  }

 private:
  static constexpr std::int64_t kEmpty = -1;
  typename P::template atomic<std::int64_t> slot_{kEmpty};  // the latest item, or kEmpty
  typename P::auto_reset_event work_available_{false};
};

/// mutex, async. Waiters queue by coroutine handle; unlock grants the oldest, then resumes it
/// on the releasing thread. Correct until a waiter is cancelled; each variant plants one
/// cancellation bug:
///   - kOffersTryCancel false: destroying a queued waiter leaves its handle in the queue (its
///     awaiter has no destructor to take it out), so a release resumes the destroyed frame;
///   - kOffersTryCancel true: try_cancel withdraws a granted waiter but does not hand its grant
///     on, so the mutex stays held by nobody, for good.
template <class P, bool kOffersTryCancel>
class handle_queue_mutex {
 public:
  handle_queue_mutex() = default;
  handle_queue_mutex(const handle_queue_mutex&) = delete;
  handle_queue_mutex& operator=(const handle_queue_mutex&) = delete;

  struct lock_awaiter {
    handle_queue_mutex& mutex;
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> h) {
      primitives_detail::lock_guard guard(mutex.mutex_);
      return mutex.state_.with_mut([&](State& s) {
        if (!s.held) {
          s.held = true;
          return false;  // taken: run on
        }
        s.queue.push_back(h);
        return true;
      });
    }
    void await_resume() noexcept {}
  };

  lock_awaiter lock() { return lock_awaiter{*this}; }

  void unlock() {
    {
      primitives_detail::lock_guard guard(mutex_);
      const bool granted = state_.with_mut([](State& s) {
        if (s.queue.empty()) {
          s.held = false;
          return false;
        }
        s.granted = s.queue.front();
        s.queue.pop_front();
        return true;
      });
      if (!granted) return;
    }
    std::coroutine_handle<> next;
    {
      primitives_detail::lock_guard guard(mutex_);
      next = state_.with_mut([](State& s) { return std::exchange(s.granted, {}); });
    }
    if (next) P::resume(next);  // the mutex passes to `next` still held
  }

  /// Withdraws a queued or granted waiter; false once its resumption is committed.
  bool try_cancel(std::coroutine_handle<> h) requires kOffersTryCancel {
    primitives_detail::lock_guard guard(mutex_);
    return state_.with_mut([&](State& s) {
      if (const auto it = std::find(s.queue.begin(), s.queue.end(), h); it != s.queue.end()) {
        s.queue.erase(it);
        return true;
      }
      if (s.granted != h) return false;
      s.granted = {};  // the planted bug: the grant should go to the next waiter, or free it
      return true;
    });
  }

 private:
  struct State {
    bool held = false;
    std::deque<std::coroutine_handle<>> queue;  // waiting, oldest first
    std::coroutine_handle<> granted;            // picked by unlock, not yet resumed
  };
  typename P::mutex mutex_;
  typename P::template cell<State> state_;  // guarded by mutex_
};

template <class P>
using cancel_leaves_handle_queued_mutex = handle_queue_mutex<P, false>;
template <class P>
using cancel_drops_grant_mutex = handle_queue_mutex<P, true>;

/// mutex, async. Breaks cancellation safety at the pool: waiters queue in arrival order and
/// unlock posts the oldest to the pool (P::post), the mutex passing to it still held. A
/// destroyed waiter's awaiter marks its queue entry withdrawn (its destructor, document 003's
/// cancellation hook; one atomic store, so it never blocks inside a frame's destruction) and
/// unlock skips withdrawn entries; but once unlock has posted an entry, marking it does
/// nothing: a waiter destroyed then dies while its resumption sits on the pool. No try_cancel,
/// so the scenario destroys a waiter at any point before it runs.
template <class P>
class posted_waiter_not_withdrawn_mutex {
  struct Waiter {
    std::coroutine_handle<> handle;
    // false, then true once its awaiter is destroyed before the waiter was resumed.
    typename P::template atomic<bool> withdrawn{false};
  };

 public:
  posted_waiter_not_withdrawn_mutex() = default;
  posted_waiter_not_withdrawn_mutex(const posted_waiter_not_withdrawn_mutex&) = delete;
  posted_waiter_not_withdrawn_mutex& operator=(const posted_waiter_not_withdrawn_mutex&) = delete;

  struct lock_awaiter {
    posted_waiter_not_withdrawn_mutex& mutex;
    std::shared_ptr<Waiter> entry{};  // from queueing until resumption; shared with the queue

    ~lock_awaiter() {
      // The planted bug: an entry unlock already posted is off the queue, and nothing withdraws
      // it from the pool (nor hands its grant on). release: pairs with unlock's acquire load.
      if (entry) entry->withdrawn.store(true, std::memory_order_release);
    }
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> h) {
      primitives_detail::lock_guard guard(mutex.mutex_);
      return mutex.state_.with_mut([&](State& s) {
        if (!s.held) {
          s.held = true;
          return false;  // taken: run on
        }
        entry = std::make_shared<Waiter>(h);
        s.queue.push_back(entry);
        return true;
      });
    }
    // Resumed: nothing to withdraw. No Platform operation here, nor in the destructor on this
    // path, so nothing else runs between the resumption and the code after the co_await.
    void await_resume() noexcept { entry.reset(); }
  };

  lock_awaiter lock() { return lock_awaiter{*this}; }

  void unlock() {
    primitives_detail::lock_guard guard(mutex_);
    for (;;) {
      const auto next = state_.with_mut([](State& s) -> std::shared_ptr<Waiter> {
        if (s.queue.empty()) {
          s.held = false;
          return nullptr;
        }
        auto front = std::move(s.queue.front());
        s.queue.pop_front();
        return front;
      });
      if (!next) return;
      // acquire: pairs with the awaiter destructor's release store.
      if (next->withdrawn.load(std::memory_order_acquire)) continue;
      P::post(next->handle);  // the mutex passes to it still held
      return;
    }
  }

 private:
  struct State {
    bool held = false;
    std::deque<std::shared_ptr<Waiter>> queue;  // waiting, oldest first
  };
  typename P::mutex mutex_;
  typename P::template cell<State> state_;  // guarded by mutex_
};

/// semaphore, sync. Breaks FIFO hand-off, and with it starvation freedom: free tokens go to
/// the newest waiting ticket first, so a waiter is passed over for as long as newer ones keep
/// arriving. Its doorway is its first operation (taking the ticket), so the WaitBook blames it
/// for the hand-off order alone: serving the oldest instead, it is a FIFO semaphore. Every grant
/// wakes every sleeper.
template <class P>
class lifo_ticket_semaphore {
 public:
  explicit lifo_ticket_semaphore(std::int64_t initial_tokens) : state_(State{initial_tokens, {}}) {}
  lifo_ticket_semaphore(const lifo_ticket_semaphore&) = delete;
  lifo_ticket_semaphore& operator=(const lifo_ticket_semaphore&) = delete;

  void acquire() {
    // relaxed: the ticket only orders arrivals; grants are made and read under mutex_.
    const auto ticket =
        static_cast<std::size_t>(next_ticket_.fetch_add(1, std::memory_order_relaxed));
    hand_out();
    for (;;) {
      // acquire: pairs with hand_out's release increment.
      const std::int32_t grants = grants_.load(std::memory_order_acquire);
      bool mine = false;
      {
        primitives_detail::lock_guard guard(mutex_);
        mine = state_.with([&](const State& s) { return s.granted[ticket]; });
      }
      if (mine) return;
      P::wait_on_address(grants_, grants);
    }
  }
  void release() {
    {
      primitives_detail::lock_guard guard(mutex_);
      state_.with_mut([](State& s) { ++s.free; });
    }
    hand_out();
  }

 private:
  struct State {
    std::int64_t free = 0;      // tokens neither held nor granted
    std::vector<bool> granted;  // by ticket: its token is given
  };

  /// Gives the free tokens to waiting tickets; wakes every sleeper if it gave any.
  void hand_out() {
    bool gave = false;
    {
      primitives_detail::lock_guard guard(mutex_);
      // Tickets taken so far; one taken after this load is served by its own hand_out.
      const auto taken = static_cast<std::size_t>(next_ticket_.load(std::memory_order_seq_cst));
      state_.with_mut([&](State& s) {
        s.granted.resize(taken, false);
        // The planted bug: the newest waiting ticket first; FIFO would scan upwards.
        for (std::size_t t = taken; t > 0 && s.free > 0; --t) {
          if (s.granted[t - 1]) continue;
          s.granted[t - 1] = true;
          --s.free;
          gave = true;
        }
      });
    }
    if (!gave) return;
    grants_.fetch_add(1, std::memory_order_release);  // pairs with acquire's acquire load
    P::wake_by_address_all(grants_);
  }

  // next_ticket_: the next ticket to hand out (only grows). grants_: bumped after every
  // hand-out that gave a token, so a sleeper never misses one (only grows).
  typename P::template atomic<std::int32_t> next_ticket_{0};
  typename P::template atomic<std::int32_t> grants_{0};
  typename P::mutex mutex_;
  typename P::template cell<State> state_;  // guarded by mutex_
};

/// semaphore, sync: the control for the semaphore fairness and starvation checks, which no
/// semaphore in primitives/ claims. A FIFO ticket semaphore, as ticket_mutex with `capacity`
/// turns open at once: ticket t may go once more than t tickets have been admitted.
template <class P>
class fifo_ticket_semaphore {
 public:
  explicit fifo_ticket_semaphore(std::int64_t initial_tokens)
      : admitted_(static_cast<std::int32_t>(initial_tokens)) {}
  fifo_ticket_semaphore(const fifo_ticket_semaphore&) = delete;
  fifo_ticket_semaphore& operator=(const fifo_ticket_semaphore&) = delete;

  void acquire() {
    // relaxed: the ticket only orders acquirers; the acquire load below synchronizes.
    const std::int32_t ticket = next_ticket_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      // acquire: pairs with release's release increment.
      const std::int32_t admitted = admitted_.load(std::memory_order_acquire);
      if (ticket < admitted) return;
      P::wait_on_address(admitted_, admitted);  // may return spuriously; the loop re-checks
    }
  }
  void release() {
    admitted_.fetch_add(1, std::memory_order_release);  // pairs with acquire's load
    P::wake_by_address_all(admitted_);                  // the next ticket is one of the sleepers
  }

 private:
  // next_ticket_: the next ticket to hand out; admitted_: tickets below it may hold a token
  // (initial tokens plus releases). Both only grow.
  typename P::template atomic<std::int32_t> next_ticket_{0};
  typename P::template atomic<std::int32_t> admitted_;
};

namespace scenarios {
namespace backends_planted_bugs_test {
namespace {

// ---------------------------------------------------------------------------------------------
// Weak-memory planted bugs: each releasing operation's order is a parameter. With Release it is
// a correct primitive; with relaxed, nothing orders one holder's (or the setter's) writes before
// the next holder's (or a woken waiter's) accesses, which only the C++ memory model shows.

/// mutex, sync: an exchange lock that sleeps on its word. Unlock stores 0 with `Unlock`.
template <class P, std::memory_order Unlock>
class exchange_mutex {
 public:
  exchange_mutex() = default;
  exchange_mutex(const exchange_mutex&) = delete;
  exchange_mutex& operator=(const exchange_mutex&) = delete;

  void lock() {
    // acquire: pairs with unlock's store when that is a release.
    while (locked_.exchange(1, std::memory_order_acquire) != 0) P::wait_on_address(locked_, 1);
  }
  void unlock() {
    locked_.store(0, Unlock);
    P::wake_by_address_single(locked_);
  }

 private:
  typename P::template atomic<std::int32_t> locked_{0};  // 0 free, 1 held
};

/// semaphore, sync: a token count taken by compare-exchange. Release adds with `Release`.
template <class P, std::memory_order Release>
class token_semaphore {
 public:
  explicit token_semaphore(std::int64_t tokens) : tokens_(static_cast<std::int32_t>(tokens)) {}
  token_semaphore(const token_semaphore&) = delete;
  token_semaphore& operator=(const token_semaphore&) = delete;

  void acquire() {
    for (;;) {
      std::int32_t n = tokens_.load(std::memory_order_relaxed);
      if (n == 0) {
        P::wait_on_address(tokens_, std::int32_t{0});
      } else if (tokens_.compare_exchange_weak(n, n - 1, std::memory_order_acquire,
                                               std::memory_order_relaxed)) {
        return;
      }
    }
  }
  void release() {
    tokens_.fetch_add(1, Release);
    P::wake_by_address_single(tokens_);
  }

 private:
  typename P::template atomic<std::int32_t> tokens_;  // free tokens, >= 0
};

/// event (manual reset), sync: a flag waited on by address. Set stores 1 with `Set`.
template <class P, std::memory_order Set>
class flag_event {
 public:
  static constexpr bool kAutoReset = false;

  explicit flag_event(bool initially_set) : set_(initially_set ? 1 : 0) {}
  flag_event(const flag_event&) = delete;
  flag_event& operator=(const flag_event&) = delete;

  void set() {
    set_.store(1, Set);
    P::wake_by_address_all(set_);
  }
  void reset() { set_.store(0, std::memory_order_relaxed); }
  void wait() {
    // acquire: pairs with set's store when that is a release.
    while (set_.load(std::memory_order_acquire) == 0) P::wait_on_address(set_, 0);
  }

 private:
  typename P::template atomic<std::int32_t> set_;  // 1 set, 0 not
};

// ---------------------------------------------------------------------------------------------
// Running a family body on sim.

constexpr std::uint64_t kSeed = 1;
/// Executions a search may take before the test gives up on the breach.
constexpr std::uint64_t kSearchBudget = 5000;
/// Executions every control must get through with nothing reported.
constexpr std::uint64_t kControlExecutions = 2000;

using Body = std::function<void(Observations&, const Params&)>;

/// The family's parameters plus the runtime's, defaults overridden by `values`, as the runner
/// resolves a preset's.
Params params_of(Family family, const nlohmann::json& values) {
  return Params::resolve(sim_param_specs(family), values, {}, "backends_planted_bugs_test");
}

/// What one execution reported, as its verdict reads it: the claim a check named
/// ("mutual_exclusion", ...), or the runtime's property ("deadlock", "step_bound", ...), and the
/// message. Empty when nothing broke.
struct Reported {
  std::string property;
  std::string message;
};

Reported reported_by(const sim::ExecutionResult& r, const Observations& obs) {
  // Every claim and no fault family: whatever broke is reported, as the runner counts it.
  const ExecutionVerdict j = sim_execution_verdict(r, obs, Family::safety, ~std::uint32_t{0});
  return {j.property, j.message};
}

bool anything_reported(const Reported& f, const Observations& obs) {
  return !f.property.empty() || !obs.unclaimed.empty();
}

/// A run of executions of one body, stopped at the first execution `stop` accepts.
struct Search {
  std::uint64_t executions = 0;  // executions run, the stopping one included
  bool stopped = false;
  Reported finding;  // of the last execution run
  Observations obs;  // of the last execution run
  // For shrinking the breach: what ran, and the last execution's schedule and steps.
  Body body;
  Params params;
  Schedule schedule;
  std::uint64_t steps = 0;
};

Search search(
    const Body& body, const Params& p, std::uint64_t budget,
    const std::function<bool(const Reported&, const Observations&)>& stop = anything_reported,
    Strategy* given = nullptr) {
  RandomStrategy random(kSeed);
  RecordingStrategy strategy(given != nullptr ? *given : random);
  sim::Runtime runtime(runtime_options(p, /*trace=*/false));
  Search s;
  s.body = body;
  s.params = p;
  while (s.executions < budget) {
    const auto execution = strategy.new_execution();
    if (!execution) break;  // an exhaustive search ran out of schedules
    s.obs = Observations{};
    auto r = runtime.run(strategy, *execution, [&] { body(s.obs, p); });
    ++s.executions;
    // Ended by a reduction as redundant: it ran, so it counts, but it is neither a finding nor
    // a completed run, and its observations stop halfway. Not judged.
    if (r.outcome == sim::Outcome::pruned) {
      runtime.recycle(std::move(r));
      continue;
    }
    s.finding = reported_by(r, s.obs);
    s.schedule = strategy.schedule().value();
    s.steps = r.steps;
    runtime.recycle(std::move(r));
    if (stop(s.finding, s.obs)) {
      s.stopped = true;
      break;
    }
  }
  return s;
}

std::string describe(const Search& s) {
  std::string text = "'" + s.finding.property + ": " + s.finding.message + "'";
  for (const auto& [claim, count] : s.obs.unclaimed) {
    text += ", unclaimed " + claim + " x" + std::to_string(count);
  }
  return text;
}

::testing::AssertionResult shrinks(const Search& s, std::uint64_t* shrunk_steps = nullptr);

/// The planted bug showed, as `property` with `fragment` in its message, and shrinks (to
/// `shrunk_steps` steps, when given).
::testing::AssertionResult breached(const Search& s, std::string_view property,
                                    std::string_view fragment,
                                    std::uint64_t* shrunk_steps = nullptr) {
  if (!s.stopped) {
    return ::testing::AssertionFailure() << "no breach in " << s.executions << " executions";
  }
  if (s.finding.property != property || s.finding.message.find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "execution " << s.executions << " reported " << describe(s) << ", expected "
           << property << " with '" << fragment << "'";
  }
  ::testing::Test::RecordProperty("executions_to_detection", std::to_string(s.executions));
  return shrinks(s, shrunk_steps);
}

/// What every planted breach shrinks to (src/backends/sim/shrink.hpp), keeping its property: no
/// more steps than the search's execution, and a schedule that replays to the same breach.
::testing::AssertionResult shrinks(const Search& s, std::uint64_t* shrunk_steps) {
  static const PrimitiveInfo claims_all{"planted", Kind::mutex,       Mode::sync,
                                        "test",    ~std::uint32_t{0}, "a planted bug"};
  Cell cell;
  cell.preset.name = "planted";
  cell.preset.family = Family::safety;  // as reported_by judges
  cell.primitive = &claims_all;
  cell.params = s.params;
  cell.body = s.body;
  ShrinkLimits limits;
  limits.seconds = 600;             // the executions budget ends it
  limits.lower_parameters = false;  // the body is not the catalogue's
  const ExecutionVerdict broken{true, true, s.finding.property, s.finding.message};
  const auto shrunk = shrink_violation(cell, s.schedule, broken, limits, no_watch());
  if (!shrunk)
    return ::testing::AssertionFailure() << "re-running the breach to shrink it did not break it";
  if (shrunk->verdict.property != s.finding.property) {
    return ::testing::AssertionFailure()
           << "shrinking changed the property to " << shrunk->verdict.property;
  }
  if (shrunk->original_steps != s.steps || shrunk->steps > shrunk->original_steps) {
    return ::testing::AssertionFailure()
           << "shrinking grew the breach: " << s.steps << " -> " << shrunk->steps << " steps";
  }
  const auto runtime = make_runtime(cell, /*trace=*/true);
  std::string traces[2];
  for (auto& trace : traces) {
    ReplayStrategy replay(shrunk->schedule);
    const Execution execution = *replay.new_execution();
    Observations obs;
    const auto r = execute(cell, *runtime, replay, execution, obs, no_watch());
    if (reported_by(r, obs).property != s.finding.property) {
      return ::testing::AssertionFailure() << "the shrunk schedule does not replay to the breach";
    }
    trace = r.format_trace();
  }
  if (traces[0] != traces[1]) return ::testing::AssertionFailure() << "two replays differ";
  ::testing::Test::RecordProperty("steps_found", std::to_string(shrunk->original_steps));
  ::testing::Test::RecordProperty("steps_shrunk", std::to_string(shrunk->steps));
  if (shrunk_steps != nullptr) *shrunk_steps = shrunk->steps;
  std::printf("shrunk: %llu -> %llu steps, %u -> %u preemptions\n",
              static_cast<unsigned long long>(shrunk->original_steps),
              static_cast<unsigned long long>(shrunk->steps), shrunk->original_preemptions,
              shrunk->preemptions);
  return ::testing::AssertionSuccess();
}

/// The control got through every execution with nothing reported, not even unclaimed.
::testing::AssertionResult clean(const Search& s) {
  if (s.stopped) {
    return ::testing::AssertionFailure()
           << "the control reported " << describe(s) << " at execution " << s.executions;
  }
  return ::testing::AssertionSuccess() << s.executions << " clean executions";
}

template <Kind K, class Prim>
Body safety_body(std::uint32_t claims) {
  return [claims](Observations& o, const Params& p) {
    safety::run<Sim, K, Mode::sync, Prim>(o, claims, p);
  };
}

template <Kind K, class Prim>
Body fairness_body(std::uint32_t claims) {
  return [claims](Observations& o, const Params& p) {
    contention::run_fairness<Sim, K, Mode::sync, Prim>(o, claims, p);
  };
}

template <Kind K, class Prim>
Body starvation_body(std::uint32_t claims) {
  return [claims](Observations& o, const Params& p) {
    contention::run_starvation<Sim, K, Mode::sync, Prim>(o, claims, p);
  };
}

template <class Prim>
Body work_queue_body(std::uint32_t claims) {
  return [claims](Observations& o, const Params& p) {
    work_queue::run<Sim, Kind::work_queue, Mode::sync, Prim>(o, claims, p);
  };
}

template <class Prim>
Body cancellation_body(std::uint32_t claims) {
  return [claims](Observations& o, const Params& p) {
    cancellation::run<Sim, Kind::mutex, Mode::async, Prim>(o, claims, p);
  };
}

constexpr std::uint32_t kSafe = kMutualExclusion | kNoLostWakeups;

// ---------------------------------------------------------------------------------------------
// safety

TEST(PlantedBugs, SafetyFailsAMutexWhoseLockDoesNotExcludeAndPassesTicketMutex) {
  const auto p = params_of(Family::safety, {});
  EXPECT_TRUE(
      breached(search(safety_body<Kind::mutex, check_then_set_mutex<Sim>>(kSafe), p, kSearchBudget),
               "mutual_exclusion", "2 exclusive holders where at most 1"));
  EXPECT_TRUE(
      clean(search(safety_body<Kind::mutex, ticket_mutex<Sim>>(kSafe), p, kControlExecutions)));
}

TEST(PlantedBugs, SafetyFailsAReaderEnteringPastAHeldWriterAndPassesTicketSharedMutex) {
  const auto p = params_of(Family::safety, {});
  EXPECT_TRUE(breached(
      search(safety_body<Kind::shared_mutex, reader_ignores_writer_shared_mutex<Sim>>(kSafe), p,
             kSearchBudget),
      "mutual_exclusion", "shared holder"));
  EXPECT_TRUE(clean(search(safety_body<Kind::shared_mutex, ticket_shared_mutex<Sim>>(kSafe), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, SafetyFailsASemaphoreAdmittingOneHolderTooManyAndPassesTheControl) {
  // Three actors on two tokens: the third holder is the one too many.
  const auto p = params_of(Family::safety, {{"actors", 3}, {"capacity", 2}});
  EXPECT_TRUE(breached(
      search(safety_body<Kind::semaphore, off_by_one_semaphore<Sim>>(kSafe), p, kSearchBudget),
      "mutual_exclusion", "3 exclusive holders where at most 2"));
  EXPECT_TRUE(clean(search(safety_body<Kind::semaphore, wait_on_address_semaphore<Sim>>(kSafe), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, SafetyFailsAManualResetEventReleasingAWaitBeforeAnySetAndPassesTheControl) {
  const auto p = params_of(Family::safety, {});
  EXPECT_TRUE(breached(
      search(safety_body<Kind::event, second_wait_returns_event<Sim>>(kSafe), p, kSearchBudget),
      "mutual_exclusion", "a waiter was released before any set"));
  EXPECT_TRUE(clean(search(safety_body<Kind::event, platform_manual_reset_event<Sim>>(kSafe), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, SafetyFailsAnAutoResetEventWhoseSetReleasesEveryWaiterAndPassesTheControl) {
  const auto p = params_of(Family::safety, {});
  EXPECT_TRUE(
      breached(search(safety_body<Kind::event, set_releases_all_auto_reset_event<Sim>>(kSafe), p,
                      kSearchBudget),
               "mutual_exclusion", "sets of an auto-reset event"));
  EXPECT_TRUE(clean(search(safety_body<Kind::event, platform_auto_reset_event<Sim>>(kSafe), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, SafetyStrandsAWaiterOfAnEventThatLosesASetMadeWhileSetAndPassesTheControl) {
  // Three waiters: after the first set, the setter waits until the other two are blocked and
  // sets twice in a row (sim's quiescence), which only a correct auto-reset event survives.
  const auto p = params_of(Family::safety, {{"actors", 3}});
  EXPECT_TRUE(
      breached(search(safety_body<Kind::event, semaphore_flag_event<Sim>>(kSafe), p, kSearchBudget),
               "deadlock", "waits in acquire"));
  EXPECT_TRUE(clean(search(safety_body<Kind::event, platform_auto_reset_event<Sim>>(kSafe), p,
                           kControlExecutions)));
}

// ---------------------------------------------------------------------------------------------
// fairness and starvation

TEST(PlantedBugs, FairnessFailsALifoMutexClaimingFifoAndPassesTicketMutex) {
  const auto p = params_of(Family::fairness, {});
  const std::uint32_t claims = kSafe | kFifoHandoff;
  EXPECT_TRUE(
      breached(search(fairness_body<Kind::mutex, lifo_ticket_mutex<Sim>>(claims), p, kSearchBudget),
               "fifo_handoff", "already queued when it arrived"));
  EXPECT_TRUE(
      clean(search(fairness_body<Kind::mutex, ticket_mutex<Sim>>(claims), p, kControlExecutions)));
}

TEST(PlantedBugs, FairnessOnlyCountsTheLifoHandOffOfAMutexNotClaimingFifo) {
  const auto p = params_of(Family::fairness, {});
  const auto s = search(fairness_body<Kind::mutex, lifo_ticket_mutex<Sim>>(kSafe), p, kSearchBudget,
                        [](const Reported& f, const Observations& obs) {
                          return !f.property.empty() || obs.unclaimed.count("fifo_handoff") > 0;
                        });
  ASSERT_TRUE(s.stopped) << "no bypass in " << s.executions << " executions";
  EXPECT_EQ(s.finding.property, "") << "execution " << s.executions << ": " << describe(s);
  EXPECT_GT(s.obs.fifo_violations, 0u);
  ::testing::Test::RecordProperty("executions_to_detection", std::to_string(s.executions));
}

TEST(PlantedBugs, StarvationFailsAReaderPreferringSharedMutexAndPassesTicketSharedMutex) {
  const auto p = params_of(Family::starvation, {});
  const std::uint32_t claims = kSafe | kStarvationFreedom;
  EXPECT_TRUE(breached(
      search(starvation_body<Kind::shared_mutex, reader_preferring_shared_mutex<Sim>>(claims), p,
             kSearchBudget),
      "starvation_freedom", "bypassed"));
  EXPECT_TRUE(clean(search(starvation_body<Kind::shared_mutex, ticket_shared_mutex<Sim>>(claims), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, FairnessFailsALifoSemaphoreClaimingFifoAndPassesAFifoTicketSemaphore) {
  // No semaphore in primitives/ claims FIFO: the control is fifo_ticket_semaphore, above.
  const auto p = params_of(Family::fairness, {});
  const std::uint32_t claims = kSafe | kFifoHandoff;
  EXPECT_TRUE(breached(
      search(fairness_body<Kind::semaphore, lifo_ticket_semaphore<Sim>>(claims), p, kSearchBudget),
      "fifo_handoff", "already queued when it arrived"));
  EXPECT_TRUE(clean(search(fairness_body<Kind::semaphore, fifo_ticket_semaphore<Sim>>(claims), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, StarvationFailsALifoMutexAndPassesTicketMutex) {
  const auto p = params_of(Family::starvation, {});
  const std::uint32_t claims = kSafe | kStarvationFreedom;
  EXPECT_TRUE(breached(
      search(starvation_body<Kind::mutex, lifo_ticket_mutex<Sim>>(claims), p, kSearchBudget),
      "starvation_freedom", "bypassed"));
  EXPECT_TRUE(clean(
      search(starvation_body<Kind::mutex, ticket_mutex<Sim>>(claims), p, kControlExecutions)));
}

TEST(PlantedBugs, StarvationFailsALifoSemaphoreAndPassesAFifoTicketSemaphore) {
  const auto p = params_of(Family::starvation, {});
  const std::uint32_t claims = kSafe | kStarvationFreedom;
  EXPECT_TRUE(breached(search(starvation_body<Kind::semaphore, lifo_ticket_semaphore<Sim>>(claims),
                              p, kSearchBudget),
                       "starvation_freedom", "bypassed"));
  EXPECT_TRUE(clean(search(starvation_body<Kind::semaphore, fifo_ticket_semaphore<Sim>>(claims), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, StarvationFailsALifoMutexAtTheStepBoundUnderTheLoosestBypassBound) {
  // max_bypass at its most, 1000, is more acquisitions than fit in 2000 steps: the bypass check
  // cannot fire. Four streaming actors keep a newer waiter queued at most hand-offs, and their
  // 1000 rounds each outlast the step bound: a victim starved that long ends the execution at
  // the step bound, which the runner fails a starvation-freedom claim for.
  const auto p = params_of(
      Family::starvation,
      {{"max_bypass", 1000}, {"others", 4}, {"stream_rounds", 1000}, {"max_steps", 2000}});
  const std::uint32_t claims = kSafe | kStarvationFreedom;
  EXPECT_TRUE(breached(
      search(starvation_body<Kind::mutex, lifo_ticket_mutex<Sim>>(claims), p, kSearchBudget),
      "step_bound", "step bound of 2000 exceeded"));
  EXPECT_TRUE(clean(
      search(starvation_body<Kind::mutex, ticket_mutex<Sim>>(claims), p, kControlExecutions)));
}

// ---------------------------------------------------------------------------------------------
// spurious wake-ups and lost wake-ups (the spurious-wakeups and progress families run the
// safety body on the kinds that are not work queues)

TEST(PlantedBugs, SpuriousWakeupsFailASemaphoreProceedingOnASpuriousReturnAndPassTheControl) {
  const nlohmann::json values = {{"actors", 4}, {"capacity", 2}, {"spurious_wakeups", true}};
  const auto p = params_of(Family::spurious_wakeups, values);
  const std::uint32_t claims = kSafe | kSpuriousWakeupTolerance;
  EXPECT_TRUE(breached(
      search(safety_body<Kind::semaphore, park_once_semaphore<Sim>>(claims), p, kSearchBudget),
      "mutual_exclusion", "exclusive holders where at most 2"));
  EXPECT_TRUE(clean(search(safety_body<Kind::semaphore, wait_on_address_semaphore<Sim>>(claims), p,
                           kControlExecutions)));
  // The bug is the spurious return alone: without injected wake-ups the semaphore is correct.
  auto quiet = values;
  quiet["spurious_wakeups"] = false;
  EXPECT_TRUE(clean(search(safety_body<Kind::semaphore, park_once_semaphore<Sim>>(claims),
                           params_of(Family::spurious_wakeups, quiet), kControlExecutions)));
}

TEST(PlantedBugs, ProgressDeadlocksOnASemaphoreThatLosesAWakeUpAndPassesTheControl) {
  // Two sleepers are needed: four actors on two tokens.
  const auto p = params_of(Family::progress, {{"actors", 4}, {"capacity", 2}});
  EXPECT_TRUE(
      breached(search(safety_body<Kind::semaphore, wake_from_zero_only_semaphore<Sim>>(kSafe), p,
                      kSearchBudget),
               "deadlock", "waits in wait_on_address"));
  EXPECT_TRUE(clean(search(safety_body<Kind::semaphore, wait_on_address_semaphore<Sim>>(kSafe), p,
                           kControlExecutions)));
}

TEST(PlantedBugs, TheSameLostWakeUpBehindTenThousandSpinsIsFoundAndShrinksAsShortAsWithout) {
  // The spin-loop reduction (src/sim/spin.cpp) runs each acquirer's spin as one step: the
  // executions stay short (not the 10,000 reads of each spin), and the counterexample shrinks
  // to the steps of the bug, a spin adding a step or a few where it ran.
  const auto p = params_of(Family::progress, {{"actors", 4}, {"capacity", 2}});
  std::uint64_t spinning = 0;
  std::uint64_t sleeping = 0;
  const Search found =
      search(safety_body<Kind::semaphore, wake_from_zero_only_semaphore<Sim, 10'000>>(kSafe), p,
             kSearchBudget);
  ASSERT_TRUE(breached(found, "deadlock", "waits in wait_on_address", &spinning));
  ASSERT_TRUE(
      breached(search(safety_body<Kind::semaphore, wake_from_zero_only_semaphore<Sim>>(kSafe), p,
                      kSearchBudget),
               "deadlock", "waits in wait_on_address", &sleeping));
  EXPECT_LT(found.steps, 1'000u) << "an execution ran a spin's iterations one step each";
  EXPECT_LE(spinning, 2 * sleeping) << "spinning " << spinning << ", sleeping " << sleeping;
  ::testing::Test::RecordProperty("steps_shrunk_without_spins", std::to_string(sleeping));
}

// ---------------------------------------------------------------------------------------------
// work queues (progress family)

TEST(PlantedBugs, ProgressDeadlocksOnAQueueThatDropsAnItemAndPassesLockedWorkQueue) {
  // A dropped item never reaches the consumer, which waits for it for good.
  const auto p = params_of(Family::progress, {});
  EXPECT_TRUE(
      breached(search(work_queue_body<overwriting_slot_queue<Sim>>(kSafe), p, kSearchBudget),
               "deadlock", "waits in wait on auto_event"));
  EXPECT_TRUE(clean(search(work_queue_body<locked_work_queue<Sim>>(kSafe), p, kControlExecutions)));
}

TEST(PlantedBugs, ProgressFailsAQueueThatProcessesAnItemTwiceAndPassesLockedWorkQueue) {
  const auto p = params_of(Family::progress, {});
  EXPECT_TRUE(breached(search(work_queue_body<copy_not_take_queue<Sim>>(kSafe), p, kSearchBudget),
                       "no_lost_wakeups", "processed 2 times"));
  EXPECT_TRUE(clean(search(work_queue_body<locked_work_queue<Sim>>(kSafe), p, kControlExecutions)));
}

TEST(PlantedBugs, ProgressFailsAQueueThatDeliversAnItemNobodyPushedAndPassesLockedWorkQueue) {
  const auto p = params_of(Family::progress, {});
  EXPECT_TRUE(
      breached(search(work_queue_body<placeholder_first_queue<Sim>>(kSafe), p, kSearchBudget),
               "no_lost_wakeups", "the consumer got an item nobody pushed"));
  EXPECT_TRUE(clean(search(work_queue_body<locked_work_queue<Sim>>(kSafe), p, kControlExecutions)));
}

TEST(PlantedBugs, ProgressOnlyCountsTheDuplicatesOfAQueueThatClaimsNothing) {
  // A queue that does not claim no_lost_wakeups is measured, not failed: its duplicate
  // deliveries are counted in the observations and nothing is reported as broken. (Executions
  // where it lost more items than it duplicated deadlock instead, which fails any primitive,
  // and are passed over here.)
  const auto p = params_of(Family::progress, {});
  const auto s = search(work_queue_body<unemptied_slot_queue<Sim>>(0), p, kSearchBudget,
                        [](const Reported& f, const Observations& obs) {
                          return f.property.empty() && obs.unclaimed.count("no_lost_wakeups") > 0;
                        });
  ASSERT_TRUE(s.stopped) << "no duplicate in " << s.executions << " executions";
  EXPECT_GT(s.obs.unclaimed.at("no_lost_wakeups"), 0u);
  ::testing::Test::RecordProperty("executions_to_detection", std::to_string(s.executions));
  EXPECT_TRUE(clean(search(work_queue_body<locked_work_queue<Sim>>(0), p, kControlExecutions)));
}

// ---------------------------------------------------------------------------------------------
// cancellation during resume

TEST(PlantedBugs, CancellationFailsAMutexThatResumesADestroyedWaiterAndPassesTheControl) {
  const auto p = params_of(Family::cancellation, {});
  const std::uint32_t claims = kSafe | kCancellationSafety;
  EXPECT_TRUE(breached(
      search(cancellation_body<cancel_leaves_handle_queued_mutex<Sim>>(claims), p, kSearchBudget),
      "resume-after-destroy", "destroyed after step"));
  EXPECT_TRUE(clean(
      search(cancellation_body<mutex_part7_cancel_handoff<Sim>>(claims), p, kControlExecutions)));
}

TEST(PlantedBugs, CancellationFailsAMutexWhoseTryCancelDropsAGrantAndPassesTheControl) {
  // One waiter, so that with its grant dropped everyone else is done: what blocks is the
  // family's final acquisition, its "nothing lost" check.
  const auto p = params_of(Family::cancellation, {{"waiters", 1}});
  const std::uint32_t claims = kSafe | kCancellationSafety;
  EXPECT_TRUE(
      breached(search(cancellation_body<cancel_drops_grant_mutex<Sim>>(claims), p, kSearchBudget),
               "deadlock", "the final acquisition"));
  EXPECT_TRUE(clean(
      search(cancellation_body<mutex_part7_cancel_handoff<Sim>>(claims), p, kControlExecutions)));
}

TEST(PlantedBugs, CancellationFailsAMutexLeavingADestroyedWaiterOnThePoolAndPassesTheControl) {
  // A destroy that lands just outside the post (after unlock looked at the entry but before it
  // posted it, or after a pool worker took the waiter off the pool but before it ran) is caught
  // as the resume-after-destroy above instead: those executions are passed over (here 120 of
  // every 2000, against 35 destroy-while-queued); anything else stops the search.
  const auto p = params_of(Family::cancellation, {});
  const std::uint32_t claims = kSafe | kCancellationSafety;
  EXPECT_TRUE(breached(
      search(cancellation_body<posted_waiter_not_withdrawn_mutex<Sim>>(claims), p, kSearchBudget,
             [](const Reported& f, const Observations& obs) {
               return anything_reported(f, obs) && f.property != "resume-after-destroy";
             }),
      "destroy-while-queued", "posted to the pool"));
  EXPECT_TRUE(clean(search(cancellation_body<mutex_part7_pooled_cancel_handoff<Sim>>(claims), p,
                           kControlExecutions)));
}

// ---------------------------------------------------------------------------------------------
// The exhaustive search with its reduction, on small models: it finds each planted bug, and
// it runs out of schedules on the control with nothing reported (a proof for that model).

/// The reduced exhaustive search to its end or to the first report, under `memory`.
Search exhaustive(const Body& body, const Params& p, MemoryModel memory = MemoryModel::sc) {
  DporStrategy dpor;
  MemoryModelStrategy under(dpor, memory);
  auto s = search(body, p, 10'000'000, anything_reported, &under);
  ::testing::Test::RecordProperty("exhaustive_executions", std::to_string(s.executions));
  EXPECT_TRUE(s.stopped || dpor.complete()) << "the search neither found nor finished";
  return s;
}

TEST(PlantedBugsExhaustive, SafetyFindsTheMutexThatDoesNotExcludeAndProvesTicketMutex) {
  const auto p = params_of(Family::safety, {{"actors", 2}, {"rounds", 1}});
  EXPECT_TRUE(breached(exhaustive(safety_body<Kind::mutex, check_then_set_mutex<Sim>>(kSafe), p),
                       "mutual_exclusion", "2 exclusive holders where at most 1"));
  EXPECT_TRUE(clean(exhaustive(safety_body<Kind::mutex, ticket_mutex<Sim>>(kSafe), p)));
}

TEST(PlantedBugsExhaustive, SafetyFindsTheReaderPastAHeldWriterAndProvesTicketSharedMutex) {
  const auto p = params_of(Family::safety, {{"actors", 2}, {"writers", 1}, {"rounds", 1}});
  EXPECT_TRUE(breached(
      exhaustive(safety_body<Kind::shared_mutex, reader_ignores_writer_shared_mutex<Sim>>(kSafe),
                 p),
      "mutual_exclusion", "shared holder"));
  EXPECT_TRUE(
      clean(exhaustive(safety_body<Kind::shared_mutex, ticket_shared_mutex<Sim>>(kSafe), p)));
}

TEST(PlantedBugsExhaustive, SafetyFindsTheEventThatLosesASetMadeWhileSetAndProvesTheControl) {
  const auto p = params_of(Family::safety, {{"actors", 3}});
  EXPECT_TRUE(breached(exhaustive(safety_body<Kind::event, semaphore_flag_event<Sim>>(kSafe), p),
                       "deadlock", "waits in acquire"));
  EXPECT_TRUE(
      clean(exhaustive(safety_body<Kind::event, platform_auto_reset_event<Sim>>(kSafe), p)));
}

TEST(PlantedBugsExhaustive, ProgressFindsTheQueueThatProcessesAnItemTwiceAndProvesTheControl) {
  const auto p = params_of(Family::progress, {{"producers", 1}, {"items", 2}});
  EXPECT_TRUE(breached(exhaustive(work_queue_body<copy_not_take_queue<Sim>>(kSafe), p),
                       "no_lost_wakeups", "processed 2 times"));
  EXPECT_TRUE(clean(exhaustive(work_queue_body<locked_work_queue<Sim>>(kSafe), p)));
}

// ---------------------------------------------------------------------------------------------
// Weak memory: the exhaustive search under the C++ memory model finds each relaxed releasing
// operation as a data race on the family's checked cell, naming the relaxed operation; its
// release twin is proved at the same size, and so is the relaxed one under sequential
// consistency, which cannot see the bug.

constexpr auto kRelaxed = std::memory_order_relaxed;
constexpr auto kRelease = std::memory_order_release;

TEST(PlantedBugsWeakMemory, AMutexWhoseUnlockIsRelaxedRacesAndItsReleaseTwinIsProved) {
  const auto p = params_of(Family::safety, {{"actors", 2}, {"rounds", 2}});
  EXPECT_TRUE(breached(exhaustive(safety_body<Kind::mutex, exchange_mutex<Sim, kRelaxed>>(kSafe), p,
                                  MemoryModel::c11),
                       "data_race", "store (relaxed) at tests/backends_planted_bugs_test.cpp"));
  EXPECT_TRUE(clean(exhaustive(safety_body<Kind::mutex, exchange_mutex<Sim, kRelease>>(kSafe), p,
                               MemoryModel::c11)));
  EXPECT_TRUE(clean(exhaustive(safety_body<Kind::mutex, exchange_mutex<Sim, kRelaxed>>(kSafe), p)));
}

TEST(PlantedBugsWeakMemory, ASemaphoreWhoseReleaseIsRelaxedRacesAndItsReleaseTwinIsProved) {
  // One token: each holder writes the checked cell.
  const auto p = params_of(Family::safety, {{"actors", 2}, {"capacity", 1}, {"rounds", 1}});
  EXPECT_TRUE(
      breached(exhaustive(safety_body<Kind::semaphore, token_semaphore<Sim, kRelaxed>>(kSafe), p,
                          MemoryModel::c11),
               "data_race", "fetch_add (relaxed) at tests/backends_planted_bugs_test.cpp"));
  EXPECT_TRUE(clean(exhaustive(safety_body<Kind::semaphore, token_semaphore<Sim, kRelease>>(kSafe),
                               p, MemoryModel::c11)));
  EXPECT_TRUE(
      clean(exhaustive(safety_body<Kind::semaphore, token_semaphore<Sim, kRelaxed>>(kSafe), p)));
}

TEST(PlantedBugsWeakMemory, AnEventWhoseSetIsRelaxedRacesAndItsReleaseTwinIsProved) {
  // The setter publishes a value; each waiter reads it once its wait returns.
  const auto p = params_of(Family::safety, {{"actors", 2}});
  EXPECT_TRUE(breached(
      exhaustive(safety_body<Kind::event, flag_event<Sim, kRelaxed>>(kSafe), p, MemoryModel::c11),
      "data_race", "store (relaxed) at tests/backends_planted_bugs_test.cpp"));
  EXPECT_TRUE(clean(
      exhaustive(safety_body<Kind::event, flag_event<Sim, kRelease>>(kSafe), p, MemoryModel::c11)));
  EXPECT_TRUE(clean(exhaustive(safety_body<Kind::event, flag_event<Sim, kRelaxed>>(kSafe), p)));
}

// ---------------------------------------------------------------------------------------------
// The reduction against the plain search (issue 16): over the whole space of a planted bug's
// smallest program, the reduced search (DporStrategy) reaches exactly the violations and the
// final states that the plain one (ExhaustiveStrategy, reduction=none) reaches, in no more
// executions. schedules_dpor_test.cpp makes the same comparison on random small programs.
//
// Only three planted bugs have a plain search that ends within a unit test's time (1.0, 2.3 and
// 8.35 million executions, some 25 seconds in all). A family body spends 25 to 50 steps on three
// or four threads (spawns, joins, the actors' frames and finish counts, the harness's atomics)
// around the primitive's own, and the plain search interleaves every one of them. The other
// planted bugs, at the smallest parameters at which each shows, with the size of their plain
// search: its executions where it was run to its end (Release, 300,000 to 400,000 a second),
// else Knuth's estimate of them (the mean product of the branching factors along 50,000 random
// paths). None ends within 2,000,000 executions.
//   safety, check_then_set_mutex, actors 2, rounds 1: 23,183,093 (reduced: 1,200)
//   safety, off_by_one_semaphore, actors 2, capacity 1, rounds 1: 25,922,039 (reduced: 1,694)
//   safety, second_wait_returns_event, actors 2, hold_steps 0: ~1e10 (reduced: 3,617)
//   safety, set_releases_all_auto_reset_event, actors 2, hold_steps 0, max_steps 100: ~5e13
//   fairness, lifo_ticket_mutex, actors 3, acquisitions 1, hold_steps 0: ~3e18 claiming FIFO,
//     ~8e18 not (its bypasses only counted)
//   fairness, lifo_ticket_semaphore, actors 3, acquisitions 1, hold_steps 0: ~6e27
//   starvation, reader_preferring_shared_mutex, readers 1, stream_rounds 2, victim_rounds 1,
//     max_bypass 0, hold_steps 0: ~1e9 (reduced: 10,124)
//   starvation, lifo_ticket_mutex, others 2, stream_rounds 1, victim_rounds 1, max_bypass 0,
//     hold_steps 0: ~2e19
//   starvation, lifo_ticket_semaphore, the same: ~4e31
//   starvation at the step bound, lifo_ticket_mutex: its executions outlast the step bound, 100
//     steps at the least: ~2e43 at others 2, max_steps 100 (where any mutex reaches the bound)
//   spurious-wakeups, park_once_semaphore, actors 2, capacity 1, max_steps 100: ~3e9
//   progress, wake_from_zero_only_semaphore, actors 4, capacity 2, hold_steps 0: ~5e24
//   progress, copy_not_take_queue, producers 1, items 2: 6,989,466 (reduced: 165)
//   progress, placeholder_first_queue, producers 1, items 2: 63,413,142 (reduced: 497)
//   cancellation, cancel_leaves_handle_queued_mutex, waiters 1, hold_steps 0: ~3e12 (reduced:
//     8,482)
//   cancellation, cancel_drops_grant_mutex, waiters 1, hold_steps 0: ~2e13 (reduced: 19,365)
//   cancellation, posted_waiter_not_withdrawn_mutex, waiters 1, pool_workers 1, hold_steps 0:
//     ~4e16 (reduced: 41,251)
// The four run to their end reached the same violations and final states in both searches.
// Where no reduced count is given, the reduced search did not end within 300,000 executions.

/// More executions than any plain search below needs (8.35 million): one that needs more fails
/// as unfinished instead of running on.
constexpr std::uint64_t kWholeSpace = 10'000'000;

/// What a search reached over its whole space.
struct Reached {
  std::set<std::string> violations;    // violation_of each report
  std::set<std::string> final_states;  // final_state_of each execution that completed
  std::uint64_t executions = 0;        // pruned ones included: they ran, if not to their end
  bool complete = false;               // the search ran out of schedules
};

/// A report as every execution of its class gives it. A frame-misuse report names the step the
/// frame was destroyed after ("t2 destroyed after step 27"), a count of every thread's steps:
/// equivalent executions that take an independent step before the destruction or after it name
/// different steps (seen on the cancellation bugs above). The number is dropped.
std::string violation_of(const Reported& f) {
  std::string message = f.message;
  constexpr std::string_view kAfterStep = "after step ";
  if (const auto at = message.find(kAfterStep); at != std::string::npos) {
    const auto digits = at + kAfterStep.size();
    message.erase(digits, message.find_first_not_of("0123456789", digits) - digits);
  }
  return f.property + ": " + message;
}

/// The state an execution that completed with nothing reported leaves, as its Observations
/// hold it: per actor the acquisitions, the bypasses (in all and in one wait) and whether it is
/// a victim; the FIFO violations; the unclaimed breaks; the family's numbers. Each counts
/// events ordered by steps the reduction sees: the WaitBook and the harness's counters declare
/// their accesses (Sim::note_access), and each number is kept by one thread. Left out: the
/// actors' wait times. They are clock ticks, sim steps from arrival to acquisition, and count
/// the other threads' steps too, so equivalent executions that take an independent step inside
/// a wait or outside it differ (the reader past a held writer below: 103 distinct sets of waits
/// in the plain search, 8 in the reduced one, with every other field the same).
std::string final_state_of(const Observations& obs) {
  std::string state;
  for (const ActorStats& a : obs.actors) {
    state += "actor: " + std::to_string(a.acquisitions) + " acquisitions, bypassed " +
             std::to_string(a.bypassed) + " times (" + std::to_string(a.max_bypassed) +
             " in one wait)" + (a.victim ? ", a victim" : "") + "; ";
  }
  state += std::to_string(obs.fifo_violations) + " FIFO violations";
  for (const auto& [claim, count] : obs.unclaimed) {
    state += "; unclaimed " + claim + " x" + std::to_string(count);
  }
  for (const auto& [name, value] : obs.numbers) state += "; " + name + " " + std::to_string(value);
  return state;
}

/// The whole space of `body` at `p`, searched by an `Exhaustive` strategy that nothing stops.
template <class Exhaustive>
Reached reach_everything(const Body& body, const Params& p) {
  Exhaustive strategy;
  Reached out;
  const auto s = search(
      body, p, kWholeSpace,
      [&out](const Reported& f, const Observations& obs) {
        if (f.property.empty()) {
          out.final_states.insert(final_state_of(obs));
        } else {
          out.violations.insert(violation_of(f));
        }
        return false;
      },
      &strategy);
  out.executions = s.executions;
  out.complete = strategy.complete();
  return out;
}

bool any_contains(const std::set<std::string>& texts, std::string_view fragment) {
  return std::any_of(texts.begin(), texts.end(), [&](const std::string& text) {
    return text.find(fragment) != std::string::npos;
  });
}

/// Both searches over the whole space of `body` at `p` reach the same violations and final
/// states, the reduced one in no more executions; and `planted` (the breach, in a violation or
/// a final state) is among what they reach, so the program is big enough to hold the bug.
void expect_the_reduction_to_reach_what_the_plain_search_does(const Body& body, const Params& p,
                                                              std::string_view planted) {
#ifdef SYNCSTRESS_ASAN
  // Some forty times slower under ASan, the plain searches (1 to 8.35 million executions) would
  // take minutes each; the Release build runs them.
  GTEST_SKIP() << "the plain search takes minutes under ASan";
#endif
  const auto plain = reach_everything<ExhaustiveStrategy>(body, p);
  const auto reduced = reach_everything<DporStrategy>(body, p);
  ::testing::Test::RecordProperty("plain_executions", std::to_string(plain.executions));
  ::testing::Test::RecordProperty("reduced_executions", std::to_string(reduced.executions));
  ASSERT_TRUE(plain.complete) << "the plain search did not end in " << plain.executions;
  ASSERT_TRUE(reduced.complete) << "the reduced search did not end in " << reduced.executions;
  EXPECT_EQ(reduced.violations, plain.violations);
  EXPECT_EQ(reduced.final_states, plain.final_states);
  EXPECT_LE(reduced.executions, plain.executions);
  EXPECT_TRUE(any_contains(plain.violations, planted) || any_contains(plain.final_states, planted))
      << "the planted bug does not show at these parameters";
}

TEST(PlantedBugsReduction, ReachesWhatThePlainSearchReachesOnAReaderEnteringPastAHeldWriter) {
  // One writer and one reader, one round each; a hold step (hold_steps 1) is the least in which
  // the two can meet inside.
  const auto p = params_of(Family::safety, {{"actors", 2}, {"writers", 1}, {"rounds", 1}});
  expect_the_reduction_to_reach_what_the_plain_search_does(
      safety_body<Kind::shared_mutex, reader_ignores_writer_shared_mutex<Sim>>(kSafe), p,
      "a shared holder entered while an exclusive holder is inside");
}

TEST(PlantedBugsReduction, ReachesWhatThePlainSearchReachesOnAQueueThatDropsAnItem) {
  // Two items: the second must overwrite the first.
  const auto p = params_of(Family::progress, {{"producers", 1}, {"items", 2}});
  expect_the_reduction_to_reach_what_the_plain_search_does(
      work_queue_body<overwriting_slot_queue<Sim>>(kSafe), p, "waits in wait on auto_event");
}

TEST(PlantedBugsReduction, ReachesWhatThePlainSearchReachesOnAQueueThatClaimsNothing) {
  // Two items: the second, pushed over the first before the consumer empties the slot, is
  // delivered twice. Claimed by nobody, the duplicate is counted in a final state.
  const auto p = params_of(Family::progress, {{"producers", 1}, {"items", 2}});
  expect_the_reduction_to_reach_what_the_plain_search_does(
      work_queue_body<unemptied_slot_queue<Sim>>(0), p, "unclaimed no_lost_wakeups");
}

}  // namespace
}  // namespace backends_planted_bugs_test
}  // namespace scenarios
}  // namespace syncstress
