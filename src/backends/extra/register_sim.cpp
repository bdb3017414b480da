// The extra primitives of a tool built with syncstress_add_tool (cmake/syncstress_add_tool.cmake):
// their catalogue rows and their sim and real bodies, registered before main. Compiled only into
// such a tool, with SYNCSTRESS_EXTRA_PRIMITIVES_HEADER naming a header that defines the templates
// and SYNCSTRESS_EXTRA_PRIMITIVES(X), a list of the same shape as SYNCSTRESS_PRIMITIVES
// (primitives/catalog.hpp): X(template, kind, mode, source, claims, summary), each template
// visible from namespace syncstress. Only these primitives are instantiated here; the built-in
// ones come from the libraries, so a tool costs a few small compiles, not the catalogue's.
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
#include "backends/bind.hpp"
#include "backends/sim/on_sim.hpp"
#include "backends/stress/bind_on_real.hpp"
#include "primitives/all.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/replay_command.hpp"

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

std::optional<Body> bind_extra(Family family, std::string_view primitive, std::uint32_t claims) {
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary) \
  if (primitive == #tmpl) return bind_body<Sim, tmpl, kind, mode>(family, claims);
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return std::nullopt;
}

/// The same on real threads, for stress mode.
std::optional<Body> bind_extra_real(Family family, std::string_view primitive,
                                    std::uint32_t claims) {
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary) \
  if (primitive == #tmpl) return bind_on_real<tmpl, kind, mode>(family, claims);
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return std::nullopt;
}

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
