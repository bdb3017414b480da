// A cell: one (preset, primitive) pair bound to code. The scenario family's body, instantiated
// for the primitive's template on Sim, with the parameters resolved.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "primitives/catalog.hpp"
#include "scenarios/harness.hpp"
#include "scenarios/params.hpp"
#include "scenarios/preset.hpp"

namespace syncstress::scenarios {

/// One execution's body: runs as the simulated main thread and fills the observations.
using Body = std::function<void(Observations&, const Params&)>;

/// The family's own parameters (without the runtime's).
std::vector<ParamSpec> family_param_specs(Family family);

/// The claim a family is about: when the primitive does not make it, the cell is measured.
Claim headline_claim(Family family);

/// Whether `family` applies to primitives of `kind` and `mode`.
bool applies(Family family, Kind kind, Mode mode);

/// The body of `family` for the primitive named `primitive` (which must apply), or nullopt if
/// no such primitive exists. Defined in scenarios/bind.cpp, which expands the catalogue.
std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims);

}  // namespace syncstress::scenarios
