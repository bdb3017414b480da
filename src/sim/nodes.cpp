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
#include <cstddef>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

void* Engine::node_allocate(std::size_t n) { return free_nodes_.take(n); }

void Engine::node_deallocate(void* p, std::size_t n) {
  // A use after free of a kept node is still reported (FreeList poisons it under ASan).
  if (p != nullptr) free_nodes_.keep(p, n);
}

void* Engine::frame_allocate(std::size_t n) { return spare_frames_.take(n); }

void Engine::release_nodes() {
  free_nodes_.release();
  // A frame used after its execution ended is still reported, as it would be after delete.
  for (const FreedFrame& f : quarantine_) spare_frames_.keep(f.storage, f.size);
  quarantine_.clear();
}

}  // namespace syncstress::sim::detail
