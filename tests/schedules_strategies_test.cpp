// Random, PCT, round-robin, replay and recording strategies, and the factory by name, on a
// driver that asks the questions the sim runtime asks. Runtime-level tests (same trace for
// the same seed, replayed failures, PCT's guarantee) are in schedules_sim_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schedules/pct_strategy.hpp"
#include "schedules/portfolio_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/recording_strategy.hpp"
#include "schedules/replay_strategy.hpp"
#include "schedules/round_robin_strategy.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"

namespace syncstress {
namespace schedules_strategies_test {
namespace {

// Threads 0..n-1 each taking `steps` steps, plus a number draw every fifth step; returns who
// ran at each step and what was drawn.
std::vector<std::uint64_t> drive(Strategy& s, std::uint32_t n, int steps) {
  std::vector<int> left(n, steps);
  std::vector<std::uint64_t> out;
  ThreadId current = 0;
  for (int step = 0;; ++step) {
    std::vector<ThreadId> runnable;
    for (ThreadId t = 0; t < n; ++t) {
      if (left[t] > 0) runnable.push_back(t);
    }
    if (runnable.empty()) return out;
    const std::size_t i = runnable.size() > 1 ? s.next_thread(runnable, current, false) : 0;
    current = runnable.at(i);
    --left[current];
    out.push_back(current);
    if (step % 5 == 0) out.push_back(1000 + s.next_u64(7));
  }
}

std::vector<std::uint64_t> first_execution(Strategy& s, std::uint32_t n = 3, int steps = 50) {
  EXPECT_TRUE(s.new_execution());
  return drive(s, n, steps);
}

/// How an execution names its producer in a schedule string.
std::string named(const Execution& e) { return e.producer.value().describe(); }

TEST(RandomStrategy, SameSeedGivesSameChoicesAndOtherSeedsDiffer) {
  RandomStrategy a(42), b(42), c(43);
  const auto ra = first_execution(a), rb = first_execution(b), rc = first_execution(c);
  EXPECT_EQ(ra, rb);
  EXPECT_NE(ra, rc);
}

TEST(RandomStrategy, EveryExecutionRegeneratesAloneFromItsOwnSeed) {
  RandomStrategy run(2024);
  for (int i = 0; i < 20; ++i) {
    const auto execution = run.new_execution();
    ASSERT_TRUE(execution);
    const auto choices = drive(run, 3, 40);
    RandomStrategy alone(execution->seed);
    EXPECT_EQ(first_execution(alone, 3, 40), choices) << "execution " << i;
  }
}

TEST(RandomStrategy, ThreadChoicesAreRoughlyUniform) {
  RandomStrategy s(1);
  ASSERT_TRUE(s.new_execution());
  const std::vector<ThreadId> runnable{0, 1, 2, 3};
  std::vector<int> count(4);
  for (int i = 0; i < 40000; ++i) ++count[s.next_thread(runnable, 0, false)];
  for (int c : count) EXPECT_NEAR(c, 10000, 400);  // > 4 standard deviations
}

TEST(PctStrategy, DepthOneRunsOneThreadUntilItCannot) {
  // No change points: the highest-priority thread runs to the end, then the next one.
  PctStrategy s(5, 1, 100);
  const auto run = first_execution(s, 3, 20);
  std::vector<std::uint64_t> threads;
  for (auto v : run) {
    if (v < 1000) threads.push_back(v);
  }
  int switches = 0;
  for (std::size_t i = 1; i < threads.size(); ++i) switches += threads[i] != threads[i - 1];
  EXPECT_EQ(switches, 2);
}

TEST(PctStrategy, DrawsDepthMinusOneDistinctChangePointsWithinK) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    PctStrategy s(seed, 4, 10);
    ASSERT_TRUE(s.new_execution());
    const auto& cps = s.change_points();
    ASSERT_EQ(cps.size(), 3u);
    EXPECT_TRUE(std::is_sorted(cps.begin(), cps.end()));
    EXPECT_EQ(std::adjacent_find(cps.begin(), cps.end()), cps.end());
    EXPECT_GE(cps.front(), 1u);
    EXPECT_LE(cps.back(), 10u);
  }
  PctStrategy tiny(1, 5, 2);  // fewer steps than change points wanted: all of them
  ASSERT_TRUE(tiny.new_execution());
  EXPECT_EQ(tiny.change_points(), (std::vector<std::uint64_t>{1, 2}));
}

TEST(PctStrategy, TheThreadAboutToRunAtTheChangePointIsPreempted) {
  // Two threads, d = 2: one switch exactly at the change point c, none before it.
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    PctStrategy s(seed, 2, 30);
    ASSERT_TRUE(s.new_execution());
    const std::uint64_t c = s.change_points().at(0);
    const std::vector<ThreadId> both{0, 1};
    ThreadId current = 0;
    std::vector<ThreadId> ran;
    for (std::uint64_t step = 1; step <= 30; ++step) {
      current = both[s.next_thread(both, current, false)];
      ran.push_back(current);
    }
    // Before c the top thread runs; from c on the other one (at c == 1 there is no "before").
    for (std::uint64_t step = 2; step <= 30; ++step) {
      EXPECT_EQ(ran[step - 1] != ran[step - 2], step == c) << "seed " << seed << " step " << step;
    }
  }
}

