// Primitives' heap nodes inside an execution (Sim::node_allocate): a freed node is kept and
// handed out again, last freed first, per size, so whether a new node reuses a freed node's
// address is decided by the execution's own allocations and frees. Left to malloc, it depends
// on everything the process did before (the trace's strings are allocated in the same size
// classes as a work item), and a compare-exchange on a recycled pointer (ABA) succeeded in one
// run of a schedule and failed in the next.
//
// Task frames (Sim::frame_allocate) freed in an execution stay quarantined until it ends, then
// become spare storage that later executions' frames of the same size take, so that an
// execution's frames do not each cost a call to the global allocator.
#include <algorithm>
#include <cstddef>
#include <new>

#include "sim/engine.hpp"

#ifdef SYNCSTRESS_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace syncstress::sim::detail {

void* Engine::node_allocate(std::size_t n) {
  if (auto it = free_nodes_.find(n); it != free_nodes_.end() && !it->second.empty()) {
    void* p = it->second.back();
    it->second.pop_back();
#ifdef SYNCSTRESS_ASAN
    ASAN_UNPOISON_MEMORY_REGION(p, n);
#endif
    return p;
  }
  return ::operator new(n);
}

void Engine::node_deallocate(void* p, std::size_t n) {
  if (p == nullptr) return;
  free_nodes_[n].push_back(p);
#ifdef SYNCSTRESS_ASAN
  // A use after free of a kept node is still reported, as it would be after delete.
  ASAN_POISON_MEMORY_REGION(p, n);
#endif
}

void* Engine::frame_allocate(std::size_t n) {
  for (auto& [size, spare] : spare_frames_) {
    if (size != n || spare.empty()) continue;
    void* p = spare.back();
    spare.pop_back();
#ifdef SYNCSTRESS_ASAN
    ASAN_UNPOISON_MEMORY_REGION(p, n);
#endif
    return p;
  }
  return ::operator new(n);
}

void Engine::release_frames() {
  for (auto& [size, spare] : spare_frames_) {
    for (void* p : spare) {
#ifdef SYNCSTRESS_ASAN
      ASAN_UNPOISON_MEMORY_REGION(p, size);
#endif
      ::operator delete(p, size);
    }
  }
  spare_frames_.clear();
}

void Engine::release_nodes() {
  for (auto& [size, nodes] : free_nodes_) {
    for (void* p : nodes) {
#ifdef SYNCSTRESS_ASAN
      ASAN_UNPOISON_MEMORY_REGION(p, size);
#endif
      ::operator delete(p, size);
    }
    nodes.clear();
  }
  for (const FreedFrame& f : quarantine_) {
    auto it = std::find_if(spare_frames_.begin(), spare_frames_.end(),
                           [&](const auto& kept) { return kept.first == f.size; });
    if (it == spare_frames_.end()) it = spare_frames_.insert(spare_frames_.end(), {f.size, {}});
    it->second.push_back(f.storage);
#ifdef SYNCSTRESS_ASAN
    // A frame used after its execution ended is still reported, as it would be after delete.
    ASAN_POISON_MEMORY_REGION(f.storage, f.size);
#endif
  }
  quarantine_.clear();
}

}  // namespace syncstress::sim::detail
