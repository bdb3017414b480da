// The runnable threads of an execution, ascending by id: what the Strategy picks from.
//
// A handful of ids, in storage sized for every thread of the execution (reserve), so adding one
// never allocates. add and remove run without a data-dependent branch: which thread blocks or
// wakes is the strategy's random pick, and a search loop's exit mispredicted on most calls (it
// was the largest cost of a blocking step after the fiber switch).
#pragma once

#include <cstddef>
#include <span>
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
    std::size_t below = 0;
    bool present = false;
    for (std::size_t r = 0; r < size_; ++r) {
      below += static_cast<std::size_t>(ids_[r] < id);
      present |= ids_[r] == id;
    }
    if (present) return;
    // Each id above `id` moves one place up (the others are rewritten where they are).
    for (std::size_t r = size_; r-- > 0;) {
      const ThreadId v = ids_[r];
      ids_[r + static_cast<std::size_t>(v > id)] = v;
    }
    ids_[below] = id;
    ++size_;
  }
  /// Removes `id` if present.
  void remove(ThreadId id) {
    std::size_t kept = 0;
    for (std::size_t r = 0; r < size_; ++r) {
      const ThreadId v = ids_[r];
      ids_[kept] = v;
      kept += static_cast<std::size_t>(v != id);
    }
    size_ = kept;
  }

 private:
  std::vector<ThreadId> ids_;  // [0, size_) the set; never shrinks
  std::size_t size_ = 0;
};

}  // namespace syncstress::sim::detail
