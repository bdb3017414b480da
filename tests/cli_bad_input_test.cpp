// Bad input never runs anything, always exits 2 with a message that says what to fix, and
// never leaves a report (or any other file) behind.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "primitives/catalog.hpp"
#include "report/report.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_factory.hpp"
#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_bad_input_test {
namespace {

using testing::CliResult;
using testing::TempDir;

constexpr const char* kFairnessPreset =
    R"({"name": "mutex-fairness", "description": "actors contend on a mutex",
        "family": "fairness", "kind": "mutex"})";
constexpr const char* kStarvationPreset =
    R"({"name": "shared-mutex-starvation", "description": "readers keep a writer waiting",
        "family": "starvation", "kind": "shared_mutex"})";

class CliBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    scenarios_.write("mutex-fairness.json", kFairnessPreset);
    scenarios_.write("shared-mutex-starvation.json", kStarvationPreset);
  }

  /// Runs the binary in an empty working directory with the two presets above.
  CliResult run(const std::vector<std::string>& args) {
    return testing::run_cli(args, work_.path(),
                            {"SYNCSTRESS_SCENARIOS_DIR=" + scenarios_.path().string()});
  }

  /// The run exited 2, said `needle` on stderr, and left no file in the working directory.
  void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
    std::string command;
    for (const auto& a : args) command += " " + a;
    SCOPED_TRACE("syncstress" + command);
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr was: " << r.err;
    EXPECT_EQ(work_.files(), std::vector<std::string>{}) << "a file was left behind";
  }

  TempDir scenarios_;
  TempDir work_;
};

TEST_F(CliBadInput, UnknownScenarioListsEveryPresetAndTheNearest) {
  const CliResult r = run({"run", "--scenario", "mutex-fairnes"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown scenario 'mutex-fairnes'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'mutex-fairness'?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  shared-mutex-starvation"), std::string::npos) << r.err;
  EXPECT_EQ(work_.files(), std::vector<std::string>{});
}

TEST_F(CliBadInput, NearestScenarioIsTheOneWithTheSmallestEditDistance) {
  const CliResult r = run({"run", "--scenario", "shared-mutex-starvaton"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'shared-mutex-starvation'?"), std::string::npos) << r.err;
}

TEST_F(CliBadInput, UnknownPrimitiveNamesEveryPrimitiveAndTheNearest) {
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--primitive", "no_such_mutex"},
                     "--primitive: unknown primitive 'no_such_mutex'");
  const CliResult r = run({"run", "--scenario", "mutex-fairness", "--primitive", "no_such_mutex"});
  for (const auto& p : all_primitives()) {
    EXPECT_NE(r.err.find("  " + std::string(p.name) + "\n"), std::string::npos) << p.name;
  }
  if (!all_primitives().empty()) {
    EXPECT_NE(r.err.find("did you mean"), std::string::npos) << r.err;
  }
}

TEST_F(CliBadInput, UnknownScheduleListsEveryStrategyAndTheNearest) {
  const CliResult r = run({"run", "--scenario", "mutex-fairness", "--schedule", "randon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'random'?"), std::string::npos) << r.err;
  for (const auto& s : strategy_catalog()) {
    EXPECT_NE(r.err.find("  " + std::string(s.name)), std::string::npos) << s.name;
  }
  EXPECT_EQ(work_.files(), std::vector<std::string>{});
}

TEST_F(CliBadInput, ScheduleParameterOutOfRangeIsRejected) {
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--schedule", "pct:d=0"},
                     "--schedule: ");
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--schedule", "pct:nope=1"},
                     "--schedule: ");
}

TEST_F(CliBadInput, MalformedOrOutOfRangeNumbersNameTheFlagAndTheRange) {
  struct Case {
    std::string flag, value, message;
  };
  const std::vector<Case> cases = {
      {"--seed", "abc",
       "--seed: 'abc' is not a whole number; allowed range 0..18446744073709551615"},
      {"--seed", "-1", "--seed: '-1' is not a whole number; allowed range 0.."},
      {"--seed", "12 ", "--seed: '12 ' is not a whole number"},
      {"--seed", "0x10", "--seed: '0x10' is not a whole number"},
      {"--seed", "18446744073709551616", "--seed: 18446744073709551616 is out of range"},
      {"--executions", "0", "--executions: 0 is out of range; allowed range 1..1000000000"},
      {"--executions", "1000000001", "--executions: 1000000001 is out of range"},
      {"--executions", "1.5", "--executions: '1.5' is not a whole number"},
      {"--time-budget", "0", "--time-budget: 0 is out of range; allowed range 0.001..86400"},
      {"--time-budget", "86400.5", "--time-budget: 86400.5 is out of range"},
      {"--time-budget", "ten", "--time-budget: 'ten' is not a decimal number"},
      {"--time-budget", "nan", "--time-budget: 'nan' is not a decimal number"},
      {"--time-budget", "inf", "--time-budget: 'inf' is not a decimal number"},
      {"--time-budget", "-3", "--time-budget: -3 is out of range"},
      {"--time-budget", "1e3", "--time-budget: '1e3' is not a decimal number"},
  };
  for (const auto& c : cases) {
    expect_usage_error({"run", "--scenario", "mutex-fairness", c.flag, c.value}, c.message);
  }
}

TEST_F(CliBadInput, SetWithoutAnEqualsSignOrKeyIsRejected) {
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--set", "readers"},
                     "--set: 'readers' is not of the form key=value");
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--set", "=4"},
                     "--set: '=4' is not of the form key=value");
}

