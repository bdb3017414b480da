// The scenario families on the `real` platform: the same bodies sim and Relacy run, on OS threads
// and the real thread pool. Correct primitives get through with nothing recorded; a lock that
// excludes nobody is caught by the same checks. (Stress mode, with its trial isolation and
// noise, is built on these bodies; this only proves the bodies run here.)
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "backends/stress/on_real.hpp"
#include "platform/real.hpp"
#include "primitives/all.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/family.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {
namespace backends_real_platform_test {
namespace {

Params params_of(Family family, const nlohmann::json& values) {
  return Params::resolve(family_param_specs(family), values, {}, "backends_real_platform_test");
}

/// Runs `executions` executions of `body`; returns the first finding, if any, after checking
/// that the platform's record of failed checks agrees with the Observations.
std::optional<Finding> run(const Body& body, const Params& p, int executions,
                           double* items = nullptr) {
  (void)Real::take_failures();
  for (int i = 0; i < executions; ++i) {
    Observations obs;
    body(obs, p);
    const auto failures = Real::take_failures();
    EXPECT_EQ(failures.count > 0, obs.finding.has_value()) << "execution " << i;
    if (items != nullptr) *items += obs.numbers["items_processed"];
    if (obs.finding) return obs.finding;
  }
  return std::nullopt;
}

template <template <class> class Tmpl, Kind K, Mode M>
Body body_of(Family family, std::uint32_t claims) {
  auto body = bind_body<Real, Tmpl, K, M>(family, claims);
  EXPECT_TRUE(body.has_value());
  return body ? *body : Body{};
}

/// A lock that excludes nobody: the safety family must see two holders at once.
template <Platform P>
class no_exclusion_mutex {
 public:
  void lock() {}
  void unlock() {}
};

const nlohmann::json kSafety = {{"actors", 4}, {"rounds", 50}, {"hold_steps", 4}};

TEST(ScenariosOnReal, SafetyPassesCorrectSyncAndAsyncMutexes) {
  const auto p = params_of(Family::safety, kSafety);
  EXPECT_EQ(run(body_of<ticket_mutex, Kind::mutex, Mode::sync>(Family::safety, ~0u), p, 20),
            std::nullopt);
  EXPECT_EQ(run(body_of<mutex_part7, Kind::mutex, Mode::async>(Family::safety, ~0u), p, 20),
            std::nullopt);
  EXPECT_EQ(run(body_of<mutex_part7_pooled, Kind::mutex, Mode::async>(Family::safety, ~0u), p, 20),
            std::nullopt);
}

TEST(ScenariosOnReal, SafetyPassesSharedMutexSemaphoreAndEvents) {
  const auto p = params_of(Family::safety, kSafety);
  EXPECT_EQ(
      run(body_of<ticket_shared_mutex, Kind::shared_mutex, Mode::sync>(Family::safety, ~0u), p, 20),
      std::nullopt);
  EXPECT_EQ(
      run(body_of<wait_on_address_semaphore, Kind::semaphore, Mode::sync>(Family::safety, ~0u), p,
          20),
      std::nullopt);
  EXPECT_EQ(
      run(body_of<platform_auto_reset_event, Kind::event, Mode::sync>(Family::safety, ~0u), p, 20),
      std::nullopt);
}

TEST(ScenariosOnReal, WorkQueueProgressDeliversEveryItemOnce) {
  const auto p = params_of(Family::progress, {{"producers", 3}, {"items", 200}});
  double items = 0;
  EXPECT_EQ(
      run(body_of<work_queue_wait_on_address, Kind::work_queue, Mode::sync>(Family::progress, ~0u),
          p, 10, &items),
      std::nullopt);
  EXPECT_EQ(items, 10.0 * 3 * 200);
}

TEST(ScenariosOnReal, SafetyCatchesALockThatExcludesNobody) {
  // Found at once on an idle machine; on two loaded cores (ctest -j2 under ASan) the threads
  // may run one after another for hundreds of executions, so the budget is generous.
  const auto p = params_of(Family::safety, {{"actors", 4}, {"rounds", 1000}, {"hold_steps", 16}});
  const auto found =
      run(body_of<no_exclusion_mutex, Kind::mutex, Mode::sync>(Family::safety, kMutualExclusion), p,
          5000);
  ASSERT_TRUE(found.has_value()) << "four threads overlapped nowhere in 5000 executions";
  EXPECT_EQ(found->property, "mutual_exclusion");
  EXPECT_NE(found->message.find("exclusive holders"), std::string::npos) << found->message;
}

TEST(ScenariosOnReal, EveryFamilyCompilesForReal) {
  // Fairness, starvation and cancellation bodies instantiate on Real like the others.
  EXPECT_TRUE((bind_body<Real, ticket_mutex, Kind::mutex, Mode::sync>(Family::fairness, ~0u)));
  EXPECT_TRUE((bind_body<Real, ticket_shared_mutex, Kind::shared_mutex, Mode::sync>(
      Family::starvation, ~0u)));
  EXPECT_TRUE((bind_body<Real, mutex_part7_cancel_handoff, Kind::mutex, Mode::async>(
      Family::cancellation, ~0u)));
}

}  // namespace
}  // namespace backends_real_platform_test
}  // namespace syncstress::scenarios
