// The Relacy backend: a cell, or the replay of one failing iteration, in the syncstress-relacy
// program (relacy_program.hpp), which is a child process already.
#pragma once

#include "supervise/backend.hpp"

namespace syncstress::supervise {

class RelacyBackend final : public Backend {
 public:
  /// What `syncstress-relacy list` says (the first call runs it).
  bool runs(const PrimitiveInfo& primitive, scenarios::Family family) const override;
  std::string_view platform() const override { return "Relacy"; }
  std::string_view catalogue() const override { return "syncstress-relacy list"; }
  /// A broken property the primitive does not claim makes the cell measured, as on sim.
  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override;
  ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                       const std::string& text) const override;
};

}  // namespace syncstress::supervise
