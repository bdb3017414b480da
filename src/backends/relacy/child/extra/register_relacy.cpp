// syncstress-relacy's side of a tool built with syncstress_add_tool
// (cmake/syncstress_add_tool.cmake): the family bodies of the extra primitives bound on Relacy,
// registered before main. See src/backends/extra/register_sim.cpp for the header
// SYNCSTRESS_EXTRA_PRIMITIVES_HEADER names; the name checks are made there.
#ifndef SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#error "SYNCSTRESS_EXTRA_PRIMITIVES_HEADER names the extra primitives' header (syncstress_add_tool)"
#endif

// First: the primitives' headers, like every standard header, come before platform/relacy.hpp,
// which registry.hpp includes (see there).
#include SYNCSTRESS_EXTRA_PRIMITIVES_HEADER
#include "backends/relacy/child/registry.hpp"

namespace syncstress::relacy_main {
namespace {

void add_extra_primitives(std::map<std::string, Entry>& out) {
#define SYNCSTRESS_RELACY_ADD(tmpl, kind, mode, source, claims, summary) \
  add<kind, tmpl, kind, mode>(out, #tmpl, claims);
  SYNCSTRESS_EXTRA_PRIMITIVES(SYNCSTRESS_RELACY_ADD)
#undef SYNCSTRESS_RELACY_ADD
}

[[maybe_unused]] const bool kRegistered = register_extra_adder(add_extra_primitives);

}  // namespace
}  // namespace syncstress::relacy_main
