// The extra primitives of a tool built with syncstress_add_tool (cmake/syncstress_add_tool.cmake):
// their catalogue rows and their sim and real bodies, registered before main. Compiled only into
// such a tool, with SYNCSTRESS_EXTRA_PRIMITIVES_HEADER naming a header that defines the templates
// and SYNCSTRESS_EXTRA_PRIMITIVES(X), a list of the same shape as SYNCSTRESS_PRIMITIVES
// (primitives/catalog.hpp): X(template, kind, mode, source, claims, summary), each template
// visible from namespace syncstress. Only these primitives are instantiated here; the built-in
// ones come from the libraries, so a tool costs a few small compiles, not the catalogue's.
//
// With SYNCSTRESS_EXTRA_FAMILIES_HEADER (syncstress_add_tool's FAMILIES_HEADER), the header that
// defines SYNCSTRESS_EXTRA_FAMILIES(X), one X(type) per scenario family of the tool's own
// (scenarios/tool_family.hpp), those families are registered too, and bound here on sim and on
// real threads for the tool's primitives each applies to.
//
// Optional definitions, from syncstress_add_tool: SYNCSTRESS_TOOL_NAME, the program's name in
// the replay commands it prints; SYNCSTRESS_ONLY_EXTRA_PRIMITIVES, to leave the built-in
// primitives out (ONLY_THESE_PRIMITIVES); SYNCSTRESS_INSTALLED_SCENARIOS_DIR, the installed
// presets, for a tool built against the installed package.
#ifndef SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#error "SYNCSTRESS_EXTRA_PRIMITIVES_HEADER names the extra primitives' header (syncstress_add_tool)"
#endif

#include <string_view>

#include SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#ifdef SYNCSTRESS_EXTRA_FAMILIES_HEADER
#include SYNCSTRESS_EXTRA_FAMILIES_HEADER
#ifndef SYNCSTRESS_EXTRA_FAMILIES
#error "the header SYNCSTRESS_EXTRA_FAMILIES_HEADER names must define SYNCSTRESS_EXTRA_FAMILIES(X)"
#endif
#else
#define SYNCSTRESS_EXTRA_FAMILIES(X)
#endif
#include "backends/bind.hpp"
#include "backends/sim/on_sim.hpp"
#include "backends/stress/bind_on_real.hpp"
#include "primitives/all.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/replay_command.hpp"
#include "scenarios/tool_family.hpp"

#ifndef SYNCSTRESS_EXTRA_PRIMITIVES
#error \
    "the header SYNCSTRESS_EXTRA_PRIMITIVES_HEADER names must define SYNCSTRESS_EXTRA_PRIMITIVES(X)"
#endif

