// A cell on the sim runtime: executions until the plan's budget is spent, the strategy has
// nothing left to try, or a claimed property breaks; then the verdict, the metrics, and for a
// failure a counterexample that has been replayed twice, with traces compared byte for byte,
// before it is reported. A property broken but not claimed makes the cell measured.
#pragma once

#include "scenarios/execution_watch.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress::scenarios {

/// Runs `cell` under `strategy` in this process, reporting each execution to `watch`.
CellResult run_sim_cell(const Cell& cell, const SimStrategySpec& strategy, const CellPlan& plan,
                        ExecutionWatch& watch);

}  // namespace syncstress::scenarios