TEST_F(CliBadInput, RunNeedsExactlyOneOfScenarioPresetOrAll) {
  expect_usage_error({"run"}, "run needs --scenario NAME, --preset FILE or --all");
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--all"}, "excludes");
  expect_usage_error({"run", "--quiet", "--verbose", "--all"}, "excludes");
}

TEST_F(CliBadInput, OutIntoAMissingDirectoryOrOntoADirectoryIsRejected) {
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--out", "no/such/dir/r.json"},
                     "--out: directory no/such/dir does not exist");
  std::filesystem::create_directory(work_.path() / "adir");
  const CliResult r = run({"run", "--scenario", "mutex-fairness", "--out", "adir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--out: adir is a directory"), std::string::npos) << r.err;
}

TEST_F(CliBadInput, OutOntoADeviceOrAPipeOrIntoADirectoryThatTakesNoFileIsRejected) {
  // The report is renamed over --out: as root, --out /dev/null replaced the device with a file.
  // A pipe stands in for the device here, which no test should risk.
  TempDir elsewhere;
  const auto pipe = elsewhere.path() / "pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0644), 0);
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--out", pipe.string()},
                     "--out: " + pipe.string() + " is not a regular file");
  EXPECT_TRUE(std::filesystem::is_fifo(pipe));
  // /proc takes no new file, even from root: this was an internal error after the run.
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--out", "/proc/r.json"},
                     "--out: cannot create a file in /proc");
  const auto report = elsewhere.write("r.json", R"({"schema": "syncstress.report/1",
      "config": {}, "cells": []})");
  expect_usage_error({"gate", "--write-baseline", pipe.string(), report.string()},
                     "--write-baseline: " + pipe.string() + " is not a regular file");
  expect_usage_error({"gate", report.string(), "--junit", "/proc/j.xml"},
                     "--junit: cannot create a file in /proc");
}

TEST_F(CliBadInput, ArgumentsThatAreNotUtf8AreReportedNotAnInternalError) {
  // The report's command line and file names are JSON strings, which must be UTF-8:
  // nlohmann::json refused to write the report after the run (type_error.316, exit 3).
  const std::string name = "r\xff.json";
  const CliResult r = run({"run", "--scenario", "mutex-fairness", "--primitive", "ticket_mutex",
                           "--executions", "1", "--quiet", "--out", name});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string text = testing::read_file(work_.path() / name);
  EXPECT_NE(text.find("r\xef\xbf\xbd.json"), std::string::npos) << text;  // U+FFFD
  EXPECT_NO_THROW(report::read_report(work_.path() / name));
}

