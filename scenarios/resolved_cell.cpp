#include "scenarios/resolved_cell.hpp"

#include <utility>

#include "scenarios/replay_command.hpp"
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
  // A tool's own family runs as safety does: faults only for a primitive that tolerates them.
  const bool offered =
      f == Family::safety || f == Family::fairness || f == Family::progress || is_tool_family(f);
  return {offered && cell.primitive != nullptr &&
              (cell.primitive->claims & kSpuriousWakeupTolerance) != 0,
          offered};
}

bool Cell::claims_headline() const {
  return (primitive->claims & headline_claim(preset.family)) != 0;
}

}  // namespace syncstress::scenarios
