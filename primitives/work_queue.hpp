// Document 002: the many-producer, single-consumer work queue on a lock-free list, first woken
// by an auto-reset event (document 002 lines 15-57, `CreateEvent`), then by a counter with
// WaitOnAddress (document 002 lines 65-111, `WaitOnAddress`).
//
// Both as published. Replacements: SLIST_HEADER, InterlockedPushEntrySList,
// InterlockedFlushSList -> primitives_detail::intrusive_slist (P::atomic compare-exchange and
// exchange); CreateEvent(nullptr, FALSE, FALSE, nullptr) -> P::auto_reset_event(false);
// SetEvent / WaitForSingleObject(INFINITE) -> set / wait; LONG + InterlockedIncrement ->
// P::atomic<std::int32_t>::fetch_add (seq_cst, a full barrier like the Interlocked call);
// WaitOnAddress / WakeByAddressSingle -> P::wait_on_address / P::wake_by_address_single; the
// plain read (document 002 line 100, `PreviousAvailable = WorkAvailable`) -> an acquire load.
// Deviations, for the kind interface: the work item carries an int64 value; the consumer's
// endless loop becomes consume_once(process), ONE iteration of it, so the scenario decides
// when to stop; ConsumeWork's local PreviousAvailable becomes a consumer-only member; push
// allocates the item its caller allocated. And for determinism: the item's storage and its
// release (document 002 lines 51 and 105, `delete entry`) -> P::node_allocate /
// P::node_deallocate, so that on sim whether a pushed item reuses a processed one's address (and
// with it whether a producer's compare-exchange succeeds against a recycled head) depends on the
// schedule only.
// Items are processed in the order the flush returns them (newest first), as the document does.
#pragma once

#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

#include "platform/platform.hpp"
#include "primitives/detail/intrusive_slist.hpp"

namespace syncstress {

namespace primitives_detail {

static_assert(std::is_trivially_destructible_v<work_item>, "freed without running a destructor");

/// A new item (the documents' `new WorkItem`), its storage from the platform.
template <Platform P>
work_item* new_item(std::int64_t value) {
  return ::new (P::node_allocate(sizeof(work_item))) work_item{nullptr, value};
}

/// Frees an item (the documents' `delete`).
template <Platform P>
void delete_item(work_item* item) {
  P::node_deallocate(item, sizeof(work_item));
}

/// Processes and frees a flushed list in the order found (document 002 lines 48-53 and
/// 102-107, `ProcessWorkItem`).
template <Platform P, class F>
void process_and_free(work_item* entry, F& process) {
  while (entry) {
    process(entry->value);
    work_item* next_entry = entry->next;
    delete_item<P>(entry);
    entry = next_entry;
  }
}

/// Frees whatever is still queued when a work queue is destroyed.
template <Platform P>
void free_all(work_item* entry) {
  while (entry) delete_item<P>(std::exchange(entry, entry->next));
}

}  // namespace primitives_detail

/// Document 002, first form: producers set an auto-reset event when they push onto an empty
/// list; the consumer waits on the event, then flushes and processes everything.
template <Platform P>
class work_queue_auto_reset_event {
 public:
  work_queue_auto_reset_event() = default;
  work_queue_auto_reset_event(const work_queue_auto_reset_event&) = delete;
  work_queue_auto_reset_event& operator=(const work_queue_auto_reset_event&) = delete;
  ~work_queue_auto_reset_event() { primitives_detail::free_all<P>(work_queue_.flush()); }

  /// RequestWork: queues `item`; signals the consumer only if the list was empty.
  /// Any number of producer threads.
  void push(std::int64_t item) {
    auto* work = primitives_detail::new_item<P>(item);
    if (work_queue_.push(work)) {
      work_available_.set();
    }
  }

  /// One iteration of ConsumeWork's loop: wait for the event, flush, process each item.
  /// Single consumer only.
  template <class F>
  void consume_once(F&& process) {
    work_available_.wait();
    primitives_detail::process_and_free<P>(work_queue_.flush(), process);
  }

 private:
  primitives_detail::intrusive_slist<P> work_queue_;
  typename P::auto_reset_event work_available_{false};  // "auto-reset, initially unset"
};

/// Document 002, second form: producers bump a counter and wake the consumer when they push
/// onto an empty list; the consumer waits for the counter to differ from the value it saw,
/// captures the new value, then flushes and processes (wait, capture, flush: as published).
template <Platform P>
class work_queue_wait_on_address {
 public:
  work_queue_wait_on_address() = default;
  work_queue_wait_on_address(const work_queue_wait_on_address&) = delete;
  work_queue_wait_on_address& operator=(const work_queue_wait_on_address&) = delete;
  ~work_queue_wait_on_address() { primitives_detail::free_all<P>(work_queue_.flush()); }

  /// RequestWork: queues `item`; on an empty list bumps the counter and wakes the consumer.
  void push(std::int64_t item) {
    auto* work = primitives_detail::new_item<P>(item);
    if (work_queue_.push(work)) {
      work_available_.fetch_add(1, std::memory_order_seq_cst);  // InterlockedIncrement
      P::wake_by_address_single(work_available_);
    }
  }

  /// One iteration of ConsumeWork's loop. The wait may return spuriously (WaitOnAddress
  /// does); the iteration then finds no work, as the document says. Single consumer only.
  template <class F>
  void consume_once(F&& process) {
    P::wait_on_address(work_available_, previous_available_);
    // acquire: pairs with the producer's seq_cst increment, which follows its push.
    previous_available_ = work_available_.load(std::memory_order_acquire);
    primitives_detail::process_and_free<P>(work_queue_.flush(), process);
  }

 private:
  primitives_detail::intrusive_slist<P> work_queue_;
  // work_available_: how many times a producer found the list empty (0: never). Only changes
  // by +1. previous_available_: the consumer's last captured value (consumer-only).
  typename P::template atomic<std::int32_t> work_available_{0};
  std::int32_t previous_available_ = 0;
};

}  // namespace syncstress
