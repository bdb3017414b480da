// Document 004: the cooperative semaphore of the ConcRT "How to: Use the Context Class"
// article (document 004 lines 92-140, `class semaphore`) and its scoped_lock (document 004
// lines 193-210, `class scoped_lock`), as published.
//
// Replacements: atomic<long long> -> P::atomic<std::int64_t>; the decrement (document 004
// line 106, `--_semaphore_count < 0`) -> fetch_sub(1) - 1 < 0 and the increment (document 004
// line 117, `++_semaphore_count <= 0`) -> fetch_add(1) + 1 <= 0, both seq_cst like the
// operators; concurrent_queue<Context*> -> locked_queue of P::parker* (see
// primitives/detail/locked_queue.hpp: P::mutex-guarded, same contract);
// Context::CurrentContext() -> P::current_parker(); Context::Block() -> park() on the current
// parker; Context::Unblock() -> unpark() (both keep the permit semantics the article relies
// on: an Unblock before the Block is not lost); Context::Yield() -> P::yield().
// Deviation: the capacity type is std::int64_t (long long).
#pragma once

#include <cstdint>

#include "platform/platform.hpp"
#include "primitives/detail/locked_queue.hpp"

namespace syncstress {

/// A counting semaphore that blocks cooperatively: at most `capacity` holders at once.
template <Platform P>
class cooperative_semaphore {
 public:
  /// Allows `capacity` concurrent holders.
  explicit cooperative_semaphore(std::int64_t capacity) : semaphore_count_(capacity) {}
  cooperative_semaphore(const cooperative_semaphore&) = delete;
  cooperative_semaphore& operator=(const cooperative_semaphore&) = delete;

  /// Takes a slot, blocking (park) when none is free.
  void acquire() {
    // The capacity is exceeded when the count falls below zero: queue this thread's parker
    // and block. seq_cst, as the document's atomic operator--.
    if (semaphore_count_.fetch_sub(1, std::memory_order_seq_cst) - 1 < 0) {
      typename P::parker& self = P::current_parker();
      waiting_contexts_.push(&self);
      self.park();
    }
  }

  /// Returns a slot; if someone waits, unblocks the oldest queued waiter, first spinning
  /// (with yield) until a waiter that already decremented the count has queued itself.
  void release() {
    if (semaphore_count_.fetch_add(1, std::memory_order_seq_cst) + 1 <= 0) {
      typename P::parker* waiting = nullptr;
      while (!waiting_contexts_.try_pop(waiting)) {
        P::yield();
      }
      waiting->unpark();
    }
  }

  /// The article's exception-safe RAII wrapper: acquires in the constructor, releases in the
  /// destructor.
  class scoped_lock {
   public:
    explicit scoped_lock(cooperative_semaphore& s) : s_(s) { s_.acquire(); }
    ~scoped_lock() { s_.release(); }
    scoped_lock(const scoped_lock&) = delete;
    scoped_lock& operator=(const scoped_lock&) = delete;

   private:
    cooperative_semaphore& s_;
  };

 private:
  // semaphore_count_: free slots when >= 0; -n when n acquirers are blocked or about to
  // block. Transitions: acquire -1, release +1.
  typename P::template atomic<std::int64_t> semaphore_count_;
  // Parkers of acquirers that found the count negative, in queueing order.
  primitives_detail::locked_queue<P, typename P::parker*> waiting_contexts_;
};

}  // namespace syncstress
