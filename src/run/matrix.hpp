// The run: every (preset, primitive) cell resolved before any runs, so bad input fails before
// work starts; then each cell through the backend its strategy chose.
#pragma once

#include <optional>
#include <vector>

#include "run/run_config.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/preset.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress::supervise {

/// The schedule the cells of `preset` run under: `given` (--schedule), else the preset's own
/// (its "schedule"); a sim schedule that names no memory model takes the preset's "memory".
/// Throws UsageError for a preset's own that is not valid.
StrategySpec strategy_for(const scenarios::Preset& preset,
                          const std::optional<StrategySpec>& given = std::nullopt);

/// The presets `config` runs, each as it runs it, in order: each of config.presets (under a
/// --schedule of its cross check's platform, with the cross check's seed and budgets), and
/// after it, under --all with no --schedule, its cross check.
std::vector<scenarios::Preset> preset_runs(const RunConfig& config);

/// Runs every (preset, primitive) cell of `config`. Throws UsageError for what only the cells
/// can judge: an unknown --set key or a bad value, a named primitive that does not fit a preset
/// or does not run on the strategy's backend, a preset whose own schedule is not valid.
RunOutcome run_matrix(const RunConfig& config);

}  // namespace syncstress::supervise