namespace syncstress::scenarios {
namespace {

#define SYNCSTRESS_EXTRA_ROW(tmpl, kind, mode, source, claims, summary) \
  PrimitiveInfo{#tmpl, kind, mode, source, claims, summary},
constexpr PrimitiveInfo kExtraRows[] = {SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_EXTRA_ROW)};
#undef SYNCSTRESS_EXTRA_ROW

#define SYNCSTRESS_NAME(tmpl, kind, mode, source, claims, summary) std::string_view(#tmpl),
constexpr std::string_view kBuiltinNames[] = {SYNCSTRESS_PRIMITIVES(SYNCSTRESS_NAME)};
#undef SYNCSTRESS_NAME

/// Every name once: among the extras, and none a built-in primitive's.
constexpr bool names_are_unique() {
  for (std::size_t i = 0; i < std::size(kExtraRows); ++i) {
    for (const auto builtin : kBuiltinNames) {
      if (kExtraRows[i].name == builtin) return false;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (kExtraRows[i].name == kExtraRows[j].name) return false;
    }
  }
  return true;
}
static_assert(names_are_unique(),
              "SYNCSTRESS_EXTRA_PRIMITIVES names a primitive twice, or one of the built-in ones "
              "(syncstress list primitives): rename it");

#define SYNCSTRESS_FAMILY_NAME(family) std::string_view(family::name),
/// The tool's families' names, and an empty one so that the list is never empty.
constexpr std::string_view kFamilyNames[] = {SYNCSTRESS_EXTRA_FAMILIES(SYNCSTRESS_FAMILY_NAME) ""};
#undef SYNCSTRESS_FAMILY_NAME

constexpr bool family_names_are_unique() {
  for (std::size_t i = 0; i + 1 < std::size(kFamilyNames); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (kFamilyNames[i] == kFamilyNames[j]) return false;
    }
  }
  return true;
}
static_assert(family_names_are_unique(),
              "SYNCSTRESS_EXTRA_FAMILIES names a family twice: rename one");

/// Whether family F runs on the tool's primitive named `primitive`.
template <ToolFamily F>
bool family_binds(std::string_view primitive) {
#define SYNCSTRESS_FAMILY_BINDS(tmpl, kind, mode, source, claims, summary) \
  if (primitive == #tmpl) return scenarios::family_applies<F, Sim, tmpl, kind, mode>();
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_FAMILY_BINDS)
#undef SYNCSTRESS_FAMILY_BINDS
  return false;
}

/// F's value, registered by the first call (the static initializer below, in list order).
template <ToolFamily F>
Family family_value() {
  static const Family value = register_tool_family(tool_family_info<F>(&family_binds<F>));
  return value;
}

/// The body of the tool's family `family` for Tmpl<P>; nullopt if it does not apply.
template <Platform P, template <class> class Tmpl, Kind K, Mode M>
std::optional<Body> bind_tool_family([[maybe_unused]] Family family,
                                     [[maybe_unused]] std::uint32_t claims) {
#define SYNCSTRESS_BIND_FAMILY(family_type)  \
  if (family == family_value<family_type>()) \
    return bind_tool_body<family_type, P, Tmpl, K, M>(claims);
  SYNCSTRESS_EXTRA_FAMILIES(SYNCSTRESS_BIND_FAMILY)
#undef SYNCSTRESS_BIND_FAMILY
  return std::nullopt;
}

std::optional<Body> bind_extra(Family family, std::string_view primitive, std::uint32_t claims) {
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary)                      \
  if (primitive == #tmpl) {                                                                 \
    return is_tool_family(family) ? bind_tool_family<Sim, tmpl, kind, mode>(family, claims) \
                                  : bind_body<Sim, tmpl, kind, mode>(family, claims);       \
  }
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return std::nullopt;
}

/// The same on real threads, for stress mode.
std::optional<Body> bind_extra_real(Family family, std::string_view primitive,
                                    std::uint32_t claims) {
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary)                       \
  if (primitive == #tmpl) {                                                                  \
    return is_tool_family(family) ? bind_tool_family<Real, tmpl, kind, mode>(family, claims) \
                                  : bind_on_real<tmpl, kind, mode>(family, claims);          \
  }
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return std::nullopt;
}

#define SYNCSTRESS_REGISTER_FAMILY(family_type) static_cast<void>(family_value<family_type>()),
[[maybe_unused]] const bool kFamilies =
    (SYNCSTRESS_EXTRA_FAMILIES(SYNCSTRESS_REGISTER_FAMILY) true);
#undef SYNCSTRESS_REGISTER_FAMILY

[[maybe_unused]] const bool kRegistered = register_extra_primitives(kExtraRows) &&
                                          register_extra_binder(bind_extra) &&
                                          register_extra_real_binder(bind_extra_real);

#ifdef SYNCSTRESS_TOOL_NAME
[[maybe_unused]] const bool kNamed = register_program_name(SYNCSTRESS_TOOL_NAME);
#endif
#ifdef SYNCSTRESS_ONLY_EXTRA_PRIMITIVES
[[maybe_unused]] const bool kAlone = hide_builtin_primitives();
#endif
#ifdef SYNCSTRESS_INSTALLED_SCENARIOS_DIR
[[maybe_unused]] const bool kPresets = register_scenarios_dir(SYNCSTRESS_INSTALLED_SCENARIOS_DIR);
#endif

}  // namespace
}  // namespace syncstress::scenarios