TEST_F(CliBadInput, MissingOrMalformedPresetFileIsRejected) {
  expect_usage_error({"run", "--preset", "missing.json"}, "missing.json: no such preset file");
  TempDir elsewhere;
  const auto broken = elsewhere.write("broken.json", "{\"name\": ");
  expect_usage_error({"run", "--preset", broken.string()}, "not valid JSON");
  const auto not_object = elsewhere.write("list.json", "[1, 2]");
  expect_usage_error({"run", "--preset", not_object.string()}, "must be a JSON object");
}

TEST_F(CliBadInput, ReplayOfAMissingMalformedOrForeignReportIsRejected) {
  expect_usage_error({"replay", "nope.json"}, "nope.json: no such report file");
  TempDir elsewhere;
  const auto broken = elsewhere.write("broken.json", "{\"schema\": \"syncstress.report/1\",");
  expect_usage_error({"replay", broken.string()}, "not valid JSON");
  const auto foreign = elsewhere.write("foreign.json", R"({"schema": "other/2", "cells": []})");
  expect_usage_error({"replay", foreign.string()}, "this tool reads \"syncstress.report/1\"");
  const auto no_cells = elsewhere.write("nocells.json", R"({"schema": "syncstress.report/1"})");
  expect_usage_error({"replay", no_cells.string()}, "needs a field \"config\"");
  const auto bad_verdict = elsewhere.write(
      "verdict.json",
      R"({"schema": "syncstress.report/1", "config": {}, "cells": [{"primitive": "p",
          "scenario": "s", "schedule": "random", "verdict": "maybe", "executions": 1,
          "elapsed_seconds": 0.1, "violations": []}]})");
  expect_usage_error({"replay", bad_verdict.string()}, "has verdict \"maybe\"");
}

TEST_F(CliBadInput, ReplayViolationIndexOutsideTheReportIsRejected) {
  report::RunDescription config;
  config.scenarios = {"mutex-fairness"};
  RunOutcome outcome;
  CellResult cell;
  cell.primitive = "some_mutex";
  cell.scenario = "mutex-fairness";
  cell.schedule = "random";
  cell.verdict = Verdict::fail;
  cell.violations.push_back({"fifo_handoff", "actor 2 overtook actor 1", 7, "S1", "", {}});
  cell.violations.push_back({"fifo_handoff", "actor 3 overtook actor 1", 8, "S2", "", {}});
  outcome.cells.push_back(cell);
  TempDir elsewhere;
  const auto path = elsewhere.path() / "r.json";
  report::write_report(
      path, report::build_report(report::current_context({"syncstress"}), config, outcome));
  expect_usage_error({"replay", path.string(), "--violation", "3"},
                     "--violation: 3 is out of range; allowed range 1..2");
  expect_usage_error({"replay", path.string(), "--violation", "0"},
                     "--violation: 0 is out of range; allowed range 1..2");
  const auto empty = elsewhere.path() / "empty.json";
  report::write_report(
      empty, report::build_report(report::current_context({"syncstress"}), config, RunOutcome{}));
  expect_usage_error({"replay", empty.string()}, "the report has no violation to replay");
}

TEST_F(CliBadInput, ReplayByScheduleNeedsAKnownScenarioAndAPrimitive) {
  expect_usage_error({"replay"}, "replay needs a REPORT.json or --schedule STRING");
  expect_usage_error({"replay", "--schedule", "S1"}, "needs --scenario NAME or --preset FILE");
  expect_usage_error({"replay", "--schedule", "S1", "--scenario", "mutex-fairnes"},
                     "did you mean 'mutex-fairness'?");
  expect_usage_error({"replay", "--schedule", "S1", "--scenario", "mutex-fairness"},
                     "needs --primitive NAME");
  expect_usage_error({"replay", "--scenario", "mutex-fairness"}, "requires --schedule");
}

