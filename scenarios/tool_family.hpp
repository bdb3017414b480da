// A scenario family of a tool's own (syncstress_add_tool's FAMILIES_HEADER, whose
// SYNCSTRESS_EXTRA_FAMILIES(X) lists one X(type) per family): the shape of its type, the check of
// its name, and its body bound to one of the tool's primitives. The tool's registration units
// (src/backends/extra/register_sim.cpp, src/backends/relacy/child/extra/register_relacy.cpp)
// register each family before main (scenarios/family.hpp) and bind it on Sim, Real and Relacy.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/family.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {

/// A family type F has these static members (docs/your-primitive.md, "A scenario family of your
/// own"):
///   F::name                     constexpr std::string_view: its name in presets, "timed-lock";
///   F::claim                    constexpr Claim: the claim it is about (a primitive that does not
///                               make it is measured, not failed);
///   F::specs()                  std::vector<ParamSpec>: its parameters;
///   F::applies<K, M, Prim>      constexpr bool: whether it runs on primitive Prim (one of the
///                               tool's, on the platform at hand) of kind K and mode M;
///   F::run<P, K, M, Prim>(Observations&, std::uint32_t claims, const Params&)
///                               one execution, as the built-in families' run (families/*.hpp).
template <class F>
concept ToolFamily = requires {
  { F::name } -> std::convertible_to<std::string_view>;
  { F::claim } -> std::convertible_to<Claim>;
  { F::specs() } -> std::same_as<std::vector<ParamSpec>>;
};

/// Whether `name` may name a tool's family: lower-case letters, digits and '-', and no built-in
/// family's name.
constexpr bool is_tool_family_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char ch : name) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) return false;
  }
  for (const auto builtin : kBuiltinFamilyNames) {
    if (builtin == name) return false;
  }
  return true;
}

/// What family.hpp keeps of F; `binds` says which of the tool's primitives F runs on.
template <ToolFamily F>
ToolFamilyInfo tool_family_info(bool (*binds)(std::string_view primitive)) {
  static_assert(is_tool_family_name(F::name),
                "SYNCSTRESS_EXTRA_FAMILIES: a family's name is lower-case letters, digits and "
                "'-', and not a built-in family's (safety, fairness, starvation, cancellation, "
                "spurious-wakeups, progress): rename it");
  return {std::string(F::name), F::specs(), F::claim, binds};
}

/// Whether F runs on primitive Tmpl<P> of kind K and mode M (a function, so that the
/// registration units' macros name the primitive's template without writing Tmpl<P>).
template <ToolFamily F, Platform P, template <class> class Tmpl, Kind K, Mode M>
constexpr bool family_applies() {
  return F::template applies<K, M, Tmpl<P>>;
}

/// The body of F for primitive Tmpl<P> of kind K and mode M, judging against `claims`; nullopt
/// where F does not apply to it.
template <ToolFamily F, Platform P, template <class> class Tmpl, Kind K, Mode M>
std::optional<Body> bind_tool_body(std::uint32_t claims) {
  using Prim = Tmpl<P>;
  if constexpr (family_applies<F, P, Tmpl, K, M>()) {
    return Body([claims](Observations& o, const Params& p) {
      F::template run<P, K, M, Prim>(o, claims, p);
    });
  } else {
    return std::nullopt;
  }
}

}  // namespace syncstress::scenarios
