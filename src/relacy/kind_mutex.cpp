// syncstress-relacy: the mutex primitives (see registry.hpp).
#include "relacy/planted.hpp"
#include "relacy/registry.hpp"

namespace syncstress::relacy_main {

void add_mutexes(std::map<std::string, Entry>& out) {
#define SYNCSTRESS_RELACY_ADD(tmpl, kind, mode, source, claims, summary) \
  add<Kind::mutex, tmpl, kind, mode>(out, #tmpl, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_RELACY_ADD)
#undef SYNCSTRESS_RELACY_ADD
  add<Kind::mutex, relacy_planted::relaxed_unlock_mutex, Kind::mutex, Mode::sync>(
      out, "planted_relaxed_unlock_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, relacy_planted::forgetful_wake_mutex, Kind::mutex, Mode::sync>(
      out, "planted_forgetful_wake_mutex", kMutualExclusion | kNoLostWakeups);
}

}  // namespace syncstress::relacy_main
