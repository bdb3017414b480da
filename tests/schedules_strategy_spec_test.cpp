// Where a strategy runs is decided once, by the schedules layer: a --schedule parses into a
// typed spec whose alternative names the backend, and a recorded schedule string into one that
// names where it replays.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress {
namespace {

TEST(SchedulesStrategySpec, SimStrategiesParseIntoASimSpecThatBuildsThem) {
  const auto spec = parse_strategy_spec("pct:d=2,k=50");
  ASSERT_TRUE(std::holds_alternative<SimStrategySpec>(spec));
  const auto& sim = std::get<SimStrategySpec>(spec);
  EXPECT_EQ(sim.name, "pct");
  EXPECT_EQ(sim.make(7)->describe(), "pct:d=2,k=50");
  EXPECT_EQ(describe(spec), "pct:d=2,k=50");
  EXPECT_EQ(describe(parse_strategy_spec("pct")), "pct:d=3,k=1000");
}

TEST(SchedulesStrategySpec, RelacyStrategiesParseIntoARelacySearch) {
  const auto spec = parse_strategy_spec("relacy-bound:bound=2");
  ASSERT_TRUE(std::holds_alternative<RelacySearch>(spec));
  EXPECT_EQ(std::get<RelacySearch>(spec).scheduler, "bound");
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

TEST(SchedulesStrategySpec, AllStrategiesListsTheSimOnesThenRelacys) {
  const auto all = all_strategies();
  ASSERT_EQ(all.size(), strategy_catalog().size() + relacy_strategy_catalog().size());
  EXPECT_EQ(all.front().name, strategy_catalog().front().name);
  EXPECT_EQ(all.back().name, relacy_strategy_catalog().back().name);
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
  EXPECT_EQ(std::get<RelacySchedule>(relacy).scheduler, "random");
  EXPECT_EQ(std::get<RelacySchedule>(relacy).state, "1001 ");
  EXPECT_THROW(parse_schedule_string("rl1.nope.1"), ScheduleFormatError);
  EXPECT_THROW(parse_schedule_string("S1"), ScheduleFormatError);
}

}  // namespace
}  // namespace syncstress
