// Stands in for the scenario runner until scenarios/ defines run_matrix and replay.
// Delete this file in the commit that adds them (the linker would see two definitions).
#include "runner.hpp"

namespace syncstress {

RunOutcome run_matrix(const RunConfig& config) {
  throw UsageError("scenario '" + (config.scenarios.empty() ? "" : config.scenarios.front()) +
                   "' is not available yet: the scenario runner has not landed");
}

ReplayOutcome replay(const ReplayConfig& config) {
  throw UsageError("cannot replay on scenario '" + config.scenario +
                   "' yet: the scenario runner has not landed");
}

}  // namespace syncstress
