// Shrinking a sim counterexample (src/backends/sim/shrink.hpp): it keeps the property, never grows
// the schedule, reaches the fewest preemptions a planted bug needs, replays to the same violation
// with the same trace, and is a fixed function of the counterexample.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/bind.hpp"
#include "backends/sim/execution.hpp"
#include "backends/sim/shrink.hpp"
#include "platform/sim.hpp"
#include "scenarios/execution_verdict.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/resolved_cell.hpp"
#include "scenarios/runtime_options.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/strategy_factory.hpp"
#include "tests/scenario_lookup.hpp"

namespace syncstress::scenarios {
namespace backends_shrink_test {
namespace {

using testing::preset;
using testing::primitive;

/// A primitive claiming everything, for cells whose body is a test's own program.
const PrimitiveInfo kClaimsAll{"test_program", Kind::mutex,       Mode::sync,
                               "test",         ~std::uint32_t{0}, "a test's own program"};

/// A safety cell running `body` instead of a family's.
Cell program_cell(Body body) {
  Cell c;
  c.preset.name = "test-program";
  c.preset.family = Family::safety;
  c.primitive = &kClaimsAll;
  c.params = Params::resolve(sim_param_specs(Family::safety), nlohmann::json::object(), {}, "test");
  c.body = std::move(body);
  return c;
}

/// A counterexample found by a seeded strategy: its schedule, verdict and steps.
struct Found {
  Schedule schedule;
  ExecutionVerdict verdict;
  std::uint64_t steps = 0;
};

/// The first execution of `strategy` (at most `budget`) that breaks a claimed property.
std::optional<Found> find(const Cell& cell, Strategy& strategy, std::uint64_t budget) {
  const auto runtime = make_runtime(cell, /*trace=*/false);
  RecordingStrategy recorder(strategy);
  for (std::uint64_t i = 0; i < budget; ++i) {
    const auto execution = recorder.new_execution();
    if (!execution) break;
    Observations obs;
    const auto r = execute(cell, *runtime, recorder, *execution, obs, no_watch());
    const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
    if (j.broken && j.claimed) return Found{recorder.schedule().value(), j, r.steps};
  }
  return std::nullopt;
}

/// One replay of `schedule` with its trace: the verdict and the trace.
std::pair<ExecutionVerdict, std::string> replay(const Cell& cell, const Schedule& schedule) {
  const auto runtime = make_runtime(cell, /*trace=*/true);
  ReplayStrategy strategy(schedule);
  const Execution execution = *strategy.new_execution();
  Observations obs;
  const auto r = execute(cell, *runtime, strategy, execution, obs, no_watch());
  strategy.finish();
  return {sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims),
          r.format_trace()};
}

/// Shrinking `found` of `cell` kept its property, grew neither steps nor preemptions, and its
/// schedule replays (twice, byte-identical) to the same violation.
::testing::AssertionResult shrinks_well(const Cell& cell, const Found& found, const Shrunk& s) {
  if (s.verdict.property != found.verdict.property) {
    return ::testing::AssertionFailure()
           << "property changed: " << found.verdict.property << " -> " << s.verdict.property;
  }
  if (s.original_steps != found.steps) {
    return ::testing::AssertionFailure()
           << "original steps " << s.original_steps << ", the search measured " << found.steps;
  }
  if (s.steps > s.original_steps || s.preemptions > s.original_preemptions) {
    return ::testing::AssertionFailure()
           << "grew: steps " << s.original_steps << " -> " << s.steps << ", preemptions "
           << s.original_preemptions << " -> " << s.preemptions;
  }
  const Cell runs = cell_of(s, cell);
  const auto [first, first_trace] = replay(runs, s.schedule);
  const auto [second, second_trace] = replay(runs, s.schedule);
  if (first.property != found.verdict.property || !first.claimed) {
    return ::testing::AssertionFailure()
           << "the shrunk schedule replays to '" << first.property << ": " << first.message << "'";
  }
  if (first_trace != second_trace) {
    return ::testing::AssertionFailure() << "two replays of the shrunk schedule differ";
  }
  return ::testing::AssertionSuccess() << s.original_steps << " -> " << s.steps << " steps";
}

// The writer stores 1 then 2; the reader fails when it reads 1 then 2: the writer preempted
// after its first store, the reader after its first load (tests/schedules_dpor_test.cpp shows
// the bound it needs is 2). Two threads started first count on atomics of their own, so that a
// random schedule that finds the bug preempts many more times than it needs. The schedule with
// two preemptions lets the main thread block in its first join (a free switch) where a random
// one may preempt it: the noise keeps random schedules from being shorter than that one.
void two_preemption_bug_with_noise() {
  Sim::atomic<int> a{0};
  Sim::atomic<int> noise[2] = {Sim::atomic<int>{0}, Sim::atomic<int>{0}};
  Sim::thread n0([&] {
    for (int i = 0; i < 8; ++i) noise[0].fetch_add(1);
  });
  Sim::thread n1([&] {
    for (int i = 0; i < 8; ++i) noise[1].fetch_add(1);
  });
  Sim::thread writer([&] {
    a.store(1);
    a.store(2);
  });
  Sim::thread reader([&] {
    const int first = a.load();
    const int second = a.load();
    Sim::check(!(first == 1 && second == 2), "saw 1 then 2");
  });
  writer.join();
  reader.join();
  n0.join();
  n1.join();
}

TEST(Shrink, ABugNeedingExactlyTwoPreemptionsShrinksToExactlyTwo) {
  const Cell cell =
      program_cell([](Observations&, const Params&) { two_preemption_bug_with_noise(); });
  ShrinkLimits limits;
  limits.seconds = 60;  // the executions budget ends it
  limits.lower_parameters = false;
  int shrunk_from_more = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    RandomStrategy random(seed);
    const auto found = find(cell, random, 10'000);
    ASSERT_TRUE(found) << "seed " << seed;
    const auto s = shrink_violation(cell, found->schedule, found->verdict, limits, no_watch());
    ASSERT_TRUE(s) << "seed " << seed;
    EXPECT_TRUE(shrinks_well(cell, *found, *s)) << "seed " << seed;
    EXPECT_EQ(s->preemptions, 2u) << "seed " << seed << ": from " << s->original_preemptions;
    if (s->original_preemptions > 2) ++shrunk_from_more;
  }
  // The noise makes random schedules preempt more than the bug needs: shrinking did the work.
  EXPECT_GE(shrunk_from_more, 8);
}

TEST(Shrink, KeepsThePropertyNeverGrowsAndReplaysOnThePresetsPorts) {
  struct Case {
    const char* scenario;
    const char* primitive;
    const char* strategy;
  };
  const Case cases[] = {
      {"shared-mutex-starvation", "shared_mutex_part8", "pct:d=3"},
      {"shared-mutex-starvation", "shared_mutex_part8", "random"},
      {"shared-mutex-safety", "shared_mutex_part8", "random"},
      {"mutex-safety", "mutex_part7_cancel_fixed", "random"},
      {"event-safety", "auto_reset_event_part5", "random"},
  };
  ShrinkLimits limits;
  limits.seconds = 60;  // the executions budget ends it
  int cells_with_a_finding = 0;
  for (const auto& c : cases) {
    const Cell cell = make_cell(preset(c.scenario), primitive(c.primitive), {});
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      auto strategy = make_strategy_from_description(c.strategy, seed);
      const auto found = find(cell, *strategy, 5'000);
      if (!found) continue;
      ++cells_with_a_finding;
      const auto s = shrink_violation(cell, found->schedule, found->verdict, limits, no_watch());
      ASSERT_TRUE(s) << c.scenario << " " << c.primitive << " seed " << seed;
      EXPECT_TRUE(shrinks_well(cell, *found, *s))
          << c.scenario << " " << c.primitive << " " << c.strategy << " seed " << seed;
    }
  }
  EXPECT_GE(cells_with_a_finding, 6);
}

/// shared_mutex_part8's writer starvation as PCT finds it with seed 7: a counterexample that
/// takes shrinking many trials.
struct Part8Starvation {
  Cell cell = make_cell(preset("shared-mutex-starvation"), primitive("shared_mutex_part8"), {});
  std::optional<Found> found;
  Part8Starvation() {
    auto strategy = make_strategy_from_description("pct:d=3", 7);
    found = find(cell, *strategy, 5'000);
  }
  std::optional<Shrunk> shrink(const ShrinkLimits& limits) const {
    return shrink_violation(cell, found->schedule, found->verdict, limits, no_watch());
  }
};

TEST(Shrink, TheSameCounterexampleShrinksToTheSameSchedule) {
  const Part8Starvation part8;
  ASSERT_TRUE(part8.found);
  ShrinkLimits limits;
  limits.seconds = 60;
  const auto a = part8.shrink(limits);
  const auto b = part8.shrink(limits);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->schedule, b->schedule);
  EXPECT_EQ(a->overrides, b->overrides);
  EXPECT_EQ(a->executions, b->executions);
  // Lowered parameters are named, and the shrunk starvation needs fewer steps.
  EXPECT_LT(a->steps, a->original_steps);
}

TEST(Shrink, AStepBudgetEndsAShrinkAtTheSameScheduleOnAnyMachine) {
  // The steps of all trials together: a budget a little over the counterexample's own steps
  // lets a few trials run, whatever the clock says, and two shrinks stop at the same point.
  const Part8Starvation part8;
  ASSERT_TRUE(part8.found);
  ShrinkLimits whole;
  whole.seconds = 600;
  const auto unlimited = part8.shrink(whole);
  ASSERT_TRUE(unlimited);
  ASSERT_GT(unlimited->executions, 20u);
  ShrinkLimits limits = whole;
  limits.steps = 10 * unlimited->original_steps;
  const auto a = part8.shrink(limits);
  const auto b = part8.shrink(limits);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->stopped_by, "steps");
  EXPECT_LT(a->executions, unlimited->executions);
  EXPECT_EQ(a->schedule, b->schedule);
  EXPECT_EQ(a->executions, b->executions);
}

TEST(Shrink, AScheduleThatNoLongerBreaksThePropertyIsNotShrunk) {
  // A passing execution offered as a counterexample: the first re-run does not break it.
  const Cell cell = make_cell(preset("mutex-safety"), primitive("ticket_mutex"), {});
  RandomStrategy random(1);
  RecordingStrategy recorder(random);
  const Execution execution = *recorder.new_execution();
  Observations obs;
  execute(cell, *make_runtime(cell, false), recorder, execution, obs, no_watch());
  const ExecutionVerdict claimed{true, true, "mutual_exclusion", "planted"};
  EXPECT_FALSE(
      shrink_violation(cell, recorder.schedule().value(), claimed, ShrinkLimits{}, no_watch()));
}

}  // namespace
}  // namespace backends_shrink_test
}  // namespace syncstress::scenarios
