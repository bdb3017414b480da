// The replay of one sim execution from its schedule, with its trace: `syncstress replay`.
#pragma once

#include <string>

#include "scenarios/execution_watch.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/schedule.hpp"

namespace syncstress::scenarios {

/// Re-runs the execution `schedule` (printed as `text`) of `cell` in this process, its trace
/// on. Throws UsageError when the schedule does not fit the cell (it diverges).
ReplayOutcome replay_sim_execution(const Cell& cell, const Schedule& schedule,
                                   const std::string& text, ExecutionWatch& watch);

}  // namespace syncstress::scenarios
