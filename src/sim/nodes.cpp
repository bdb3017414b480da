// Primitives' heap nodes inside an execution (Sim::node_allocate): a freed node is kept and
// handed out again, last freed first, per size, so whether a new node reuses a freed node's
// address is decided by the execution's own allocations and frees. Left to malloc, it depends
// on everything the process did before (the trace's strings are allocated in the same size
// classes as a work item), and a compare-exchange on a recycled pointer (ABA) succeeded in one
// run of a schedule and failed in the next.
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
}

}  // namespace syncstress::sim::detail
