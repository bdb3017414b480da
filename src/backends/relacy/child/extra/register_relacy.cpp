// syncstress-relacy's side of a tool built with syncstress_add_tool
// (cmake/syncstress_add_tool.cmake): the family bodies of the extra primitives bound on Relacy,
// and the tool's own scenario families (SYNCSTRESS_EXTRA_FAMILIES_HEADER, when given), registered
// before main and bound for the tool's primitives each applies to. See
// src/backends/extra/register_sim.cpp for the headers; the name checks are made there.
#ifndef SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#error "SYNCSTRESS_EXTRA_PRIMITIVES_HEADER names the extra primitives' header (syncstress_add_tool)"
#endif

// First: the primitives' and families' headers, like every standard header, come before
// platform/relacy.hpp, which registry.hpp includes (see there).
#include SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#ifdef SYNCSTRESS_EXTRA_FAMILIES_HEADER
#include SYNCSTRESS_EXTRA_FAMILIES_HEADER
#else
#define SYNCSTRESS_EXTRA_FAMILIES(X)
#endif
#include "scenarios/tool_family.hpp"
// Last: it includes platform/relacy.hpp.
#include "backends/relacy/child/registry.hpp"

namespace syncstress::relacy_main {
namespace {

using scenarios::ToolFamily;

/// Whether family F runs on the tool's primitive named `primitive`.
template <ToolFamily F>
bool family_binds(std::string_view primitive) {
#define SYNCSTRESS_FAMILY_BINDS(tmpl, kind, mode, source, claims, summary) \
  if (primitive == #tmpl) return scenarios::family_applies<F, Relacy, tmpl, kind, mode>();
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_FAMILY_BINDS)
#undef SYNCSTRESS_FAMILY_BINDS
  return false;
}

/// F's value, registered by the first call (the static initializer below, in list order).
template <ToolFamily F>
Family family_value() {
  static const Family value =
      scenarios::register_tool_family(scenarios::tool_family_info<F>(&family_binds<F>));
  return value;
}

/// Adds the bodies of the tool's families that apply to Tmpl to its entry, by family name.
template <template <class> class Tmpl, Kind K, Mode M>
void add_family_bodies([[maybe_unused]] Entry& entry) {
#define SYNCSTRESS_ADD_FAMILY(family_type)                                                    \
  if (auto body = scenarios::bind_tool_body<family_type, Relacy, Tmpl, K, M>(entry.claims)) { \
    entry.bodies.emplace(std::string(family_type::name), std::move(*body));                   \
  }
  SYNCSTRESS_EXTRA_FAMILIES(SYNCSTRESS_ADD_FAMILY)
#undef SYNCSTRESS_ADD_FAMILY
}

void add_extra_primitives(std::map<std::string, Entry>& out) {
#define SYNCSTRESS_RELACY_ADD(tmpl, kind, mode, source, claims, summary) \
  add<kind, tmpl, kind, mode>(out, #tmpl, claims);                       \
  add_family_bodies<tmpl, kind, mode>(out.at(#tmpl));
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_RELACY_ADD)
#undef SYNCSTRESS_RELACY_ADD
}

#define SYNCSTRESS_REGISTER_FAMILY(family_type) static_cast<void>(family_value<family_type>()),
[[maybe_unused]] const bool kFamilies =
    (SYNCSTRESS_EXTRA_FAMILIES(SYNCSTRESS_REGISTER_FAMILY) true);
#undef SYNCSTRESS_REGISTER_FAMILY

[[maybe_unused]] const bool kRegistered = register_extra_adder(add_extra_primitives);

}  // namespace
}  // namespace syncstress::relacy_main
