// Freed storage kept by size for reuse, last freed first (the engine's primitive nodes and task
// frames, nodes.cpp). Under ASan kept storage is poisoned, so a use of it while it is kept is
// reported as a use after free would be.
#pragma once

#include <algorithm>
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

#ifdef SYNCSTRESS_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace syncstress::sim::detail {

class FreeList {
 public:
  FreeList() = default;
  FreeList(const FreeList&) = delete;
  FreeList& operator=(const FreeList&) = delete;
  ~FreeList() { release(); }

  /// The storage of `n` bytes kept last, else fresh storage from the global allocator.
  void* take(std::size_t n) {
    for (auto& [size, kept] : by_size_) {
      if (size != n || kept.empty()) continue;
      void* p = kept.back();
      kept.pop_back();
#ifdef SYNCSTRESS_ASAN
      ASAN_UNPOISON_MEMORY_REGION(p, n);
#endif
      return p;
    }
    return ::operator new(n);
  }
  /// Keeps `p`, of `n` bytes, for a later take(n).
  void keep(void* p, std::size_t n) {
    auto it = std::find_if(by_size_.begin(), by_size_.end(),
                           [n](const auto& kept) { return kept.first == n; });
    if (it == by_size_.end()) it = by_size_.insert(by_size_.end(), {n, {}});
    it->second.push_back(p);
#ifdef SYNCSTRESS_ASAN
    ASAN_POISON_MEMORY_REGION(p, n);
#endif
  }
  /// Gives everything kept back to the global allocator.
  void release() {
    for (auto& [size, kept] : by_size_) {
      for (void* p : kept) {
#ifdef SYNCSTRESS_ASAN
        ASAN_UNPOISON_MEMORY_REGION(p, size);
#endif
        ::operator delete(p, size);
      }
      kept.clear();
    }
  }

 private:
  // Few sizes per program: searched in order.
  std::vector<std::pair<std::size_t, std::vector<void*>>> by_size_;
};

}  // namespace syncstress::sim::detail
