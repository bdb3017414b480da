// The families bound to code: a family's body instantiated for a primitive's template on Sim
// (sim/bind.cpp) or on Real (stress/bind.cpp, for stress mode), and the resolved cell of a
// (preset, primitive) pair with its body on Sim.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/bind_body.hpp"
#include "scenarios/family.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/resolved_cell.hpp"

namespace syncstress::scenarios {

/// The sim body of `family` for the primitive named `primitive` (which must apply), or nullopt
/// if no such primitive exists. Defined in src/backends/sim/bind.cpp, which expands the catalogue.
/// A tool's own family only the registered binders bind.
std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims);

/// What bind asks about a primitive that is not in the catalogue's list: the binder of a tool
/// built with syncstress_add_tool (src/backends/extra/register_sim.cpp), nullopt if not its own.
using ExtraBinder = std::optional<Body> (*)(Family family, std::string_view primitive,
                                            std::uint32_t claims);
/// Adds `binder` to those bind asks; from a static initializer, before main. Returns true.
bool register_extra_binder(ExtraBinder binder);

/// The binders of one platform that tools registered, asked in order after the catalogue.
class ExtraBinders {
 public:
  void add(ExtraBinder binder) { binders_.push_back(binder); }
  /// The first body a binder gives for `primitive`; nullopt when none knows it.
  std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims) const;

 private:
  std::vector<ExtraBinder> binders_;
};

/// The same body on the real platform (OS threads), for stress mode; nullopt if no such
/// primitive exists. Defined in src/backends/stress/bind.cpp.
std::optional<Body> bind_real(Family family, std::string_view primitive, std::uint32_t claims);
/// Adds a tool's own binder on real, as register_extra_binder does on sim. Returns true.
bool register_extra_real_binder(ExtraBinder binder);

/// Resolves the cell of `primitive` under `preset` with `overrides`, its family bound on Sim.
/// Throws UsageError for an unknown --set key, a value out of range, or a family that does not
/// apply to the primitive.
Cell make_cell(const Preset& preset, const PrimitiveInfo& primitive,
               const std::map<std::string, std::string>& overrides);

}  // namespace syncstress::scenarios
