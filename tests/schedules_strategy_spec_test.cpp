// Where a strategy runs is decided once, by the schedules layer: a --schedule parses into a
// typed spec whose alternative names the backend, and a recorded schedule string into one that
// names where it replays.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress {
namespace schedules_strategy_spec_test {
namespace {

TEST(SchedulesStrategySpec, SimStrategiesParseIntoASimSpecThatBuildsThem) {
  const auto spec = parse_strategy_spec("pct:d=2,k=50");
  ASSERT_TRUE(std::holds_alternative<SimStrategySpec>(spec));
  const auto& sim = std::get<SimStrategySpec>(spec);
  ASSERT_TRUE(std::holds_alternative<PctParams>(sim.as));
  EXPECT_EQ(std::get<PctParams>(sim.as).d, 2u);
  EXPECT_EQ(std::get<PctParams>(sim.as).k, 50u);
  EXPECT_EQ(sim.make(7)->new_execution().value().producer->describe(), "pct:d=2,k=50");
  EXPECT_EQ(describe(spec), "pct:d=2,k=50");
  EXPECT_EQ(describe(parse_strategy_spec("pct")), "pct:d=3,k=100000");
}

TEST(SchedulesStrategySpec, APortfolioCellIsNamedPortfolioWhileItsExecutionsNameTheirMember) {
  EXPECT_EQ(describe(parse_strategy_spec("portfolio")), "portfolio");
  EXPECT_EQ(describe(parse_strategy_spec("portfolio:faults=off")), "portfolio:faults=off");
  const auto spec = parse_strategy_spec("portfolio");
  auto strategy = std::get<SimStrategySpec>(spec).make(3);
  const auto first = strategy->new_execution();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->producer->describe(), "random");
  const auto second = strategy->new_execution();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->producer->describe().substr(0, 8), "pct:d=2,");
  EXPECT_TRUE(takes_seed(spec));
}

TEST(SchedulesStrategySpec, RelacyStrategiesParseIntoARelacySearch) {
  const auto spec = parse_strategy_spec("relacy-bound:bound=2");
  ASSERT_TRUE(std::holds_alternative<RelacySearch>(spec));
  EXPECT_EQ(std::get<RelacySearch>(spec).scheduler, RelacyScheduler::bound);
  EXPECT_EQ(std::get<RelacySearch>(spec).context_bound, 2u);
  EXPECT_EQ(describe(spec), "relacy-bound:bound=2");
  EXPECT_TRUE(std::holds_alternative<RelacySearch>(make_strategy_spec("relacy-random", {})));
}

TEST(SchedulesStrategySpec, UnknownNamesAndBadParametersAreRejectedWhenParsed) {
  EXPECT_THROW(parse_strategy_spec("randon"), StrategyError);
  EXPECT_THROW(parse_strategy_spec("pct:d=0"), StrategyError);
  EXPECT_THROW(parse_strategy_spec("pct:nope=1"), StrategyError);
  EXPECT_THROW(parse_strategy_spec("relacy-random:bound=2"), StrategyError);
  EXPECT_THROW(parse_strategy_spec("relacy-bound:bound=9"), StrategyError);
}

TEST(SchedulesStrategySpec, AllStrategiesListsTheSimOnesThenRelacysThenStress) {
  const auto all = all_strategies();
  ASSERT_EQ(all.size(), strategy_catalog().size() + relacy_strategy_catalog().size() + 1);
  EXPECT_EQ(all.front().name, strategy_catalog().front().name);
  EXPECT_EQ(all[all.size() - 2].name, relacy_strategy_catalog().back().name);
  EXPECT_EQ(all.back().name, "stress");
}

TEST(SchedulesStrategySpec, StressParsesIntoAStressSearchWithItsDefaults) {
  const auto spec = parse_strategy_spec("stress");
  ASSERT_TRUE(std::holds_alternative<StressSearch>(spec));
  const auto& s = std::get<StressSearch>(spec);
  EXPECT_EQ(s.threads, 0u);  // the machine's cores times two, resolved when it runs
  EXPECT_EQ(s.noise, StressNoise::low);
  EXPECT_TRUE(s.faults);
  EXPECT_TRUE(takes_seed(spec));
  EXPECT_GE(default_stress_threads(), 2u);
  const auto custom = std::get<StressSearch>(
      parse_strategy_spec("stress:threads=6,noise=off,faults=off,scale=2,max_wait_ms=50"));
  EXPECT_EQ(custom.threads, 6u);
  EXPECT_EQ(custom.noise, StressNoise::off);
  EXPECT_FALSE(custom.faults);
  EXPECT_EQ(describe(custom), "stress:threads=6,noise=off,faults=off,scale=2,max_wait_ms=50");
  EXPECT_THROW(parse_strategy_spec("stress:scale=0"), StrategyError);
  EXPECT_THROW(parse_strategy_spec("stress:faults=maybe"), StrategyError);
}

