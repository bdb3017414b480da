// A lock whose unlock stores with memory_order_relaxed instead of release: holders still
// exclude each other (the lock word is exact), but nothing orders one holder's writes before
// the next holder's reads. Run under ThreadSanitizer, the safety family's guarded cell is a
// data race that names this primitive (tests/tsan/CMakeLists.txt checks the report).
#include <cstdio>

#include "backends/stress/on_real.hpp"
#include "platform/real.hpp"
#include "platform/real_stress.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/params.hpp"

namespace syncstress {

template <class P>
class relaxed_unlock_mutex {
 public:
  void lock() {
    std::int32_t expected = 0;
    while (!locked_.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                          std::memory_order_relaxed)) {
      expected = 0;
      P::yield();
    }
  }
  void unlock() {
    locked_.store(0, std::memory_order_relaxed);  // the planted bug: not release
  }

 private:
  typename P::template atomic<std::int32_t> locked_{0};
};

}  // namespace syncstress

int main() {
  using namespace syncstress;
  using namespace syncstress::scenarios;
  const auto body = bind_body<Real, relaxed_unlock_mutex, Kind::mutex, Mode::sync>(
      Family::safety, kMutualExclusion);
  const auto params = Params::resolve(family_param_specs(Family::safety),
                                      {{"actors", 4}, {"rounds", 200}}, {}, "tsan_planted_race");
  for (int trial = 0; trial < 20; ++trial) {
    real_stress::begin_trial(
        {real_stress::Noise::low, false, false, static_cast<std::uint64_t>(trial)});
    Observations obs;
    (*body)(obs, params);
    real_stress::end_trial();
  }
  std::puts("20 trials done");
  return 0;
}
