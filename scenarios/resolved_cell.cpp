#include "scenarios/resolved_cell.hpp"

#include <utility>

#include "scenarios/cell.hpp"
#include "scenarios/replay_command.hpp"
#include "scenarios/runtime_options.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {

std::string Cell::replay_command(std::string_view schedule) const {
  return scenarios::replay_command(preset, primitive->name, overrides, schedule);
}

CellResult Cell::identity() const {
  CellResult out;
  out.primitive = std::string(primitive->name);
  out.scenario = preset.name;
  out.parameters = params.as_strings();
  return out;
}

OfferedFaults offered_faults(const Cell& cell) {
  const Family f = cell.preset.family;
  const bool offered = f == Family::safety || f == Family::fairness || f == Family::progress;
  return {offered && cell.primitive != nullptr &&
              (cell.primitive->claims & kSpuriousWakeupTolerance) != 0,
          offered};
}

bool Cell::claims_headline() const {
  return (primitive->claims & headline_claim(preset.family)) != 0;
}

Cell make_cell(const Preset& preset, const PrimitiveInfo& primitive,
               const std::map<std::string, std::string>& overrides) {
  Cell c;
  c.preset = preset;
  c.primitive = &primitive;
  c.overrides = overrides;
  c.params = Params::resolve(sim_param_specs(preset.family), preset.parameters, overrides,
                             preset.file.string());
  auto body = bind(preset.family, primitive.name, primitive.claims);
  if (!body) {
    throw UsageError(concat("scenario '", preset.name, "' (", to_string(preset.family), ", ",
                            to_string(preset.kind), ") does not apply to primitive '",
                            primitive.name, "' (", to_string(primitive.kind), ", ",
                            to_string(primitive.mode), ")"));
  }
  c.body = std::move(*body);
  return c;
}

}  // namespace syncstress::scenarios
