// The runnable threads of an execution, ascending by id: what the Strategy picks from.
//
// A handful of ids, in storage sized for every thread of the execution (reserve), so adding one
// never allocates, and an id is bubbled into or out of place by swaps: lower_bound with
// vector::insert/erase cost more in their memmove calls than the few ids they move (and a
// shifting loop is turned back into memmove by the compiler).
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "schedules/strategy.hpp"

namespace syncstress::sim::detail {

class RunnableSet {
 public:
  /// Room for the ids below `threads`; before such an id is added.
  void reserve(std::size_t threads) {
    if (ids_.size() < threads) ids_.resize(threads);
  }
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  ThreadId operator[](std::size_t i) const { return ids_[i]; }
  // NOLINTNEXTLINE(google-explicit-constructor): handed to the Strategy as its span.
  operator std::span<const ThreadId>() const { return {ids_.data(), size_}; }

  /// Adds `id` (reserved for) unless present.
  void add(ThreadId id) {
    std::size_t i = size_;
    while (i > 0 && ids_[i - 1] > id) --i;
    if (i > 0 && ids_[i - 1] == id) return;
    ids_[size_] = id;
    for (std::size_t j = size_++; j > i; --j) std::swap(ids_[j], ids_[j - 1]);
  }
  /// Removes `id` if present.
  void remove(ThreadId id) {
    std::size_t i = 0;
    while (i < size_ && ids_[i] < id) ++i;
    if (i == size_ || ids_[i] != id) return;
    for (; i + 1 < size_; ++i) std::swap(ids_[i], ids_[i + 1]);
    --size_;
  }

 private:
  std::vector<ThreadId> ids_;  // [0, size_) the set; never shrinks
  std::size_t size_ = 0;
};

}  // namespace syncstress::sim::detail
