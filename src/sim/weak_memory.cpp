// The engine's side of the C++ memory model (memory.hpp): fences and the race check on cells.
// The atomics' side is inline in engine.hpp, called from src/platform/sim.hpp.
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

void Engine::thread_fence(std::memory_order mo, const source_location& loc) {
  if (!c11() || mo == std::memory_order_relaxed) return;
  memory_.fence(current_->id, mo);
  memory_.note_op(current_->id, AtomicOp{"fence", mo, loc.file_name(), loc.line()});
  if (mo != std::memory_order_seq_cst) return;  // it orders what its own thread does only
  // The seq_cst fences' order is a choice: each reads and writes what they share.
  before(&sc_fences_, loc, true);
  if (observe_) touch(&sc_fences_, true);
  step(Kind::none, &sc_fences_, "fence", "seq_cst", loc);
}

namespace {

/// An operation of the scenario harness (its files), not of the primitive under test.
bool in_harness(const AtomicOp& op) {
  const std::string_view file = short_file(op.file);
  return file.starts_with("scenarios/") || file.starts_with("src/platform/") ||
         file.starts_with("platform/");
}

std::string_view order_name(std::memory_order mo) {
  switch (mo) {
    case std::memory_order_relaxed:
      return "relaxed";
    case std::memory_order_consume:
      return "consume";
    case std::memory_order_acquire:
      return "acquire";
    case std::memory_order_release:
      return "release";
    case std::memory_order_acq_rel:
      return "acq_rel";
    case std::memory_order_seq_cst:
      return "seq_cst";
  }
  return "?";
}

std::string describe(const AtomicOp& op, ThreadId thread) {
  return std::string(op.what) + " (" + std::string(order_name(op.mo)) + ") at " +
         std::string(short_file(op.file)) + ":" + std::to_string(op.line) + " on thread " +
         std::to_string(thread);
}

}  // namespace

void Engine::cell_access(const void* obj, bool write, const source_location& loc) {
  const CellAccess* earlier = memory_.cell_access(current_->id, obj, write, loc);
  if (earlier == nullptr) return;
  const ThreadId self = current_->id;
  const std::string here = std::string(short_file(loc.file_name())) + ":" +
                           std::to_string(loc.line()) + " on thread " + std::to_string(self);
  const std::string there = std::string(short_file(earlier->file)) + ":" +
                            std::to_string(earlier->line) + " on thread " +
                            std::to_string(earlier->thread);
  // Where the release and the acquire should have been: the primitive's first operation of
  // the earlier thread after its access, and its last of this thread before this one. Named
  // first: they are what to fix.
  const std::vector<AtomicOp>& before = memory_.ops(earlier->thread);
  const AtomicOp* release = nullptr;
  for (std::size_t i = earlier->ops; i < before.size() && release == nullptr; ++i) {
    if (!in_harness(before[i])) release = &before[i];
  }
  const std::vector<AtomicOp>& mine = memory_.ops(self);
  const AtomicOp* acquire = nullptr;
  for (auto it = mine.rbegin(); it != mine.rend() && acquire == nullptr; ++it) {
    if (!in_harness(*it)) acquire = &*it;
  }
  std::string message;
  if (release != nullptr && acquire != nullptr) {
    message = "the primitive's " + describe(*release, earlier->thread) + " and " +
              describe(*acquire, self) + " order nothing between a cell's access at " + there +
              " and its " + (write ? "write" : "read") + " at " + here +
              ": neither access happens before the other (C++ memory model)";
  } else {
    message = std::string("a cell ") + (write ? "written" : "read") + " at " + here +
              " and accessed at " + there +
              ", neither access happening before the other (C++ memory model)";
  }
  violation(Outcome::violation, "data_race", std::move(message), &loc);
}

void Engine::announce_read(const void* obj, std::uint64_t n, const std::uint64_t* expected) {
  model_note_ = {obj, 0, memory_.free()};
  if (!model_note_.free_read) return;
  announced_.clear();
  announced_writes_.clear();
  for (std::uint64_t k = 0; k < n; ++k) {
    const ReadFrom candidate = memory_.candidate(k);
    announced_.push_back(candidate.step);
    if (expected != nullptr) announced_writes_.push_back(candidate.bits == *expected ? 1 : 0);
  }
  observer_->reading(announced_, announced_writes_);
}

}  // namespace syncstress::sim::detail
