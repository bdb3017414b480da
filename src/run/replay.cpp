#include "run/replay.hpp"

#include "backends/backend.hpp"
#include "backends/bind.hpp"
#include "scenarios/resolved_cell.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {

ReplayOutcome replay(const ReplayConfig& config) {
  const auto cell = scenarios::make_cell(config.preset, *config.primitive, config.overrides);
  const Backend& backend = backend_for(config.recorded);
  if (!backend.runs(*config.primitive, config.preset.family)) {
    throw UsageError(concat("--primitive ", config.primitive->name, " does not run on ",
                            backend.platform(), " (", to_string(config.preset.family), ")"));
  }
  return backend.replay(cell, config.recorded, config.schedule);
}

}  // namespace syncstress::supervise
