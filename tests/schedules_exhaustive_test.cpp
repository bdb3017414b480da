// The exhaustive strategy enumerates every choice sequence exactly once, counted against
// closed formulas on a driver that asks the same questions the sim runtime asks; then the
// same on the sim runtime itself (schedules_sim_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "schedules/exhaustive_strategy.hpp"
#include "schedules/strategy_factory.hpp"

namespace syncstress {
namespace schedules_exhaustive_test {
namespace {

// The interleaving of one execution: which thread took each step, and each number drawn.
using Interleaving = std::vector<std::uint64_t>;

constexpr ThreadId kNobody = 1000;  // "current" before the first step: nobody can continue

// A program of independent threads, thread t taking steps[t] steps. As the sim runtime does,
// the strategy is asked only when two or more threads can run. With `draws`, every step also
// draws a number below `draws` (a fault-injection choice).
Interleaving drive(Strategy& s, const std::vector<int>& steps, std::uint64_t draws = 0) {
  std::vector<int> left = steps;
  Interleaving run;
  ThreadId current = kNobody;
  for (;;) {
    std::vector<ThreadId> runnable;
    for (ThreadId t = 0; t < left.size(); ++t) {
      if (left[t] > 0) runnable.push_back(t);
    }
    if (runnable.empty()) return run;
    const std::size_t i = runnable.size() > 1 ? s.next_thread(runnable, current, false) : 0;
    current = runnable.at(i);
    --left[current];
    run.push_back(current);
    if (draws >= 2) run.push_back(100 + s.next_u64(draws));
  }
}

std::uint64_t factorial(std::uint64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// The number of interleavings of threads taking steps[t] steps: (sum s)! / prod(s!).
std::uint64_t multinomial(const std::vector<int>& steps) {
  std::uint64_t total = 0, denominator = 1;
  for (int s : steps) {
    total += static_cast<std::uint64_t>(s);
    denominator *= factorial(static_cast<std::uint64_t>(s));
  }
  return factorial(total) / denominator;
}

std::set<Interleaving> explore(ExhaustiveStrategy& s, const std::vector<int>& steps,
                               std::uint64_t draws = 0) {
  std::set<Interleaving> seen;
  while (s.new_execution()) {
    EXPECT_TRUE(seen.insert(drive(s, steps, draws)).second) << "a schedule came twice";
    if (seen.size() > 1'000'000) break;
  }
  return seen;
}

TEST(Exhaustive, CountsAllInterleavingsOfTwoThreads) {
  for (int a = 1; a <= 5; ++a) {
    for (int b = 1; b <= 5; ++b) {
      ExhaustiveStrategy s;
      const auto seen = explore(s, {a, b});
      EXPECT_EQ(seen.size(), multinomial({a, b})) << a << "+" << b;  // C(a+b, a)
      EXPECT_EQ(s.executions_explored(), seen.size());
      EXPECT_TRUE(s.complete());
      EXPECT_FALSE(s.new_execution()) << "must stay exhausted";
    }
  }
}

TEST(Exhaustive, CountsAllInterleavingsOfThreeAndFourThreads) {
  for (const std::vector<int>& steps :
       std::vector<std::vector<int>>{{2, 2, 2}, {1, 3, 2}, {3, 3, 3}, {2, 2, 2, 2}, {1, 1, 1, 1}}) {
    ExhaustiveStrategy s;
    EXPECT_EQ(explore(s, steps).size(), multinomial(steps));  // e.g. 9!/(3!3!3!) = 1680
  }
}

TEST(Exhaustive, NumberChoicesMultiplyTheTree) {
  // Each of the 5 steps of a 2+3 program also draws one of 3 numbers: C(5,2) * 3^5.
  ExhaustiveStrategy s;
  EXPECT_EQ(explore(s, {2, 3}, 3).size(), multinomial({2, 3}) * 243);
}

TEST(Exhaustive, SingleThreadProgramHasExactlyOneExecution) {
  ExhaustiveStrategy s;
  EXPECT_EQ(explore(s, {7}).size(), 1u);
}

// Preemptions in a run: switches away from a thread that still had steps left.
int preemptions(const Interleaving& run, const std::vector<int>& steps) {
  std::vector<int> left = steps;
  int count = 0;
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (i > 0 && run[i] != run[i - 1] && left[run[i - 1]] > 0) ++count;
    --left[run[i]];
  }
  return count;
}

TEST(Exhaustive, PreemptionBoundKeepsExactlyTheSchedulesWithThatManyPreemptionsOrFewer) {
  for (const std::vector<int>& steps :
       std::vector<std::vector<int>>{{3, 3}, {4, 2}, {2, 2, 2}, {3, 2, 2}}) {
    ExhaustiveStrategy all;
    const auto every = explore(all, steps);
    for (std::uint32_t bound = 0; bound <= 4; ++bound) {
      std::set<Interleaving> expected;
      for (const Interleaving& r : every) {
        if (preemptions(r, steps) <= static_cast<int>(bound)) expected.insert(r);
      }
      ExhaustiveStrategy bounded(bound);
      EXPECT_EQ(explore(bounded, steps), expected) << "bound " << bound;
    }
  }
}

TEST(Exhaustive, ZeroPreemptionsRunsEachThreadToCompletionInEveryOrder) {
  // With no preemption, only the order in which whole threads run is free: n! schedules.
  ExhaustiveStrategy s(0);
  EXPECT_EQ(explore(s, {3, 2, 4}).size(), 6u);
}

TEST(Exhaustive, NondeterministicProgramIsReportedAsDivergence) {
  ExhaustiveStrategy s;
  ASSERT_TRUE(s.new_execution());
  drive(s, {2, 2});
  ASSERT_TRUE(s.new_execution());
  // The "same" program now has three threads where it had two: the replayed prefix differs.
  EXPECT_THROW(drive(s, {2, 2, 2}), ScheduleDivergence);
}

// How a strategy's first execution names its producer in a schedule string.
std::string producer_of(Strategy& s) { return s.new_execution().value().producer->describe(); }

TEST(Exhaustive, DescribesItsPreemptionBoundAndThatItDoesNotReduce) {
  ExhaustiveStrategy unbounded;
  EXPECT_EQ(producer_of(unbounded), "exhaustive:reduction=none");
  ExhaustiveStrategy bounded(2);
  EXPECT_EQ(producer_of(bounded), "exhaustive:preemptions=2,reduction=none");
  // What the factory builds from each description (the reduced search is the default).
  EXPECT_EQ(producer_of(*make_strategy("exhaustive", 0)), "exhaustive");
  EXPECT_EQ(producer_of(*make_strategy("exhaustive", 0, {{"preemptions", "2"}})),
            "exhaustive:preemptions=2");
  EXPECT_EQ(producer_of(*make_strategy("exhaustive", 0, {{"reduction", "none"}})),
            "exhaustive:reduction=none");
  EXPECT_THROW(make_strategy("exhaustive", 0, {{"reduction", "por"}}), StrategyError);
}

}  // namespace
}  // namespace schedules_exhaustive_test
}  // namespace syncstress
