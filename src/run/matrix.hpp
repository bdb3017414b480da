// The run: every (preset, primitive) cell resolved before any runs, so bad input fails before
// work starts; then each cell through the backend its strategy chose.
#pragma once

#include "run/run_config.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/preset.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress::supervise {

/// The preset's own strategy, for a run without --schedule. Throws UsageError for one that is
/// not valid.
StrategySpec strategy_of(const scenarios::Preset& preset);

/// Runs every (preset, primitive) cell of `config`. Throws UsageError for what only the cells
/// can judge: an unknown --set key or a bad value, a named primitive that does not fit a preset
/// or does not run on the strategy's backend, a preset whose own schedule is not valid.
RunOutcome run_matrix(const RunConfig& config);

}  // namespace syncstress::supervise
