// The scenario families as data: their names, their parameters, the claim each is about and
// the kinds it applies to. Shared by the sim cells and the syncstress-relacy program.
//
// The built-in families are the enumerators of Family. A tool built with syncstress_add_tool may
// register families of its own (scenarios/tool_family.hpp) before main: each gets a Family value
// from kFirstToolFamily on, and every function below answers for it from what it registered.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "primitives/catalog.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {

enum class Family : std::uint8_t {
  safety,
  fairness,
  starvation,
  cancellation,
  spurious_wakeups,
  progress
};

/// The first value given to a tool's own family; the ones after it follow in registration order.
inline constexpr std::uint8_t kFirstToolFamily = 64;

/// The names of the built-in families, in the order `all_families` gives them.
inline constexpr std::string_view kBuiltinFamilyNames[] = {
    "safety", "fairness", "starvation", "cancellation", "spurious-wakeups", "progress"};

/// Whether `family` is one a tool registered, rather than a built-in one.
constexpr bool is_tool_family(Family family) {
  return static_cast<std::uint8_t>(family) >= kFirstToolFamily;
}

/// A family a tool registers: what the functions below say about it.
struct ToolFamilyInfo {
  std::string name;              ///< as presets name it; unlike any other family's
  std::vector<ParamSpec> specs;  ///< its own parameters (without the sim runtime's)
  Claim headline;                ///< the claim it is about
  /// Whether it runs on the primitive named so: the tool's own primitives it was bound to.
  bool (*binds)(std::string_view primitive);
};

/// Registers a tool's family, from a static initializer before main, and gives its value. The
/// registration unit has checked its name at compile time (tool_family.hpp).
Family register_tool_family(ToolFamilyInfo info);

/// Every family, the built-in ones first, in the order `list` shows them.
std::vector<Family> all_families();

/// "safety", "fairness", "starvation", "cancellation", "spurious-wakeups", "progress", or the
/// name a tool registered.
std::string_view to_string(Family family);
/// The inverse of to_string; nullopt for anything else.
std::optional<Family> family_from_string(std::string_view name);

/// The family's own parameters (without the sim runtime's).
std::vector<ParamSpec> family_param_specs(Family family);

/// The claim a family is about: when the primitive does not make it, the cell is measured.
Claim headline_claim(Family family);

/// Whether `family` applies to primitives of `kind` and `mode`. A tool's family applies where
/// one of the primitives it was bound to has that kind and mode.
bool applies(Family family, Kind kind, Mode mode);

/// Whether `family` applies to `primitive`: for a built-in family, by its kind and mode; a
/// tool's family runs only on the tool's own primitives it was bound to.
bool applies(Family family, const PrimitiveInfo& primitive);

}  // namespace syncstress::scenarios
