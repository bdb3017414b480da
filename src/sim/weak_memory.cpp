// The engine's side of the C++ memory model (memory.hpp): fences and the race check on cells.
// The atomics' side is inline in engine.hpp, called from src/platform/sim.hpp.
#include <string>

#include "sim/engine.hpp"

namespace syncstress::sim::detail {

void Engine::thread_fence(std::memory_order mo, const source_location& loc) {
  if (!c11() || mo == std::memory_order_relaxed) return;
  memory_.fence(current_->id, mo);
  if (mo != std::memory_order_seq_cst) return;  // it orders what its own thread does only
  // The seq_cst fences' order is a choice: each reads and writes what they share.
  before(&sc_fences_, loc, true);
  if (observe_) touch(&sc_fences_, true);
  step(Kind::none, &sc_fences_, "fence", "seq_cst", loc);
}

void Engine::cell_access(const void* obj, bool write, const source_location& loc) {
  const CellAccess* earlier = memory_.cell_access(current_->id, obj, write, loc);
  if (earlier == nullptr) return;
  std::string message = "data race: a cell ";
  message += write ? "written" : "read";
  message += " at " + std::string(short_file(loc.file_name())) + ":" + std::to_string(loc.line()) +
             " on thread " + std::to_string(current_->id) + " and accessed at " +
             std::string(short_file(earlier->file)) + ":" + std::to_string(earlier->line) +
             " on thread " + std::to_string(earlier->thread) +
             ", neither access happening before the other (C++ memory model)";
  violation(Outcome::violation, "data_race", std::move(message), &loc);
}

}  // namespace syncstress::sim::detail
