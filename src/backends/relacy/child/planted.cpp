// syncstress-relacy: the primitives of its own tests (planted.hpp), bound on Relacy.
#include "backends/relacy/child/planted.hpp"

#include <utility>

#include "backends/relacy/child/registry.hpp"

namespace syncstress::relacy_main {
namespace {

template <Platform P>
using guard_lock_mutex = relacy_planted::guard_lock_mutex<P, true>;
template <Platform P>
using guard_forgets_unlock_mutex = relacy_planted::guard_lock_mutex<P, false>;

}  // namespace

void add_planted(std::map<std::string, Entry>& out) {
  std::map<std::string, Entry> planted;
  add<Kind::mutex, relacy_planted::relaxed_unlock_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_relaxed_unlock_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, relacy_planted::forgetful_wake_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_forgetful_wake_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, relacy_planted::semaphore_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_semaphore_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, relacy_planted::condvar_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_condvar_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, relacy_planted::if_condvar_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_if_condvar_mutex", kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, guard_lock_mutex, Kind::mutex, Mode::sync>(planted, "test_guard_lock_mutex",
                                                              kMutualExclusion | kNoLostWakeups);
  add<Kind::mutex, guard_forgets_unlock_mutex, Kind::mutex, Mode::sync>(
      planted, "planted_guard_forgets_unlock_mutex", kMutualExclusion | kNoLostWakeups);
  for (auto& [name, entry] : planted) {
    entry.planted = true;
    out.emplace(name, std::move(entry));
  }
}

}  // namespace syncstress::relacy_main
