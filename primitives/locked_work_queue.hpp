// Control: a work queue with a P::mutex-guarded FIFO and an auto-reset event set on every
// push. Not from a source document; a known-good reference for the work_queue kind.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/detail/lock_guard.hpp"

namespace syncstress {

template <Platform P>
class locked_work_queue {
 public:
  locked_work_queue() = default;
  locked_work_queue(const locked_work_queue&) = delete;
  locked_work_queue& operator=(const locked_work_queue&) = delete;

  /// Queues `item` and signals the consumer. Any number of producers.
  void push(std::int64_t item) {
    {
      primitives_detail::lock_guard guard(mutex_);
      items_.with_mut([&](std::deque<std::int64_t>& items) { items.push_back(item); });
    }
    work_available_.set();
  }

  /// Waits for a signal, takes every queued item under the lock and processes them in FIFO
  /// order outside it. Single consumer only.
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    std::deque<std::int64_t> taken;
    {
      primitives_detail::lock_guard guard(mutex_);
      items_.with_mut([&](std::deque<std::int64_t>& items) { taken.swap(items); });
    }
    for (std::int64_t item : taken) process(item);
  }

 private:
  typename P::mutex mutex_;
  typename P::template cell<std::deque<std::int64_t>> items_;  // guarded by mutex_
  typename P::auto_reset_event work_available_{false};
};

}  // namespace syncstress
