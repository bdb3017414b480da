// A FIFO queue guarded by P::mutex, standing in for ConcRT's concurrent_queue in document
// 004. concurrent_queue is lock-free; this one is not, but it offers the same contract (push
// from any thread, try_pop that fails only when the queue is empty, FIFO), which is all the
// semaphore relies on. A lock makes each push/try_pop one atomic step, so on sim it adds
// scheduling points at the lock and no interleavings the contract does not allow.
#pragma once

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
  }

  /// concurrent_queue::try_pop: takes the front into `out`; false when empty.
  bool try_pop(T& out, source_location loc = source_location::current()) {
    lock_guard guard(mutex_, loc);
    return items_.with_mut([&](std::deque<T>& items) {
      if (items.empty()) return false;
      out = items.front();
      items.pop_front();
      return true;
    });
  }

 private:
  typename P::mutex mutex_;
  typename P::template cell<std::deque<T>> items_;  // guarded by mutex_
};

}  // namespace syncstress::primitives_detail
