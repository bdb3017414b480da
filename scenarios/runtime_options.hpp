// A sim cell's parameters: the family's and the runtime's, and the runtime options they ask
// for (max_steps, spurious_wakeups, ...).
#pragma once

#include <vector>

#include "scenarios/family.hpp"
#include "scenarios/params.hpp"
#include "sim/runtime.hpp"

namespace syncstress::scenarios {

/// The options of `p`, with the trace recorded when `trace` is set.
sim::Options runtime_options(const Params& p, bool trace);

/// What a sim cell of `family` takes: the family's parameters and the runtime's.
std::vector<ParamSpec> sim_param_specs(Family family);

}  // namespace syncstress::scenarios
