// The result types' one JSON codec (what the report writes and the supervisor's pipe carries)
// and the one replay-command builder.
#include <gtest/gtest.h>

#include <string>

#include "scenarios/outcome_json.hpp"
#include "scenarios/replay_command.hpp"

namespace syncstress::scenarios {
namespace scenarios_outcome_test {
namespace {

Violation a_violation() {
  return {"mutual_exclusion", "two holders", 99, "ss1.x", "syncstress replay ...", {"1", "2"}};
}

TEST(ScenariosOutcomeJson, CellResultRoundTripsThroughJson) {
  const CellResult cell{.primitive = "ticket_mutex",
                        .scenario = "mutex-safety",
                        .schedule = "pct:d=3,k=1000",
                        .verdict = Verdict::measured,
                        .executions = 7,
                        .steps = 700,
                        .elapsed_seconds = 0.5,
                        .parameters = {{"actors", "3"}},
                        .metrics = {{"jain_fairness_index", 0.5}},
                        .violations = {a_violation()},
                        .error = "none"};
  const auto back = cell_result_from_json(to_json(cell));
  EXPECT_EQ(to_json(back), to_json(cell));
  EXPECT_EQ(back.verdict, Verdict::measured);
  ASSERT_EQ(back.violations.size(), 1u);
  EXPECT_EQ(back.violations[0].trace, a_violation().trace);
}

TEST(ScenariosOutcomeJson, MetricsThatAreNotAnObjectAreWrittenAsAnEmptyObject) {
  CellResult cell;
  cell.metrics = nullptr;
  EXPECT_EQ(to_json(cell)["metrics"], nlohmann::json::object());
}

TEST(ScenariosOutcomeJson, ReplayOutcomeRoundTripsWithAndWithoutAViolation) {
  ReplayOutcome none;
  none.steps = 12;
  none.trace = {"a"};
  EXPECT_EQ(to_json(replay_outcome_from_json(to_json(none))), to_json(none));
  EXPECT_TRUE(to_json(none)["violation"].is_null());
  ReplayOutcome some = none;
  some.violation = a_violation();
  const auto back = replay_outcome_from_json(to_json(some));
  ASSERT_TRUE(back.violation.has_value());
  EXPECT_EQ(back.violation->message, "two holders");
}

TEST(ScenariosOutcomeJson, ViolationWithoutTheOptionalFieldsReadsAsEmpty) {
  // As syncstress-relacy writes one: no seed, no replay command.
  const auto v = violation_from_json(
      {{"property", "data_race"}, {"message", "m"}, {"schedule", "7 3"}, {"trace", {"x"}}});
  EXPECT_EQ(v.property, "data_race");
  EXPECT_EQ(v.seed, 0u);
  EXPECT_EQ(v.schedule, "7 3");
  EXPECT_TRUE(v.replay_command.empty());
  EXPECT_THROW(violation_from_json({{"message", "no property"}}), nlohmann::json::exception);
}

TEST(ScenariosReplayCommand, NamesAPresetOfTheScenariosDirectoryAndQuotesTheOverrides) {
  Preset preset;
  preset.name = "mutex-safety";
  preset.file = "/src/scenarios/mutex-safety.json";
  EXPECT_EQ(replay_command(preset, "broken_mutex", {{"actors", "3"}, {"note", "it's"}}, "AbC-9"),
            "syncstress replay --schedule AbC-9 --scenario mutex-safety --primitive broken_mutex "
            "--set actors=3 --set 'note=it'\\''s'");
}

TEST(ScenariosReplayCommand, GivesAUsersOwnPresetByItsFile) {
  Preset preset;
  preset.name = "mine";
  preset.file = "/home/me/my presets/mine.json";
  EXPECT_EQ(replay_command(preset, "ticket_mutex", {}, "ss1.random.1.2.AB.cd"),
            "syncstress replay --schedule ss1.random.1.2.AB.cd --preset '/home/me/my "
            "presets/mine.json' --primitive ticket_mutex");
}

}  // namespace
}  // namespace scenarios_outcome_test
}  // namespace syncstress::scenarios
