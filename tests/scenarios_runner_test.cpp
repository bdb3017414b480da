// The scenario runner end to end: verdicts against the claims, counterexamples that replay,
// and parameters that reject bad input.
#include <gtest/gtest.h>

#include <string>

#include "runner.hpp"
#include "scenarios/params.hpp"

namespace syncstress {
namespace {

RunConfig one_cell(const std::string& scenario, const std::string& primitive) {
  RunConfig config;
  config.scenarios = {scenario};
  config.primitives = {primitive};
  config.verbosity = Verbosity::quiet;
  return config;
}

CellResult only_cell(const RunOutcome& outcome) {
  EXPECT_EQ(outcome.cells.size(), 1u);
  return outcome.cells.front();
}

TEST(ScenariosRunner, SharedMutexPart8FailsStarvationWithAReplayableCounterexample) {
  const auto outcome = run_matrix(one_cell("shared-mutex-starvation", "shared_mutex_part8"));
  const auto cell = only_cell(outcome);
  ASSERT_EQ(cell.verdict, Verdict::fail);
  ASSERT_EQ(cell.violations.size(), 1u);
  const auto& v = cell.violations.front();
  EXPECT_EQ(v.property, "starvation_freedom");
  EXPECT_FALSE(v.trace.empty());

  ReplayConfig replay_config;
  replay_config.scenario = "shared-mutex-starvation";
  replay_config.primitive = "shared_mutex_part8";
  replay_config.schedule = v.schedule;
  const auto replayed = replay(replay_config);
  ASSERT_TRUE(replayed.violation.has_value());
  EXPECT_EQ(replayed.violation->property, v.property);
  EXPECT_EQ(replayed.violation->message, v.message);
  EXPECT_EQ(replayed.trace, v.trace);
}

TEST(ScenariosRunner, SharedMutexPart9PassesStarvation) {
  const auto cell =
      only_cell(run_matrix(one_cell("shared-mutex-starvation", "shared_mutex_part9")));
  EXPECT_EQ(cell.verdict, Verdict::pass) << cell.error;
  EXPECT_GT(cell.executions, 100u);
}

TEST(ScenariosRunner, SharedMutexPart8LosesTheWakeUpOfAQueuedWriter) {
  const auto cell = only_cell(run_matrix(one_cell("shared-mutex-safety", "shared_mutex_part8")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  EXPECT_EQ(cell.violations.front().property, "deadlock");
}

TEST(ScenariosRunner, FifoClaimIsJudgedOnlyWhereClaimed) {
  // The ticket lock claims FIFO hand-off and keeps it; the unfair event mutex does not claim
  // it and is measured, with its bypasses in the metrics.
  const auto ticket = only_cell(run_matrix(one_cell("mutex-fairness", "ticket_mutex")));
  EXPECT_EQ(ticket.verdict, Verdict::pass);
  EXPECT_EQ(ticket.metrics.at("fifo_violations"), 0);
  const auto unfair = only_cell(run_matrix(one_cell("mutex-fairness", "event_mutex")));
  EXPECT_EQ(unfair.verdict, Verdict::measured);
  EXPECT_GT(unfair.metrics.at("fifo_violations").get<int>(), 0);
  EXPECT_LT(unfair.metrics.at("jain_fairness_index").get<double>(), 1.0);
}

TEST(ScenariosRunner, CancelledWaiterOfTheAsPublishedLibraryIsResumedAfterDestruction) {
  const auto cell = only_cell(run_matrix(one_cell("cancellation-during-resume", "mutex_part7")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  EXPECT_EQ(cell.violations.front().property, "resume-after-destroy");
}

TEST(ScenariosRunner, WorkQueuesProcessEveryItemExactlyOnceUnderSpuriousWakeUps) {
  const auto cell =
      only_cell(run_matrix(one_cell("work-queue-spurious-wakeups", "work_queue_wait_on_address")));
  EXPECT_EQ(cell.verdict, Verdict::pass);
  EXPECT_GT(cell.metrics.at("items_processed").get<double>(), 0);
}

TEST(ScenariosRunner, UnknownSetKeyIsAUsageErrorNamingTheKnownOnes) {
  auto config = one_cell("mutex-safety", "ticket_mutex");
  config.overrides["nope"] = "1";
  try {
    run_matrix(config);
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("actors"), std::string::npos) << e.what();
  }
}

TEST(ScenariosRunner, OutOfRangeSetValueNamesTheRange) {
  auto config = one_cell("mutex-safety", "ticket_mutex");
  config.overrides["actors"] = "99";
  try {
    run_matrix(config);
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("from 1 to 16"), std::string::npos) << e.what();
  }
}

TEST(ScenariosRunner, PrimitiveOfAnotherKindDoesNotFitTheScenario) {
  EXPECT_THROW(run_matrix(one_cell("mutex-safety", "shared_mutex_part9")), UsageError);
}

TEST(ScenariosRunner, ScheduleFromAnotherScenarioIsRejectedOnReplay) {
  const auto cell = only_cell(run_matrix(one_cell("shared-mutex-safety", "shared_mutex_part8")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  ReplayConfig replay_config;
  replay_config.scenario = "mutex-safety";
  replay_config.primitive = "ticket_mutex";
  replay_config.schedule = cell.violations.front().schedule;
  EXPECT_THROW(replay(replay_config), UsageError);
}

TEST(ScenariosParams, PresetValuesAndOverridesAreCheckedAgainstTheSpecs) {
  using scenarios::ParamSpec;
  const std::vector<ParamSpec> specs = {
      {"n", ParamSpec::Type::integer, 1, 5, 2, "a count"},
      {"flag", ParamSpec::Type::boolean, 0, 1, 0, "a switch"},
  };
  const auto p =
      scenarios::Params::resolve(specs, nlohmann::json{{"n", 3}}, {{"flag", "true"}}, "test");
  EXPECT_EQ(p.integer("n"), 3);
  EXPECT_TRUE(p.boolean("flag"));
  EXPECT_THROW(scenarios::Params::resolve(specs, nlohmann::json{{"n", 6}}, {}, "test"), UsageError);
  EXPECT_THROW(scenarios::Params::resolve(specs, nlohmann::json{{"n", "3"}}, {}, "test"),
               UsageError);
  EXPECT_THROW(scenarios::Params::resolve(specs, {}, {{"n", "3x"}}, "test"), UsageError);
  EXPECT_THROW(scenarios::Params::resolve(specs, {}, {{"flag", "yes"}}, "test"), UsageError);
}

}  // namespace
}  // namespace syncstress