TEST(PctStrategy, AYieldingThreadGivesWayToTheOthers) {
  // Thread 0 spins (yields) until thread 1 has taken 3 steps; without special handling of
  // yields, a high-priority spinner would starve thread 1 forever.
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    PctStrategy s(seed, 3, 50);
    ASSERT_TRUE(s.new_execution());
    const std::vector<ThreadId> both{0, 1};
    int progress = 0;
    ThreadId current = 1;
    bool yielded = false;
    int steps = 0;
    while (progress < 3 && steps < 50) {
      current = both[s.next_thread(both, current, yielded)];
      yielded = current == 0;  // thread 0's only step is a yield
      if (current == 1) ++progress;
      ++steps;
    }
    EXPECT_EQ(progress, 3) << "seed " << seed;
    EXPECT_LE(steps, 8) << "seed " << seed;
  }
}

/// The k an execution of PCT uses, as its producer names it.
std::uint64_t k_of(const Execution& e) { return std::get<PctParams>(e.producer.value().as).k; }

TEST(PctStrategy, KIsTheLongestExecutionSeenCappedByTheCeiling) {
  PctStrategy s(3, 3, 1000);
  RecordingStrategy recording(s);
  const auto first = recording.new_execution();
  ASSERT_TRUE(first);
  drive(recording, 3, 40);
  EXPECT_EQ(k_of(*first), 1000u);  // the first execution knows nothing better
  const auto decisions =
      std::count_if(recording.choices().begin(), recording.choices().end(),
                    [](const Choice& c) { return c.kind == ChoiceKind::kThread; });
  ASSERT_GT(decisions, 10);
  const auto second = s.new_execution();
  ASSERT_TRUE(second);
  EXPECT_EQ(k_of(*second), static_cast<std::uint64_t>(decisions));
  EXPECT_EQ(named(*second), "pct:d=3,k=" + std::to_string(decisions));
  drive(s, 2, 3);  // a shorter execution does not shrink k
  EXPECT_EQ(k_of(s.new_execution().value()), static_cast<std::uint64_t>(decisions));

  PctStrategy capped(3, 3, 10);  // the parameter is a ceiling: longer executions keep k = 10
  first_execution(capped, 3, 40);
  EXPECT_EQ(k_of(capped.new_execution().value()), 10u);

  PctStrategy high(3, 3, 100000);  // a guess far too high is replaced after one execution
  RecordingStrategy high_recording(high);
  first_execution(high_recording, 3, 5);
  EXPECT_EQ(k_of(high.new_execution().value()),
            static_cast<std::uint64_t>(
                std::count_if(high_recording.choices().begin(), high_recording.choices().end(),
                              [](const Choice& c) { return c.kind == ChoiceKind::kThread; })));
}

