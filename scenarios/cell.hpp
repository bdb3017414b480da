// A cell: one (preset, primitive) pair bound to code. The scenario family's body, instantiated
// for the primitive's template on Sim, with the parameters resolved.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "scenarios/bind_body.hpp"
#include "scenarios/family.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"
#include "scenarios/preset.hpp"

namespace syncstress::scenarios {

/// The sim body of `family` for the primitive named `primitive` (which must apply), or nullopt
/// if no such primitive exists. Defined in scenarios/bind.cpp, which expands the catalogue.
std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims);

}  // namespace syncstress::scenarios
