// A stress smoke run under ThreadSanitizer: a few presets' family bodies on real threads, with
// stress mode's noise and faults on, against the controls and the pooled async mutex. TSan
// fails the test on any report (TSAN_OPTIONS=halt_on_error=1): a race in a control, in the
// real platform or in the harness's own bookkeeping.
#include <gtest/gtest.h>

#include <string>

#include "backends/stress/on_real.hpp"
#include "platform/real.hpp"
#include "platform/real_stress.hpp"
#include "primitives/all.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/params.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"

namespace syncstress::scenarios {
namespace {

/// `trials` trials of `body` with the parameters of preset `name` (threads and rounds set
/// small for TSan's speed); returns how many broke a property.
int smoke(const Body& body, const std::string& name, const nlohmann::json& extra, int trials) {
  const Preset preset = load_preset(scenarios_dir() / (name + ".json"));
  nlohmann::json values = preset.parameters;
  values.update(extra);
  const auto params = Params::resolve(family_param_specs(preset.family), values, {}, name);
  int broken = 0;
  (void)Real::take_failures();
  for (int trial = 0; trial < trials; ++trial) {
    real_stress::begin_trial(
        {real_stress::Noise::high, true, true, static_cast<std::uint64_t>(trial)});
    Observations obs;
    body(obs, params);
    real_stress::wait_pool_idle();
    real_stress::end_trial();
    HarnessHooks<Real>::release_retired();
    broken += obs.finding.has_value() || Real::take_failures().count > 0 ? 1 : 0;
  }
  return broken;
}

template <template <class> class Tmpl, Kind K, Mode M>
Body body(Family family) {
  auto b = bind_body<Real, Tmpl, K, M>(family, ~0u);
  EXPECT_TRUE(b.has_value());
  return *b;
}

TEST(TsanStressSmoke, MutexSafetyControlsAndThePooledAsyncMutex) {
  EXPECT_EQ(smoke(body<ticket_mutex, Kind::mutex, Mode::sync>(Family::safety), "mutex-safety",
                  {{"actors", 4}, {"rounds", 50}}, 10),
            0);
  EXPECT_EQ(smoke(body<mutex_part7_pooled_cancel_handoff, Kind::mutex, Mode::async>(Family::safety),
                  "mutex-safety", {{"actors", 4}, {"rounds", 50}}, 10),
            0);
}

TEST(TsanStressSmoke, SharedMutexStarvationAndSemaphoreSafety) {
  EXPECT_EQ(smoke(body<ticket_shared_mutex, Kind::shared_mutex, Mode::sync>(Family::starvation),
                  "shared-mutex-starvation", {{"readers", 3}, {"stream_rounds", 50}}, 5),
            0);
  EXPECT_EQ(smoke(body<wait_on_address_semaphore, Kind::semaphore, Mode::sync>(Family::safety),
                  "semaphore-safety", {{"actors", 4}, {"rounds", 50}}, 10),
            0);
}

TEST(TsanStressSmoke, WorkQueueProgress) {
  EXPECT_EQ(smoke(body<work_queue_wait_on_address, Kind::work_queue, Mode::sync>(Family::progress),
                  "work-queue-progress", {{"producers", 3}, {"items", 100}}, 10),
            0);
}

}  // namespace
}  // namespace syncstress::scenarios