TEST(PctStrategy, EveryExecutionRegeneratesFromItsDescriptionAndSeed) {
  PctStrategy run(77, 3, 5);
  for (int i = 0; i < 10; ++i) {
    const auto execution = run.new_execution();
    ASSERT_TRUE(execution);
    const auto choices = drive(run, 3, 30 + i);
    auto alone = make_strategy_from_description(named(*execution), execution->seed);
    EXPECT_EQ(first_execution(*alone, 3, 30 + i), choices) << "execution " << i;
  }
}

TEST(PctStrategy, FaultsAreAParameterThatTheDescriptionCarries) {
  PctStrategy s(3, 3, 20, /*faults=*/true);
  const auto execution = s.new_execution();
  ASSERT_TRUE(execution);
  EXPECT_TRUE(execution->faults);
  EXPECT_EQ(named(*execution), "pct:d=3,k=20,faults=on");
  EXPECT_TRUE(make_strategy_from_description(named(*execution), 1)->new_execution()->faults);
  EXPECT_FALSE(PctStrategy(3, 3, 20).new_execution()->faults);
}

TEST(PortfolioStrategy, TakesItsMembersInTurnFaultsOffThenOn) {
  PortfolioStrategy s(11, 1000, /*faults=*/true);
  const std::vector<std::string> names{"random", "pct:d=2", "pct:d=3", "pct:d=5"};
  for (int i = 0; i < 16; ++i) {
    const auto execution = s.new_execution();
    ASSERT_TRUE(execution);
    drive(s, 3, 20);
    const std::string d = named(*execution);
    const std::string& name = names[static_cast<std::size_t>(i % 4)];
    EXPECT_EQ(d.substr(0, name.size()), name) << "execution " << i << ": " << d;
    const bool faults = (i / 4) % 2 == 1;
    EXPECT_EQ(execution->faults, faults) << "execution " << i;
    EXPECT_EQ(d.find("faults=on") != std::string::npos, faults) << d;
    if (i % 4 != 0 && i >= 4) {
      // The PCT members share the run's measurement: 3 threads of 20 steps, 59 decisions at
      // most (the last thread alone asks nothing).
      EXPECT_NE(d.find(",k=5"), std::string::npos) << d;
    }
  }
}

TEST(PortfolioStrategy, EveryExecutionRegeneratesFromItsDescriptionAndSeed) {
  PortfolioStrategy run(77, 1000, true);
  for (int i = 0; i < 24; ++i) {
    const auto execution = run.new_execution();
    ASSERT_TRUE(execution);
    const auto choices = drive(run, 3, 20 + i);
    auto alone = make_strategy_from_description(named(*execution), execution->seed);
    const auto regenerated = alone->new_execution();
    ASSERT_TRUE(regenerated);
    EXPECT_EQ(drive(*alone, 3, 20 + i), choices) << "execution " << i;
    EXPECT_EQ(regenerated->faults, execution->faults) << "execution " << i;
  }
}

TEST(PortfolioStrategy, FaultsOffNeverExploresFaults) {
  auto s = make_strategy("portfolio", 5, {{"faults", "off"}});
  for (int i = 0; i < 16; ++i) {
    const auto execution = s->new_execution();
    ASSERT_TRUE(execution);
    drive(*s, 2, 5);
    EXPECT_FALSE(execution->faults);
  }
}

TEST(RecordingAndReplay, AReplayExploresFaultsWhenItsProducerDid) {
  const auto explores = [](const char* producer) {
    return ReplayStrategy(Schedule{producer, 1, {}}).new_execution().value().faults;
  };
  EXPECT_TRUE(explores("random:faults=on"));
  EXPECT_TRUE(explores("pct:d=3,k=40,faults=on"));
  EXPECT_FALSE(explores("pct:d=3,k=40"));
  EXPECT_FALSE(explores("random"));
  RandomStrategy producer(3, true);
  RecordingStrategy recording(producer);
  EXPECT_TRUE(recording.new_execution().value().faults);
}

