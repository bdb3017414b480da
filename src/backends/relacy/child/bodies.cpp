// syncstress-relacy: the family bodies of one kind's primitives, bound on Relacy (see
// registry.hpp). CMakeLists.txt compiles this file once per kind, with SYNCSTRESS_RELACY_KIND
// naming the Kind, so the kinds' instantiations build side by side.
#include "backends/relacy/child/registry.hpp"

#ifndef SYNCSTRESS_RELACY_KIND
#error "SYNCSTRESS_RELACY_KIND names the Kind this translation unit binds (CMakeLists.txt)"
#endif

namespace syncstress::relacy_main {

template <>
void add_primitives<Kind::SYNCSTRESS_RELACY_KIND>(std::map<std::string, Entry>& out) {
#define SYNCSTRESS_RELACY_ADD(tmpl, kind, mode, source, claims, summary) \
  add<Kind::SYNCSTRESS_RELACY_KIND, tmpl, kind, mode>(out, #tmpl, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_RELACY_ADD)
#undef SYNCSTRESS_RELACY_ADD
}

}  // namespace syncstress::relacy_main