TEST_F(CliBadInput, ReplayOfAScheduleThatRunsOutOfChoicesSaysItDoesNotFitTheScenario) {
  // A well-formed schedule without a choice: the scenario's first question finds none, inside
  // the execution, which the runtime ends with an exception.
  const std::string schedule = encode(Schedule{"random", 1, {}});
  expect_usage_error({"replay", "--schedule", schedule, "--scenario", "mutex-fairness",
                      "--primitive", "ticket_mutex"},
                     "--schedule does not fit scenario 'mutex-fairness' on primitive "
                     "'ticket_mutex': replay diverged at choice #0: the program asked a thread "
                     "choice among 2 runnable threads, but the schedule has only 0 choices");
}

TEST_F(CliBadInput, GateRejectsMissingOrMalformedReportsAndBaselinesAndWritesNoJunit) {
  TempDir elsewhere;
  const auto report = elsewhere.write("r.json", R"({"schema": "syncstress.report/1",
      "config": {}, "cells": []})");
  const auto baseline = elsewhere.write("b.json", R"({"schema": "syncstress.baseline/1",
      "cells": []})");
  expect_usage_error({"gate"}, "reports is required");
  expect_usage_error({"gate", "--baseline", baseline.string(), "missing.json", "--junit", "j.xml"},
                     "missing.json: no such report file");
  const auto broken = elsewhere.write("broken.json", "not json");
  expect_usage_error({"gate", "--baseline", baseline.string(), broken.string(), "--junit", "j.xml"},
                     "not valid JSON");
  // The default baseline, results/baseline.json, does not exist in the empty working dir.
  expect_usage_error({"gate", report.string(), "--junit", "j.xml"},
                     "results/baseline.json: no such baseline file");
  const auto bad_baseline = elsewhere.write("bb.json", R"({"schema": "syncstress.baseline/1",
      "cells": [{"primitive": "p", "scenario": "s", "verdict": "great"}]})");
  expect_usage_error(
      {"gate", "--baseline", bad_baseline.string(), report.string(), "--junit", "j.xml"},
      "has verdict \"great\"");
  expect_usage_error({"gate", "--baseline", report.string(), report.string()},
                     "not a syncstress baseline");
  expect_usage_error(
      {"gate", "--baseline", baseline.string(), report.string(), "--junit", "no/dir/j.xml"},
      "--junit: directory no/dir does not exist");
}

/// A preset file of family safety whose parameter "actors" is `value` (JSON text).
std::string preset_with_actors(const std::string& value) {
  return R"({"name": "odd", "description": "d", "family": "safety", "kind": "mutex",
             "parameters": {"actors": )" +
         value + "}}";
}

/// A report with one failing cell of mutex-safety; the run named `preset_file` if not empty.
void write_failing_report(const std::filesystem::path& path,
                          const std::filesystem::path& preset_file = {}) {
  report::RunDescription config;
  if (!preset_file.empty()) config.preset_file = preset_file;
  RunOutcome outcome;
  CellResult cell;
  cell.primitive = "ticket_mutex";
  cell.scenario = "mutex-safety";
  cell.schedule = "random";
  cell.verdict = Verdict::fail;
  cell.violations.push_back({"mutual_exclusion", "two holders", 7, "rl1.random.1", "", {}});
  outcome.cells.push_back(cell);
  report::write_report(
      path, report::build_report(report::current_context({"syncstress"}), config, outcome));
}

/// What every reader of a user's JSON file says about a value nested this deep.
constexpr const char* kTooDeep = "arrays and objects nest deeper than 64 levels";

