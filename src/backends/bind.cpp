#include "backends/bind.hpp"

#include <utility>

#include "scenarios/runtime_options.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {

std::optional<Body> ExtraBinders::bind(Family family, std::string_view primitive,
                                       std::uint32_t claims) const {
  for (const ExtraBinder binder : binders_) {
    if (auto body = binder(family, primitive, claims)) return body;
  }
  return std::nullopt;
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