TEST(RoundRobinStrategy, RotatesThroughRunnableThreadsAndRunsOnce) {
  RoundRobinStrategy s;
  ASSERT_TRUE(s.new_execution());
  const std::vector<ThreadId> runnable{1, 3, 4};
  EXPECT_EQ(s.next_thread(runnable, 1, false), 1u);
  EXPECT_EQ(s.next_thread(runnable, 3, false), 2u);
  EXPECT_EQ(s.next_thread(runnable, 4, false), 0u);
  EXPECT_EQ(s.next_thread(runnable, 2, false), 1u);  // 2 blocked: the next id above it
  EXPECT_EQ(s.next_u64(5), 0u);
  EXPECT_FALSE(s.new_execution());
}

TEST(RecordingAndReplay, ReplayGivesBackEveryRecordedAnswerForEveryStrategy) {
  for (const char* name : {"random", "pct", "round-robin", "exhaustive"}) {
    auto inner = make_strategy(name, 99);
    RecordingStrategy recording(*inner);
    const auto execution = recording.new_execution();
    ASSERT_TRUE(execution);
    const auto original = drive(recording, 4, 30);
    const Schedule schedule = recording.schedule().value();
    EXPECT_EQ(schedule.strategy, named(*execution));
    EXPECT_EQ(schedule.seed, execution->seed);

    auto replay = make_replay_strategy(decode(encode(schedule)));
    RecordingStrategy again(*replay);
    EXPECT_EQ(first_execution(again, 4, 30), original) << name;
    EXPECT_NO_THROW(replay->finish());
    EXPECT_EQ(again.choices(), schedule.choices) << name;
    EXPECT_FALSE(again.schedule()) << "a replay's schedule is the one it was given";
    EXPECT_FALSE(replay->new_execution()) << "a replay runs once";
  }
}

TEST(RecordingAndReplay, RecordingRestartsAtEachExecution) {
  RandomStrategy inner(1);
  RecordingStrategy recording(inner);
  first_execution(recording, 2, 10);
  const auto first = recording.choices().size();
  first_execution(recording, 2, 10);
  EXPECT_EQ(recording.choices().size(), first);
}

