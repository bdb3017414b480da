// PCT keeps its promise: on planted ordering bugs of known depth, its measured hit rate is at
// least the bound of Burckhardt et al. (1/(n k^(d-1)) per execution) and at least what
// uniform random scheduling achieves. Run on the sim runtime, so the programs are real
// simulated threads and k is what the runtime asks, not a model of it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "platform/sim.hpp"
#include "schedules/pct_strategy.hpp"
#include "schedules/portfolio_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace schedules_pct_power_test {
namespace {

// Two workers A and B take kSteps steps each (a fetch_add on a shared clock stamps each step
// with its global order); the main thread spawns both and joins them, so n = 3 threads.
// The planted bug of depth d is an order of d constraints between the stamps:
//   depth 1: all of B before A's first step;
//   depth 2: A's first kHalf steps, then all of B, then the rest of A;
//   depth 3: A to kHalf, B to kHalf, all of the rest of A, then the rest of B.
constexpr int kSteps = 10;
constexpr int kHalf = 5;
constexpr int kThreads = 3;

bool planted_bug(int depth, const std::vector<long>& a, const std::vector<long>& b) {
  switch (depth) {
    case 1:
      return b[kSteps - 1] < a[0];
    case 2:
      return a[kHalf - 1] < b[0] && b[kSteps - 1] < a[kHalf];
    default:
      return a[kHalf - 1] < b[0] && b[kHalf - 1] < a[kHalf] && a[kSteps - 1] < b[kHalf];
  }
}

struct Rate {
  long hits = 0;
  long executions = 0;
  std::uint64_t k = 0;  // PCT's k in the last execution (0 for others)
};

Rate measure(Strategy& strategy, int depth, long executions) {
  sim::Options options;
  options.record_trace = false;
  sim::Runtime runtime(options);
  Rate rate;
  for (long i = 0; i < executions; ++i) {
    const Execution execution = *strategy.new_execution();
    if (const auto* pct = std::get_if<PctParams>(&execution.producer->as)) rate.k = pct->k;
    bool hit = false;
    const auto result = runtime.run(strategy, execution, [&] {
      Sim::atomic<long> clock{0};
      std::vector<long> a(kSteps);
      std::vector<long> b(kSteps);
      {
        Sim::thread ta([&] {
          for (auto& stamp : a) stamp = clock.fetch_add(1);
        });
        Sim::thread tb([&] {
          for (auto& stamp : b) stamp = clock.fetch_add(1);
        });
      }
      hit = planted_bug(depth, a, b);
    });
    EXPECT_EQ(result.outcome, sim::Outcome::completed) << result.message;
    rate.hits += hit ? 1 : 0;
  }
  rate.executions = executions;
  return rate;
}

// The least number of hits consistent with a per-execution probability of at least `p` over
// `n` executions: the mean less three standard deviations (the seeds are fixed, so a pass is
// a pass every time; the margin only keeps a change of seeds from flipping it).
double least_hits(double p, long n) {
  const double mean = p * static_cast<double>(n);
  return mean - 3 * std::sqrt(mean * (1 - p));
}

class PctPower : public ::testing::TestWithParam<int> {};

TEST_P(PctPower, HitRateIsAtLeastTheBoundAndAtLeastRandoms) {
  const int depth = GetParam();
  // Enough executions that the bound predicts dozens of hits at every depth.
  const long executions = depth == 1 ? 3000 : depth == 2 ? 6000 : 40000;
  PctStrategy pct(1, static_cast<std::uint32_t>(depth), 1000);
  const Rate p = measure(pct, depth, executions);
  RandomStrategy random(1);
  const Rate r = measure(random, depth, executions);

  // k is measured (the ceiling of 1000 is only the first execution's): about 2 * kSteps.
  ASSERT_GE(p.k, static_cast<std::uint64_t>(kSteps));
  ASSERT_LE(p.k, static_cast<std::uint64_t>(4 * kSteps));
  const double bound =
      1.0 / (kThreads * std::pow(static_cast<double>(p.k), static_cast<double>(depth - 1)));
  const std::string figures = "depth " + std::to_string(depth) + ": pct " + std::to_string(p.hits) +
                              " of " + std::to_string(executions) + " (k = " + std::to_string(p.k) +
                              ", bound " + std::to_string(bound) + " per execution), random " +
                              std::to_string(r.hits);
  EXPECT_GE(static_cast<double>(p.hits), least_hits(bound, executions)) << figures;
  EXPECT_GT(p.hits, 0) << figures;
  EXPECT_GE(p.hits, r.hits) << figures;
  std::printf("%s\n", figures.c_str());
}

INSTANTIATE_TEST_SUITE_P(Depths, PctPower, ::testing::Values(1, 2, 3));

TEST(PctPower, ThePortfolioFindsWhatItsPctMembersFindAndRandomDoesNot) {
  // Three of the portfolio's four members are PCT (d = 2, 3, 5): the ordering bugs that
  // uniform random scheduling misses in as many executions are found.
  for (int depth = 1; depth <= 3; ++depth) {
    PortfolioStrategy portfolio(1, 1000, /*faults=*/false);
    const Rate p = measure(portfolio, depth, 20000);
    RandomStrategy random(1);
    const Rate r = measure(random, depth, 20000);
    EXPECT_GT(p.hits, r.hits) << "depth " << depth;
  }
}

}  // namespace
}  // namespace schedules_pct_power_test
}  // namespace syncstress