TEST(SchedulesStrategySpec, ScheduleStringsSayWhereTheyReplay) {
  Schedule schedule;
  schedule.strategy = "random";
  schedule.seed = 5;
  schedule.choices = {{ChoiceKind::kThread, 1, 2}};
  const auto sim = parse_schedule_string(encode(schedule));
  ASSERT_TRUE(std::holds_alternative<Schedule>(sim));
  EXPECT_EQ(std::get<Schedule>(sim).seed, 5u);
  const auto relacy = parse_schedule_string("rl1.random.1001");
  ASSERT_TRUE(std::holds_alternative<RelacySchedule>(relacy));
  EXPECT_EQ(std::get<RelacySchedule>(relacy).scheduler, RelacyScheduler::random);
  EXPECT_EQ(std::get<RelacySchedule>(relacy).state, "1001 ");
  EXPECT_THROW(parse_schedule_string("rl1.nope.1"), ScheduleFormatError);
  EXPECT_THROW(parse_schedule_string("S1"), ScheduleFormatError);
}

/// The message parse_schedule_string gives for `text`, or "" when it accepts it.
std::string refusal(const std::string& text) {
  try {
    parse_schedule_string(text);
    return "";
  } catch (const ScheduleFormatError& e) {
    return e.what();
  }
}

TEST(SchedulesStrategySpec, RelacyStatesAreCheckedWholeWhereTheyAreDecoded) {
  // Iteration 0 made syncstress-relacy divide by zero (SIGFPE), a number past 2^64 made its
  // stoull throw (exit 3), and a search tree claiming 10^14 nodes made it fill memory.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"rl1.random.0",
       "'rl1.random.0' is not a Relacy schedule string (there is no iteration 0: Relacy numbers "
       "its iterations from 1)"},
      {"rl1.random.99999999999999999999",
       "'99999999999999999999' is not a whole number below 2^64"},
      {"rl1.random.007", "'007' is not a whole number"},
      {"rl1.random.5_6", "the random scheduler's state is its iteration alone"},
      {"rl1.random.5__6", "each followed by one separator"},
      {"rl1.random.5_", "each followed by one separator"},
      {"rl1.random.-5", "each followed by one separator"},
      {"rl1.full.1_99999999999999", "a node count n and n nodes of three numbers"},
      {"rl1.full.1_1_2_0", "a node count n and n nodes of three numbers"},
      {"rl1.full.1_1_2_2_0", "node 1 of its search tree picks option 2 of 2"},
      {"rl1.bound.1_1_0_0_0", "node 1 of its search tree has 0 options"},
      {"rl1.bound.1_1_4294967296_0_0", "has 4294967296 options"},
      {"rl1.full.1_1_2_1_5", "node 1 of its search tree is of kind 5"},
      {"rl1.full." + std::string(kMaxRelacyState, '1'), "more than the 100000"},
  };
  for (const auto& [text, message] : refused) {
    EXPECT_NE(refusal(text).find(message), std::string::npos)
        << text.substr(0, 60) << " -> " << refusal(text);
  }
  // What Relacy's searches print: the iteration (from 1), and for the tree searches the path.
  EXPECT_EQ(refusal("rl1.random.18446744073709551615"), "");
  EXPECT_EQ(refusal("rl1.full.1_0"), "");
  EXPECT_EQ(refusal("rl1.full.1_23_1_0_0_2_0_3_2_0_3_2_0_3_2_0_3_3_0_0_3_0_0_2_0_3_2_0_3_2_0_3_3_0_"
                    "0_3_0_0_3_0_0_3_0_0_3_0_0_3_0_0_3_0_0_2_0_3_2_0_0_2_0_0_2_0_1_2_0_0_2_0_3"),
            "");
  EXPECT_EQ(check_relacy_state(RelacyScheduler::bound, "7 1 3 2 4 "), 7u);
}

}  // namespace
}  // namespace schedules_strategy_spec_test
}  // namespace syncstress
