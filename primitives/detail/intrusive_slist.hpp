// The lock-free intrusive singly linked list behind document 002's work queues: the part of
// Win32's SLIST that the document uses (InterlockedPushEntrySList returning the previous head,
// InterlockedFlushSList), on P::atomic.
//
// Push-only plus flush-all has no ABA problem: a node is never popped alone, so a producer's
// compare-exchange succeeding against a recycled head still links the node correctly.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace syncstress::primitives_detail {

/// One queued work item (document 002's WorkItem : SLIST_ENTRY). `next` is plain data: written
/// by its producer before the publishing exchange, read by the consumer after the flush.
struct work_item {
  work_item* next;
  std::int64_t value;
};

/// A Treiber stack with push and flush-all.
template <Platform P>
class intrusive_slist {
 public:
  intrusive_slist() = default;
  intrusive_slist(const intrusive_slist&) = delete;
  intrusive_slist& operator=(const intrusive_slist&) = delete;

  /// InterlockedPushEntrySList: links `item` as the new head. Returns true when the list was
  /// empty (the Win32 call returned nullptr as the previous head).
  bool push(work_item* item, source_location loc = source_location::current()) {
    // relaxed: a guess only; the exchange below validates it.
    work_item* head = head_.load(std::memory_order_relaxed, loc);
    do {
      item->next = head;
      // seq_cst: the Interlocked* calls are full barriers; at least release, pairing with
      // flush's acquire so the consumer sees item->next and the item's value.
    } while (!head_.compare_exchange_weak(head, item, std::memory_order_seq_cst,
                                          std::memory_order_relaxed, loc));
    return head == nullptr;
  }

  /// InterlockedFlushSList: takes the whole list, newest first (LIFO), leaving it empty.
  work_item* flush(source_location loc = source_location::current()) {
    return head_.exchange(nullptr, std::memory_order_seq_cst, loc);  // a full barrier, as Win32
  }

 private:
  // head_: nullptr (empty) or the newest item. Transitions: push h -> item (item->next = h);
  // flush any -> nullptr.
  typename P::template atomic<work_item*> head_{nullptr};
};

}  // namespace syncstress::primitives_detail
