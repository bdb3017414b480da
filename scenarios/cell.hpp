// A cell: one (preset, primitive) pair bound to code. The scenario family's body, instantiated
// for the primitive's template on Sim (or on Real, for stress mode), with the parameters
// resolved.
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

/// What bind asks about a primitive that is not in the catalogue's list: the binder of a tool
/// built with syncstress_add_tool (scenarios/extra/register_sim.cpp), nullopt if not its own.
using ExtraBinder = std::optional<Body> (*)(Family family, std::string_view primitive,
                                            std::uint32_t claims);
/// Adds `binder` to those bind asks; from a static initializer, before main. Returns true.
bool register_extra_binder(ExtraBinder binder);

/// The same body on the real platform (OS threads), for stress mode; nullopt if no such
/// primitive exists. Defined in scenarios/bind_real.cpp.
std::optional<Body> bind_real(Family family, std::string_view primitive, std::uint32_t claims);
/// Adds a tool's own binder on real, as register_extra_binder does on sim. Returns true.
bool register_extra_real_binder(ExtraBinder binder);

}  // namespace syncstress::scenarios
