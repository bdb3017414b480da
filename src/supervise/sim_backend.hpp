// The sim backend: a cell's executions on the deterministic runtime (scenarios/sim_cell.hpp),
// and a replay of one (scenarios/sim_replay.hpp), each in a supervised child process
// (isolated.hpp) so that a crash or a hang of the primitive is a finding.
#pragma once

#include "supervise/backend.hpp"

namespace syncstress::supervise {

class SimBackend final : public Backend {
 public:
  bool runs(const PrimitiveInfo& primitive, scenarios::Family family) const override;
  std::string_view platform() const override { return "sim"; }
  std::string_view catalogue() const override { return "syncstress list primitives"; }
  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override;
  ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                       const std::string& text) const override;
};

}  // namespace syncstress::supervise
