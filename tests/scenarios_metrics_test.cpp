// A cell's wait percentiles (scenarios/metrics.hpp) are exact nearest-rank percentiles of every
// wait counted, short and long, though the waits themselves are not kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "scenarios/execution_verdict.hpp"
#include "scenarios/metrics.hpp"
#include "schedules/rng.hpp"

namespace syncstress::scenarios {
namespace scenarios_metrics_test {
namespace {

double nearest_rank(std::vector<std::uint64_t> waits, double q) {
  std::sort(waits.begin(), waits.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(waits.size()))) - 1;
  return static_cast<double>(waits[rank]);
}

TEST(ScenariosMetrics, WaitPercentilesAreTheNearestRankOfEveryWait) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Xoshiro256 rng(seed);
    Metrics metrics;
    std::vector<std::uint64_t> every_wait;
    const std::uint64_t executions = 1 + rng.below(400);
    for (std::uint64_t e = 0; e < executions; ++e) {
      Observations obs;
      obs.actors.resize(1 + rng.below(4));
      for (ActorStats& actor : obs.actors) {
        for (std::uint64_t w = rng.below(4); w > 0; --w) {
          // Mostly short waits, some past the densely counted range.
          const std::uint64_t steps = rng.below(8) == 0 ? 4000 + rng.below(9000) : rng.below(60);
          actor.waits.push_back(steps);
          every_wait.push_back(steps);
          ++actor.acquisitions;
        }
      }
      metrics.add(obs, ExecutionVerdict{});
    }
    const auto m = metrics.to_json();
    if (every_wait.empty()) {
      EXPECT_EQ(m["wait_steps"]["max"].get<double>(), 0.0);
      continue;
    }
    EXPECT_EQ(m["acquisitions"].get<std::uint64_t>(), every_wait.size()) << "seed " << seed;
    EXPECT_EQ(m["wait_steps"]["p50"].get<double>(), nearest_rank(every_wait, 0.50))
        << "seed " << seed;
    EXPECT_EQ(m["wait_steps"]["p90"].get<double>(), nearest_rank(every_wait, 0.90))
        << "seed " << seed;
    EXPECT_EQ(m["wait_steps"]["p99"].get<double>(), nearest_rank(every_wait, 0.99))
        << "seed " << seed;
    EXPECT_EQ(m["wait_steps"]["max"].get<double>(),
              static_cast<double>(*std::max_element(every_wait.begin(), every_wait.end())))
        << "seed " << seed;
  }
}

TEST(ScenariosMetrics, OneWaitIsEveryPercentile) {
  Metrics metrics;
  Observations obs;
  obs.actors.resize(1);
  obs.actors[0].waits = {5000};
  obs.actors[0].acquisitions = 1;
  metrics.add(obs, ExecutionVerdict{});
  const auto m = metrics.to_json();
  for (const char* p : {"p50", "p90", "p99", "max"}) {
    EXPECT_EQ(m["wait_steps"][p].get<double>(), 5000.0) << p;
  }
}

}  // namespace
}  // namespace scenarios_metrics_test
}  // namespace syncstress::scenarios