// Expects `f` to throw ScheduleDivergence at choice `index` with `fragment` in the message.
template <class F>
void expect_divergence(F f, std::size_t index, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no divergence reported";
  } catch (const ScheduleDivergence& e) {
    EXPECT_EQ(e.index(), index);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(RecordingAndReplay, ReplayReportsEveryKindOfDivergence) {
  const Schedule s{"random", 5, {{ChoiceKind::kThread, 1, 2}, {ChoiceKind::kNumber, 2, 3}}};
  const std::vector<ThreadId> two{0, 1}, three{0, 1, 2};
  {
    ReplayStrategy r(s);
    r.new_execution();
    expect_divergence([&] { r.next_thread(three, 0, false); }, 0,
                      "asked a thread choice among 3 runnable threads, but the schedule "
                      "recorded thread 1 of 2");
  }
  {
    ReplayStrategy r(s);
    r.new_execution();
    r.next_thread(two, 0, false);
    expect_divergence([&] { r.next_thread(two, 0, false); }, 1, "recorded number 2 of 3");
  }
  {
    ReplayStrategy r(s);
    r.new_execution();
    r.next_thread(two, 0, false);
    EXPECT_EQ(r.next_u64(3), 2u);
    expect_divergence([&] { r.next_u64(2); }, 2, "the schedule has only 2 choices");
  }
  {
    ReplayStrategy r(s);
    r.new_execution();
    r.next_thread(two, 0, false);
    expect_divergence([&] { r.finish(); }, 1, "ended after 1 choices");
  }
}

TEST(StrategyFactory, BuildsEveryCataloguedStrategyByName) {
  for (const StrategyInfo& info : strategy_catalog()) {
    auto s = make_strategy(info.name, 1);
    ASSERT_NE(s, nullptr);
    EXPECT_FALSE(info.summary.empty());
    const auto execution = s->new_execution();
    ASSERT_TRUE(execution);
    // A portfolio's execution names the member it uses: never the portfolio.
    if (info.name != "portfolio") {
      EXPECT_EQ(named(*execution).substr(0, info.name.size()), info.name);
    }
  }
  const auto first_named = [](std::string_view name, const StrategyParams& params = {}) {
    return named(make_strategy(name, 1, params)->new_execution().value());
  };
  EXPECT_EQ(first_named("pct", {{"d", "2"}, {"k", "50"}}), "pct:d=2,k=50");
  EXPECT_EQ(first_named("random", {{"faults", "on"}}), "random:faults=on");
  EXPECT_EQ(first_named("portfolio"), "random");  // its first member
  EXPECT_EQ(first_named("exhaustive", {{"preemptions", "3"}}), "exhaustive:preemptions=3");
  // The memory model is the spec's, printed after the strategy's own parameters.
  const auto spec = [](std::string_view name, const StrategyParams& params = {}) {
    return parse_sim_strategy(name, params);
  };
  EXPECT_EQ(spec("exhaustive", {{"memory", "c11"}}).describe(), "exhaustive:memory=c11");
  EXPECT_EQ(spec("pct", {{"d", "2"}, {"memory", "c11"}}).describe(), "pct:d=2,k=100000,memory=c11");
  // Named, sc is printed: it overrides a preset whose default is c11, and a resumed run must
  // read it back.
  EXPECT_EQ(spec("random", {{"memory", "sc"}}).describe(), "random:memory=sc");
  EXPECT_EQ(spec("random").describe(), "random");
  EXPECT_FALSE(spec("random").memory.has_value());
  EXPECT_EQ(described_memory("exhaustive:preemptions=1,memory=c11"), MemoryModel::c11);
  EXPECT_EQ(described_memory("exhaustive:preemptions=1"), MemoryModel::sc);
}

// Expects make_strategy to throw StrategyError mentioning each fragment.
void expect_refused(std::string_view name, const StrategyParams& params,
                    const std::vector<std::string>& fragments) {
  try {
    make_strategy(name, 1, params);
    ADD_FAILURE() << "accepted " << name;
  } catch (const StrategyError& e) {
    for (const auto& f : fragments) {
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
  }
}

TEST(StrategyFactory, RefusesUnknownNamesParametersAndValuesListingTheValidOnes) {
  expect_refused("ptc", {},
                 {"unknown schedule strategy 'ptc'", "random", "pct", "round-robin", "exhaustive"});
  expect_refused("replay", {}, {"--schedule"});
  expect_refused("pct", {{"depth", "2"}}, {"unknown parameter 'depth'", "d, k"});
  expect_refused("random", {{"d", "2"}}, {"valid: faults"});
  expect_refused("round-robin", {{"d", "2"}}, {"valid: memory"});
  expect_refused("exhaustive", {{"memory", "tso"}}, {"memory='tso'", "sc", "c11"});
  expect_refused("random", {{"faults", "yes"}}, {"faults='yes'", "on or off"});
  expect_refused("pct", {{"d", "0"}}, {"d='0'", "from 1 to 64"});
  expect_refused("pct", {{"k", "ten"}}, {"k='ten'"});
  expect_refused("exhaustive", {{"preemptions", "-1"}}, {"preemptions='-1'"});
}

TEST(StrategyFactory, ParsesDescriptionsAsDescribeWritesThem) {
  const auto [name, params] = parse_strategy_description("pct:d=3,k=400");
  EXPECT_EQ(name, "pct");
  EXPECT_EQ(params, (StrategyParams{{"d", "3"}, {"k", "400"}}));
  EXPECT_EQ(parse_strategy_description("random").first, "random");
  EXPECT_THROW(parse_strategy_description("pct:d"), StrategyError);
}

}  // namespace
}  // namespace schedules_strategies_test
}  // namespace syncstress
