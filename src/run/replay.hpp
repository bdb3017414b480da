// `syncstress replay`: one recorded execution re-run, with its trace, on the backend its
// schedule string belongs to.
#pragma once

#include "run/run_config.hpp"
#include "scenarios/outcome.hpp"

namespace syncstress::supervise {

/// Re-runs the execution of `config`. Throws UsageError for --set values the preset does not
/// take, a primitive the schedule's backend does not run, or a schedule that does not fit the
/// scenario (it diverges).
ReplayOutcome replay(const ReplayConfig& config);

}  // namespace syncstress::supervise
