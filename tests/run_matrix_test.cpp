// The matrix end to end, through the sim backend: verdicts against the claims,
// counterexamples that replay, and parameters that reject bad input.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "run/matrix.hpp"
#include "run/replay.hpp"
#include "scenarios/preset_files.hpp"
#include "schedules/schedule_codec.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace run_matrix_test {
namespace {

/// The preset `name` of the source tree's scenarios/.
scenarios::Preset preset(const std::string& name) {
  for (const auto& s : scenarios::list_presets(scenarios::scenarios_dir())) {
    if (s.name == name) return scenarios::load_preset(s.path);
  }
  throw std::invalid_argument("no preset " + name);
}

const PrimitiveInfo* primitive(const std::string& name) {
  for (const auto& p : all_primitives()) {
    if (p.name == name) return &p;
  }
  throw std::invalid_argument("no primitive " + name);
}

RunConfig one_cell(const std::string& scenario, const std::string& primitive_name) {
  RunConfig config;
  config.presets = {preset(scenario)};
  config.primitives = {primitive(primitive_name)};
  config.verbosity = Verbosity::quiet;
  return config;
}

/// The replay of `schedule` on one cell.
ReplayConfig replay_of(const std::string& scenario, const std::string& primitive_name,
                       const std::string& schedule,
                       const std::map<std::string, std::string>& overrides = {}) {
  ReplayConfig config;
  config.overrides = overrides;
  config.preset = preset(scenario);
  config.primitive = primitive(primitive_name);
  config.schedule = schedule;
  config.recorded = parse_schedule_string(schedule);
  return config;
}

CellResult only_cell(const RunOutcome& outcome) {
  EXPECT_EQ(outcome.cells.size(), 1u);
  return outcome.cells.front();
}

TEST(SuperviseMatrix, SharedMutexPart8FailsStarvationWithAReplayableCounterexample) {
  RunConfig config = one_cell("shared-mutex-starvation", "shared_mutex_part8");
  // The shrink's budgets in executions and steps end it, not its guard of 5 s of wall clock,
  // which a loaded machine under ASan overran (nothing smaller reported).
  config.shrink_seconds = 600;
  const auto outcome = run_matrix(config);
  const auto cell = only_cell(outcome);
  ASSERT_EQ(cell.verdict, Verdict::fail);
  ASSERT_EQ(cell.violations.size(), 1u);
  const auto& v = cell.violations.front();
  EXPECT_EQ(v.property, "starvation_freedom");
  EXPECT_FALSE(v.trace.empty());

  const auto replayed =
      replay(replay_of("shared-mutex-starvation", "shared_mutex_part8", v.schedule, v.overrides));
  ASSERT_TRUE(replayed.violation.has_value());
  EXPECT_EQ(replayed.violation->property, v.property);
  EXPECT_EQ(replayed.violation->message, v.message);
  EXPECT_EQ(replayed.trace, v.trace);
  // Shrunk, and the schedule the search found kept beside it: it replays too, with the run's
  // parameters.
  ASSERT_FALSE(v.original_schedule.empty());
  EXPECT_LT(v.steps, v.original_steps);
  const auto original =
      replay(replay_of("shared-mutex-starvation", "shared_mutex_part8", v.original_schedule));
  ASSERT_TRUE(original.violation.has_value());
  EXPECT_EQ(original.violation->property, v.property);
  EXPECT_EQ(original.steps, v.original_steps);
}

TEST(SuperviseMatrix, SharedMutexPart9PassesStarvation) {
  const auto cell =
      only_cell(run_matrix(one_cell("shared-mutex-starvation", "shared_mutex_part9")));
  EXPECT_EQ(cell.verdict, Verdict::pass) << cell.error;
  EXPECT_GT(cell.executions, 100u);
}

TEST(SuperviseMatrix, SharedMutexPart8LosesTheWakeUpOfAQueuedWriter) {
  const auto cell = only_cell(run_matrix(one_cell("shared-mutex-safety", "shared_mutex_part8")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  EXPECT_EQ(cell.violations.front().property, "deadlock");
}

TEST(SuperviseMatrix, FifoClaimIsJudgedOnlyWhereClaimed) {
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

TEST(SuperviseMatrix, CancelledWaiterOfTheAsPublishedLibraryIsResumedAfterDestruction) {
  const auto cell = only_cell(run_matrix(one_cell("cancellation-during-resume", "mutex_part7")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  EXPECT_EQ(cell.violations.front().property, "resume-after-destroy");
}

TEST(SuperviseMatrix, WorkQueuesProcessEveryItemExactlyOnceUnderSpuriousWakeUps) {
  const auto cell =
      only_cell(run_matrix(one_cell("work-queue-spurious-wakeups", "work_queue_wait_on_address")));
  EXPECT_EQ(cell.verdict, Verdict::pass);
  EXPECT_GT(cell.metrics.at("items_processed").get<double>(), 0);
}

TEST(SuperviseMatrix, UnknownSetKeyIsAUsageErrorNamingTheKnownOnes) {
  auto config = one_cell("mutex-safety", "ticket_mutex");
  config.overrides["nope"] = "1";
  try {
    run_matrix(config);
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("actors"), std::string::npos) << e.what();
  }
}

TEST(SuperviseMatrix, OutOfRangeSetValueNamesTheRange) {
  auto config = one_cell("mutex-safety", "ticket_mutex");
  config.overrides["actors"] = "99";
  try {
    run_matrix(config);
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("from 1 to 16"), std::string::npos) << e.what();
  }
}

TEST(SuperviseMatrix, PrimitiveOfAnotherKindDoesNotFitTheScenario) {
  EXPECT_THROW(run_matrix(one_cell("mutex-safety", "shared_mutex_part9")), UsageError);
}

TEST(SuperviseMatrix, ScheduleFromAnotherScenarioIsRejectedOnReplay) {
  const auto cell = only_cell(run_matrix(one_cell("shared-mutex-safety", "shared_mutex_part8")));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  EXPECT_THROW(replay(replay_of("mutex-safety", "ticket_mutex", cell.violations.front().schedule)),
               UsageError);
}

TEST(SuperviseMatrix, WithSeveralPresetsANamedPrimitiveRunsWhereItFits) {
  RunConfig config = one_cell("mutex-safety", "ticket_mutex");
  config.presets.push_back(preset("shared-mutex-safety"));
  config.executions = 5;
  const auto outcome = run_matrix(config);
  ASSERT_EQ(outcome.cells.size(), 1u);
  EXPECT_EQ(outcome.cells.front().scenario, "mutex-safety");
}

TEST(SuperviseMatrix, PresetsScheduleIsParsedOnceAndAPresetWithABadOneIsAUsageError) {
  RunConfig config = one_cell("mutex-safety", "ticket_mutex");
  config.presets.front().schedule.strategy = "randon";
  EXPECT_THROW(run_matrix(config), UsageError);
  config.strategy = parse_strategy_spec("round-robin");  // --schedule wins over the preset's
  const auto outcome = run_matrix(config);
  ASSERT_EQ(outcome.cells.size(), 1u);
  EXPECT_EQ(outcome.cells.front().schedule, "round-robin");
}

TEST(SuperviseMatrix, APresetsMemoryModelIsEverySimSchedulesUnlessItNamesOne) {
  RunConfig config = one_cell("shared-mutex-memory-model", "shared_mutex_part9");
  ASSERT_EQ(config.presets.front().memory, MemoryModel::c11);
  config.strategy = parse_strategy_spec("exhaustive");
  const CellResult weak = only_cell(run_matrix(config));
  EXPECT_EQ(weak.schedule, "exhaustive:memory=c11");
  EXPECT_TRUE(weak.metrics.at("search_complete").get<bool>());
  // Named, sc wins, and the schedule column says so: fewer executions (no reads-from choices).
  config.strategy = parse_strategy_spec("exhaustive:memory=sc");
  const CellResult sc = only_cell(run_matrix(config));
  EXPECT_EQ(sc.schedule, "exhaustive:memory=sc");
  EXPECT_TRUE(sc.metrics.at("search_complete").get<bool>());
  EXPECT_LT(sc.executions, weak.executions);
  // Part 8's relaxed reader exit: the search's first execution races on the checked cell, shrunk,
  // before the lost wake-up sequential consistency finds.
  RunConfig part8 = one_cell("shared-mutex-memory-model", "shared_mutex_part8");
  part8.strategy = parse_strategy_spec("exhaustive");
  const CellResult raced = only_cell(run_matrix(part8));
  ASSERT_EQ(raced.verdict, Verdict::fail);
  ASSERT_EQ(raced.violations.size(), 1u);
  EXPECT_EQ(raced.violations.front().property, "data_race");
  EXPECT_NE(raced.violations.front().message.find("shared_mutex_part8.hpp"), std::string::npos)
      << raced.violations.front().message;
  // A preset with no "memory" leaves a schedule as it is.
  RunConfig plain = one_cell("shared-mutex-safety", "shared_mutex_part9");
  plain.strategy = parse_strategy_spec("random");
  plain.executions = 3;
  EXPECT_EQ(only_cell(run_matrix(plain)).schedule, "random");
}

TEST(SuperviseMatrix, AnExecutionOfMoreAnswersThanStepsShrinksWithoutBlamingTheTool) {
  // Nine actors under the C++ model and faults: an execution reaches the step bound having
  // answered more questions than it took steps (a store to read, a spurious wake-up). Shrinking
  // re-runs it from a log of every answer, however many.
  RunConfig config = one_cell("mutex-memory-model", "ticket_mutex");
  config.overrides["actors"] = "9";
  config.shrink_seconds = 0.2;
  const CellResult cell = only_cell(run_matrix(config));
  ASSERT_EQ(cell.verdict, Verdict::fail) << cell.error;
  ASSERT_EQ(cell.violations.size(), 1u);
  const Violation& v = cell.violations.front();
  EXPECT_EQ(v.property, "step_bound");
  const std::string& found = v.original_schedule.empty() ? v.schedule : v.original_schedule;
  EXPECT_GT(decode(found).choices.size(), std::size_t{1} << 16);
}

TEST(SuperviseMatrix, AllRunsEachPresetsCrossCheckAsCellsOfTheirOwnAfterThePresetsOwn) {
  RunConfig config = one_cell("mutex-memory-model", "ticket_mutex");
  scenarios::Preset& preset = config.presets.front();
  ASSERT_TRUE(preset.cross_check.has_value());
  // In process, with a sim schedule in the Relacy run's place (the CLI tests run Relacy's).
  preset.cross_check->strategy = "random";
  preset.cross_check->executions = 7;
  preset.schedule.executions = 5;
  EXPECT_EQ(run_matrix(config).cells.size(), 1u);  // only --all asks for it
  config.cross_checks = true;
  const RunOutcome both = run_matrix(config);
  ASSERT_EQ(both.cells.size(), 2u);
  EXPECT_EQ(both.cells[0].schedule, "portfolio:memory=c11");
  EXPECT_EQ(both.cells[0].executions, 5u);
  EXPECT_EQ(both.cells[1].schedule, "random:memory=c11");
  EXPECT_EQ(both.cells[1].executions, 7u);
  // --schedule names the one schedule every cell runs under.
  config.strategy = parse_strategy_spec("round-robin");
  EXPECT_EQ(only_cell(run_matrix(config)).schedule, "round-robin:memory=c11");
}

/// `preset` with a model-checking size of `parameters`.
scenarios::Preset sized(scenarios::Preset preset, const nlohmann::json& parameters) {
  preset.model_checking = scenarios::ModelChecking{parameters, 1'000'000, 60};
  return preset;
}

TEST(SuperviseMatrix, AnExhaustiveSearchRunsThePresetAtItsModelCheckingSizeBeneathSet) {
  RunConfig config = one_cell("mutex-safety", "ticket_mutex");
  config.presets.front() = sized(config.presets.front(), {{"actors", 2}, {"rounds", 1}});
  config.strategy = parse_strategy_spec("exhaustive");
  const CellResult at_size = only_cell(run_matrix(config));
  EXPECT_EQ(at_size.parameters.at("actors"), "2");
  EXPECT_EQ(at_size.parameters.at("rounds"), "1");
  EXPECT_EQ(at_size.planned_executions, 1'000'000u);
  EXPECT_TRUE(at_size.metrics.at("search_complete").get<bool>());
  // --set wins over the model-checking size.
  config.overrides["rounds"] = "2";
  const CellResult set = only_cell(run_matrix(config));
  EXPECT_EQ(set.parameters.at("actors"), "2");
  EXPECT_EQ(set.parameters.at("rounds"), "2");
  EXPECT_GT(set.executions, at_size.executions);
  // Other schedules run the preset's own size and budget.
  config.overrides.clear();
  config.strategy = parse_strategy_spec("random");
  const CellResult sampled = only_cell(run_matrix(config));
  EXPECT_EQ(sampled.parameters.at("actors"), "3");
  EXPECT_EQ(sampled.planned_executions, config.presets.front().schedule.executions);
}

TEST(SuperviseMatrix, AViolationAtTheModelCheckingSizeNamesItAndReplaysFromItsOwnOverrides) {
  RunConfig config = one_cell("shared-mutex-safety", "shared_mutex_part8");
  config.presets.front() =
      sized(config.presets.front(), {{"actors", 3}, {"writers", 1}, {"rounds", 1}});
  config.strategy = parse_strategy_spec("exhaustive");
  const CellResult cell = only_cell(run_matrix(config));
  ASSERT_EQ(cell.verdict, Verdict::fail);
  const Violation& v = cell.violations.front();
  EXPECT_EQ(v.overrides.at("actors"), "3");
  EXPECT_EQ(v.overrides.at("writers"), "1");
  EXPECT_NE(v.replay_command.find("--set actors=3"), std::string::npos) << v.replay_command;
  const auto replayed =
      replay(replay_of("shared-mutex-safety", "shared_mutex_part8", v.schedule, v.overrides));
  ASSERT_TRUE(replayed.violation.has_value());
  EXPECT_EQ(replayed.violation->property, v.property);
}

TEST(SuperviseMatrix, ASpuriousWakeUpFoundByTheReducedSearchReplaysAndShrinksWithItsRules) {
  // The reduced search offers a thread fewer spurious returns (Execution::reduced): its
  // schedules replay, and shrink, only under the same rules, which their description carries.
  RunConfig config = one_cell("semaphore-spurious-wakeups", "cooperative_semaphore");
  config.strategy = parse_strategy_spec("exhaustive");
  config.executions = 20;
  const CellResult cell = only_cell(run_matrix(config));
  ASSERT_FALSE(cell.violations.empty());
  const Violation& v = cell.violations.front();
  // A sim violation always carries its schedule; a hang or crash of the child may not.
  ASSERT_EQ(v.schedule.rfind("ss1.", 0), 0u) << v.property << ": " << v.message;
  const auto replayed = replay(
      replay_of("semaphore-spurious-wakeups", "cooperative_semaphore", v.schedule, v.overrides));
  ASSERT_TRUE(replayed.violation.has_value()) << v.schedule;
  EXPECT_EQ(replayed.violation->property, v.property);
  if (!v.original_schedule.empty()) {
    const auto original = replay(replay_of("semaphore-spurious-wakeups", "cooperative_semaphore",
                                           v.original_schedule, v.overrides));
    ASSERT_TRUE(original.violation.has_value()) << v.original_schedule;
    EXPECT_EQ(original.violation->property, v.property);
  }
}

TEST(SuperviseMatrix, EveryShippedModelCheckingSizeResolvesForEveryPrimitive) {
  for (const auto& s : scenarios::list_presets(scenarios::scenarios_dir())) {
    const scenarios::Preset p = scenarios::load_preset(s.path);
    // Every shipped preset says at which size a model-checking session runs it.
    ASSERT_TRUE(p.model_checking.has_value()) << p.name;
    RunConfig config;
    config.presets = {p};
    config.verbosity = Verbosity::quiet;
    config.strategy = parse_strategy_spec("exhaustive");
    config.executions = 1;
    EXPECT_NO_THROW(run_matrix(config)) << p.name;
  }
}

TEST(SuperviseMatrix, AMalformedModelCheckingObjectIsAUsageErrorNamingTheField) {
  const nlohmann::json base = {
      {"name", "x"}, {"description", "d"}, {"family", "safety"}, {"kind", "mutex"}};
  auto with = [&](const nlohmann::json& m) {
    nlohmann::json doc = base;
    doc["model_checking"] = m;
    return doc;
  };
  const nlohmann::json good = {
      {"parameters", {{"actors", 2}}}, {"executions", 10}, {"time_budget", 5}};
  EXPECT_NO_THROW(scenarios::parse_preset(with(good), "p.json"));
  for (const auto& [field, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"parameters", 3}, {"executions", 0}, {"time_budget", -1}, {"sizes", 1}}) {
    nlohmann::json m = good;
    m[field] = value;
    try {
      scenarios::parse_preset(with(m), "p.json");
      ADD_FAILURE() << field << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace run_matrix_test
}  // namespace syncstress::supervise
