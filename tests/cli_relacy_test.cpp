// End to end on Relacy, as a user runs it: the *-memory-model presets under a relacy-* schedule
// (their cross check, which `run --all` runs beside their sim one) run in the syncstress-relacy
// executable and come back as ordinary cells of the report; a failing
// cell carries a Relacy schedule string (rl1....) that `replay` re-runs with its history; bad
// Relacy strategy parameters exit 2 before anything runs. --executions and --time-budget bound
// every Relacy search, and any preset runs under any schedule or says which it runs under.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_relacy_test {
namespace {

using nlohmann::json;
using testing::TempDir;

const json* find_cell(const json& report, const std::string& primitive) {
  for (const auto& c : report["cells"]) {
    if (c["primitive"] == primitive) return &c;
  }
  return nullptr;
}

TEST(CliRelacy, CorrectMutexesPassAndEveryCellSaysItRanOnRelacy) {
  TempDir dir;
  const auto r =
      testing::run_cli({"run", "--scenario", "mutex-memory-model", "--schedule", "relacy-random",
                        "--executions", "300", "--quiet", "--out", "mm.json"},
                       dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = json::parse(testing::read_file(dir.path() / "mm.json"));
  ASSERT_FALSE(report["cells"].empty());
  for (const auto& c : report["cells"]) {
    EXPECT_EQ(c["schedule"], "relacy-random") << c["primitive"];
    EXPECT_EQ(c["metrics"]["platform"], "relacy") << c["primitive"];
    EXPECT_EQ(c["verdict"], "pass") << c["primitive"] << c.dump();
    EXPECT_EQ(c["executions"], 300u) << c["primitive"];
  }
  // Every mutex runs there: the controls on atomics and futexes, and the pooled variants, whose
  // posts become Relacy dynamic threads.
  EXPECT_NE(find_cell(report, "ticket_mutex"), nullptr);
  EXPECT_NE(find_cell(report, "mutex_part7_pooled"), nullptr);
  EXPECT_NE(find_cell(report, "async_unfair_mutex"), nullptr);
}

TEST(CliRelacy, RelaxedUnlockSharedOfSharedMutexPart8IsADataRaceWithAScheduleThatReplays) {
  TempDir dir;
  auto r = testing::run_cli(
      {"run", "--scenario", "shared-mutex-memory-model", "--primitive", "shared_mutex_part8",
       "--schedule", "relacy-random", "--quiet", "--out", "sm.json"},
      dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = json::parse(testing::read_file(dir.path() / "sm.json"));
  ASSERT_EQ(report["cells"].size(), 1u);
  const auto& cell = report["cells"][0];
  EXPECT_EQ(cell["verdict"], "fail");
  ASSERT_EQ(cell["violations"].size(), 1u);
  const auto& v = cell["violations"][0];
  // Part 8's unlocks are relaxed: nothing orders one holder's access to the guarded cell before
  // the next holder's. The message names the primitive's operations that were meant to order
  // them first, with their lines, then both accesses, in the family's own source.
  EXPECT_EQ(v["property"], "data_race");
  const auto message = v["message"].get<std::string>();
  EXPECT_EQ(message.find("the primitive's "), 0U) << message;
  EXPECT_LT(message.find(" at primitives/"), message.find(" nothing between the ")) << message;
  EXPECT_GT(message.find("at scenarios/scenario_context.hpp("), message.find(" nothing between "))
      << message;
  const auto schedule = v["schedule"].get<std::string>();
  EXPECT_EQ(schedule.rfind("rl1.random.", 0), 0u) << schedule;
  EXPECT_FALSE(v["trace"].empty());
  EXPECT_NE(v["replay_command"].get<std::string>().find("--scenario shared-mutex-memory-model"),
            std::string::npos);

  r = testing::run_cli({"replay", "--schedule", schedule, "--scenario", "shared-mutex-memory-model",
                        "--primitive", "shared_mutex_part8"},
                       dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(v["property"].get<std::string>()), std::string::npos) << r.out;
}

/// `run args... --quiet --out cell.json` in `dir`; the report's one cell.
json run_one_cell(const TempDir& dir, std::vector<std::string> args, int expected_exit = 0) {
  args.insert(args.end(), {"--quiet", "--out", "cell.json"});
  const auto r = testing::run_cli(args, dir.path());
  EXPECT_EQ(r.exit_code, expected_exit) << ::testing::PrintToString(args) << r.out << r.err;
  if (r.exit_code != expected_exit) return json();
  const json report = json::parse(testing::read_file(dir.path() / "cell.json"));
  EXPECT_EQ(report["cells"].size(), 1u);
  return report["cells"].empty() ? json() : report["cells"][0];
}

TEST(CliRelacy, TheTimeBudgetBoundsEveryRelacySearch) {
  TempDir dir;
  const auto began = std::chrono::steady_clock::now();
  for (const std::string schedule : {"relacy-random", "relacy-bound:bound=3", "relacy-full"}) {
    const json cell =
        run_one_cell(dir,
                     {"run", "--scenario", "mutex-memory-model", "--primitive", "ticket_mutex",
                      "--schedule", schedule, "--executions", "1000000000", "--time-budget", "1"},
                     /*expected_exit=*/4);
    ASSERT_FALSE(cell.is_null()) << schedule;
    EXPECT_EQ(cell["stopped_by"], "time_budget") << schedule << cell.dump();
    EXPECT_EQ(cell["planned_executions"], 1000000000u) << schedule;
    EXPECT_GT(cell["executions"].get<std::uint64_t>(), 0u) << schedule;
    EXPECT_LT(cell["executions"].get<std::uint64_t>(), 1000000000u) << schedule;
    EXPECT_EQ(cell["metrics"]["search_complete"], false) << schedule;
    // Cut short by the clock with nothing broken: not a pass to rely on.
    EXPECT_EQ(cell["verdict"], "inconclusive") << schedule << cell.dump();
    // The cell's time, measured by the parent around the child: the budget and its start-up.
    EXPECT_LT(cell["elapsed_seconds"].get<double>(), 2.0) << schedule;
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - began;
  EXPECT_LT(wall.count(), 20) << "three searches of 1 s each";  // the full one ran 66 s before
}

TEST(CliRelacy, ExecutionsAreHonouredExactlyByEveryRelacySearch) {
  TempDir dir;
  for (const std::string schedule : {"relacy-random", "relacy-bound", "relacy-full"}) {
    const json cell =
        run_one_cell(dir, {"run", "--scenario", "mutex-memory-model", "--primitive", "ticket_mutex",
                           "--schedule", schedule, "--executions", "300"});
    ASSERT_FALSE(cell.is_null()) << schedule;
    EXPECT_EQ(cell["verdict"], "pass") << schedule << cell.dump();
    EXPECT_EQ(cell["executions"], 300u) << schedule;
    EXPECT_EQ(cell["planned_executions"], 300u) << schedule;
    EXPECT_EQ(cell["stopped_by"], "executions") << schedule;
  }
  // A relacy-* schedule runs with the preset's cross check's seed and budgets: iteration 1000
  // on; part 8's data race is at 1001, one iteration too far.
  json cell =
      run_one_cell(dir, {"run", "--scenario", "shared-mutex-memory-model", "--primitive",
                         "shared_mutex_part8", "--schedule", "relacy-random", "--executions", "1"});
  EXPECT_EQ(cell["executions"], 1u) << cell.dump();
  EXPECT_EQ(cell["stopped_by"], "executions");
  cell = run_one_cell(dir,
                      {"run", "--scenario", "shared-mutex-memory-model", "--primitive",
                       "shared_mutex_part8", "--schedule", "relacy-random", "--executions", "2"},
                      1);
  EXPECT_EQ(cell["executions"], 2u) << cell.dump();
  EXPECT_EQ(cell["stopped_by"], "violation");
  EXPECT_EQ(cell["violations"][0]["seed"], 1000u);
}

TEST(CliRelacy, APresetSeedIsIgnoredBySearchesWithoutOneAndAnExplicitSeedIsRefused) {
  TempDir dir;
  // mutex-safety's seed is 1, shared-mutex-memory-model's 1000: neither stops a search that
  // starts at its first schedule.
  for (const std::string schedule : {"relacy-bound", "relacy-full"}) {
    json cell = run_one_cell(dir, {"run", "--scenario", "mutex-safety", "--primitive",
                                   "ticket_mutex", "--schedule", schedule, "--executions", "50"});
    EXPECT_EQ(cell["verdict"], "pass") << schedule << cell.dump();
    EXPECT_EQ(cell["executions"], 50u) << schedule;
    cell = run_one_cell(dir, {"run", "--scenario", "shared-mutex-memory-model", "--primitive",
                              "shared_mutex_part9", "--schedule", schedule, "--executions", "50"});
    EXPECT_EQ(cell["verdict"], "pass") << schedule << cell.dump();
  }
  for (const std::string schedule : {"relacy-bound", "relacy-full", "exhaustive", "round-robin"}) {
    const auto r =
        testing::run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                          "--schedule", schedule, "--seed", "3", "--out", "seeded.json"},
                         dir.path());
    EXPECT_EQ(r.exit_code, 2) << schedule << r.out << r.err;
    EXPECT_NE(r.err.find("--seed 3: " + schedule), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" takes no seed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("random, pct, relacy-random"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "seeded.json"));
}

TEST(CliRelacy, EveryPresetRunsUnderTheSeedlessSchedulesOrSaysWhichItRunsUnder) {
  TempDir dir;
  const auto listed = testing::run_cli({"list", "scenarios", "--json"}, dir.path());
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json presets = json::parse(listed.out)["scenarios"];
  ASSERT_FALSE(presets.empty());
  for (const auto& preset : presets) {
    const auto name = preset["name"].get<std::string>();
    // The schedules that take no seed, where a preset's seed once stopped the run (round-robin
    // takes the same path as exhaustive; relacy-random the same as these two when it does not
    // fit). random and pct, the presets' own, run in the gate's `run --all`.
    for (const std::string schedule : {"relacy-bound", "relacy-full", "exhaustive"}) {
      const auto r = testing::run_cli({"run", "--scenario", name, "--schedule", schedule,
                                       "--executions", "1", "--quiet", "--out", "any.json"},
                                      dir.path());
      // 0 or 1: it ran (some primitives fail); 2, on Relacy only: it says where it runs.
      if (r.exit_code == 2 && schedule.starts_with("relacy-")) {
        EXPECT_NE(r.err.find(" does not run on "), std::string::npos) << name << " " << r.err;
        EXPECT_NE(r.err.find("random, pct"), std::string::npos) << name << " " << r.err;
      } else {
        EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1)
            << name << " " << schedule << ": " << r.exit_code << r.err;
      }
    }
  }
}

TEST(CliRelacy, BadRelacyInputExitsTwoAndWritesNothing) {
  TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {"run", "--scenario", "mutex-memory-model", "--schedule", "relacy-bound:bound=99", "--out",
       "x.json"},
      {"run", "--scenario", "mutex-memory-model", "--schedule", "relacy-random:d=3", "--out",
       "x.json"},
      {"run", "--scenario", "mutex-memory-model", "--schedule", "relacy-random", "--set",
       "actors=9", "--out", "x.json"},
      {"replay", "--schedule", "rl1.random.x", "--scenario", "mutex-memory-model", "--primitive",
       "ticket_mutex"},
  };
  for (const auto& args : cases) {
    const auto r = testing::run_cli(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[4] << ": " << r.out << r.err;
    EXPECT_FALSE(r.err.empty()) << args[4];
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "x.json"));
}

TEST(CliRelacy, ReplayOfAScheduleNoRelacyRunCouldPrintIsAUsageError) {
  // Relacy numbers its iterations from 1: iteration 0 made syncstress-relacy divide by zero
  // (SIGFPE, exit 3), a number past 2^64 made it throw from stoull (exit 3), and a made-up path
  // through the full search's tree made it index past its threads (SIGSEGV, exit 3).
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rl1.random.0", "there is no iteration 0: Relacy numbers its iterations from 1"},
      {"rl1.random.99999999999999999999",
       "'99999999999999999999' is not a whole number below 2^64"},
      {"rl1.full.1_6_9_2_0_2_1_0_2_0_1_2_1_0_3_2_0_9_6_0", "the schedule does not fit this cell"},
  };
  for (const auto& [schedule, message] : cases) {
    const auto r =
        testing::run_cli({"replay", "--schedule", schedule, "--scenario",
                          "shared-mutex-memory-model", "--primitive", "shared_mutex_part8"},
                         dir.path());
    EXPECT_EQ(r.exit_code, 2) << schedule << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << schedule << ": " << r.err;
  }
}

TEST(CliRelacy, ASeedThatWouldRunPastRelacysLastIterationIsAUsageError) {
  TempDir dir;
  const auto r =
      testing::run_cli({"run", "--scenario", "shared-mutex-memory-model", "--primitive",
                        "shared_mutex_part9", "--schedule", "relacy-random", "--seed",
                        "18446744073709551517", "--executions", "100", "--out", "x.json"},
                       dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("give a --seed of at most 18446744073709551516"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "x.json"));
}

}  // namespace
}  // namespace cli_relacy_test
}  // namespace syncstress
