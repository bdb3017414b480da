// The scenario families as data: their names, their parameters, the claim each is about and
// the kinds it applies to. Shared by the sim cells and the syncstress-relacy program.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "primitives/catalog.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {

enum class Family { safety, fairness, starvation, cancellation, spurious_wakeups, progress };

/// Every family, in the order `list` shows them.
std::span<const Family> all_families();

/// "safety", "fairness", "starvation", "cancellation", "spurious-wakeups", "progress".
std::string_view to_string(Family family);
/// The inverse of to_string; nullopt for anything else.
std::optional<Family> family_from_string(std::string_view name);

/// The family's own parameters (without the sim runtime's).
std::vector<ParamSpec> family_param_specs(Family family);

/// The claim a family is about: when the primitive does not make it, the cell is measured.
Claim headline_claim(Family family);

/// Whether `family` applies to primitives of `kind` and `mode`.
bool applies(Family family, Kind kind, Mode mode);

}  // namespace syncstress::scenarios
