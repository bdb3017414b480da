// A cell on real threads (stress mode): trials of the family's body on the `real` platform
// until the plan's trials or time budget are spent or a claimed property breaks. Each trial runs
// with seeded noise (platform/real_stress.hpp); the judgement is the family's own checks, as on
// sim, plus wall-clock bounds. A trial is not replayable step by step: a violation carries the
// trial's seed, what every thread was doing at the breach, and the sim command to try next.
#pragma once

#include <cstdint>

#include "scenarios/execution_watch.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/params.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/stress_strategy.hpp"

namespace syncstress::scenarios {

/// Runs `cell` under `stress` in this process, reporting each trial to `watch`.
CellResult run_stress_cell(const Cell& cell, const StressSearch& stress, const CellPlan& plan,
                           ExecutionWatch& watch);

/// The parameters a stress trial of `cell` runs with: the family's thread parameter set from
/// `threads` and its repeat counts multiplied by `stress.scale` (clamped to their ranges); a
/// parameter the user gave with --set keeps the user's value.
Params stress_params(const Cell& cell, const StressSearch& stress, std::uint64_t threads);

/// Whether `cell`'s family runs on real threads for its primitive (cancellation only for a
/// primitive that takes cancellation as a request: a raw destroy racing a resumption on real
/// threads would be the harness's use-after-free, not the primitive's).
bool runs_on_real(const Cell& cell);

/// The seed of trial `index` (from 0) of a stress cell seeded with `seed`.
std::uint64_t stress_trial_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace syncstress::scenarios