TEST_F(CliBadInput, DeeplyNestedJsonInAPresetReportOrBaselineIsAUsageErrorNotACrash) {
  // Deep enough to overflow the stack of nlohmann::json's recursive copy (SIGSEGV, exit 139).
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  TempDir elsewhere;
  const auto preset = elsewhere.write("deep-preset.json", preset_with_actors(deep));
  expect_usage_error({"run", "--preset", preset.string()},
                     "deep-preset.json: " + std::string(kTooDeep));
  expect_usage_error({"replay", "--schedule", "rl1.random.1", "--preset", preset.string(),
                      "--primitive", "ticket_mutex"},
                     "deep-preset.json: " + std::string(kTooDeep));
  // A report of a run of that preset: replay loads the preset it names.
  const auto report_of_preset = elsewhere.path() / "of-deep-preset.json";
  write_failing_report(report_of_preset, preset);
  expect_usage_error({"replay", report_of_preset.string(), "--violation", "1"},
                     "deep-preset.json: " + std::string(kTooDeep));
  const auto report = elsewhere.write(
      "deep-report.json", R"({"schema": "syncstress.report/1", "config": {"overrides": )" + deep +
                              R"(}, "cells": []})");
  expect_usage_error({"replay", report.string(), "--violation", "1"},
                     "deep-report.json: " + std::string(kTooDeep));
  const auto baseline = elsewhere.write("b.json", R"({"schema": "syncstress.baseline/1",
      "cells": []})");
  expect_usage_error({"gate", "--baseline", baseline.string(), report.string()},
                     "deep-report.json: " + std::string(kTooDeep));
  const auto deep_baseline = elsewhere.write(
      "deep-baseline.json", R"({"schema": "syncstress.baseline/1", "cells": )" + deep + "}");
  const auto fine_report = elsewhere.write("r.json", R"({"schema": "syncstress.report/1",
      "config": {}, "cells": []})");
  expect_usage_error({"gate", "--baseline", deep_baseline.string(), fine_report.string()},
                     "deep-baseline.json: " + std::string(kTooDeep));
  // The directory of presets is read by `list` and by every --scenario lookup.
  scenarios_.write("deep.json", preset_with_actors(deep));
  expect_usage_error({"list", "scenarios"}, "deep.json: " + std::string(kTooDeep));
}

TEST_F(CliBadInput, ANumberTooLargeForADoubleInAPresetReportOrBaselineIsAUsageError) {
  // nlohmann::json throws out_of_range.406 for it, which the tool called an internal error.
  const std::string too_large = "is too large: numbers must fit a double";
  TempDir elsewhere;
  const auto preset = elsewhere.write("big-preset.json", preset_with_actors("1e400"));
  expect_usage_error({"run", "--preset", preset.string()},
                     "big-preset.json: the number 1e400 at line 2, column 39 " + too_large);
  const auto report = elsewhere.write("big-report.json", R"({"schema": "syncstress.report/1",
      "config": {}, "cells": [], "summary": {"cells": 1e400}})");
  expect_usage_error({"replay", report.string()}, "big-report.json: the number 1e400");
  const auto baseline = elsewhere.write("big-baseline.json", R"({"schema": "syncstress.baseline/1",
      "cells": [{"primitive": "p", "scenario": "s", "verdict": "pass", "weight": -2e999}]})");
  const auto fine_report = elsewhere.write("r.json", R"({"schema": "syncstress.report/1",
      "config": {}, "cells": []})");
  expect_usage_error({"gate", "--baseline", baseline.string(), fine_report.string()},
                     "big-baseline.json: the number -2e999");
  expect_usage_error({"gate", "--baseline", baseline.string(), report.string()},
                     "big-report.json: the number 1e400");
}

TEST_F(CliBadInput, UnknownSubcommandFlagOrListSectionExits2) {
  expect_usage_error({"frobnicate"}, "");
  expect_usage_error({"run", "--scenario", "mutex-fairness", "--bogus"}, "--bogus");
  expect_usage_error({"list", "primitivs"}, "did you mean 'primitives'?");
  expect_usage_error({}, "A subcommand is required");
}

TEST_F(CliBadInput, ABrokenPresetInTheScenariosDirectoryIsAUsageError) {
  scenarios_.write("broken.json", "{");
  expect_usage_error({"list", "scenarios"}, "broken.json: not valid JSON");
}

}  // namespace
}  // namespace cli_bad_input_test
}  // namespace syncstress
