// A FIFO queue guarded by P::mutex, standing in for ConcRT's concurrent_queue in document
// 004. concurrent_queue is lock-free; this one is not, but it offers the same contract (push
// from any thread, try_pop that fails only when the queue is empty, FIFO), which is all the
// semaphore relies on. A lock makes each push/try_pop one atomic step, so on sim it adds
// scheduling points at the lock and no interleavings the contract does not allow. As a
// lock-free queue's does, a try_pop on an empty queue only reads: an atomic count of the
// items, so that polling it until an item comes (the semaphore's release) is a loop of reads,
// which sim's spin-loop reduction runs as one step.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>

#include "platform/platform.hpp"
#include "primitives/detail/lock_guard.hpp"

namespace syncstress::primitives_detail {

template <Platform P, class T>
class locked_queue {
 public:
  locked_queue() = default;
  locked_queue(const locked_queue&) = delete;
  locked_queue& operator=(const locked_queue&) = delete;

  /// concurrent_queue::push: appends `value` at the back.
  void push(T value, source_location loc = source_location::current()) {
    lock_guard guard(mutex_, loc);
    items_.with_mut([&](std::deque<T>& items) { items.push_back(value); });
    count_.fetch_add(1, std::memory_order_release, loc);
  }

  /// concurrent_queue::try_pop: takes the front into `out`; false when empty.
  bool try_pop(T& out, source_location loc = source_location::current()) {
    if (count_.load(std::memory_order_acquire, loc) == 0) return false;
    lock_guard guard(mutex_, loc);
    const bool popped = items_.with_mut([&](std::deque<T>& items) {
      if (items.empty()) return false;  // another try_pop took it since the count was read
      out = items.front();
      items.pop_front();
      return true;
    });
    if (popped) count_.fetch_sub(1, std::memory_order_relaxed, loc);
    return popped;
  }

 private:
  typename P::mutex mutex_;
  typename P::template cell<std::deque<T>> items_;     // guarded by mutex_
  typename P::template atomic<std::size_t> count_{0};  // items_.size(), written under mutex_
};

}  // namespace syncstress::primitives_detail
