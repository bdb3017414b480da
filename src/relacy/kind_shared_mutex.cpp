// syncstress-relacy: the shared mutex primitives (see registry.hpp).
#include "relacy/registry.hpp"

namespace syncstress::relacy_main {

void add_shared_mutexes(std::map<std::string, Entry>& out) {
#define SYNCSTRESS_RELACY_ADD(tmpl, kind, mode, source, claims, summary) \
  add<Kind::shared_mutex, tmpl, kind, mode>(out, #tmpl, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_RELACY_ADD)
#undef SYNCSTRESS_RELACY_ADD
}

}  // namespace syncstress::relacy_main
