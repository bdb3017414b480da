// Shrinking end to end: `run` reports each sim violation shrunk, the schedule as found beside it,
// both replaying from the report; --no-shrink and --shrink-budget; a misused coroutine frame
// shrunk with each trial in a child process; bad values (exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_shrink_test {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::TempDir;

CliResult run_cell(const TempDir& dir, const std::string& scenario, const std::string& primitive,
                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run",     "--scenario", scenario, "--primitive",
                                   primitive, "--quiet",    "--out",  "report.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return testing::run_cli(args, dir.path());
}

json only_violation(const TempDir& dir) {
  const auto report = json::parse(testing::read_file(dir.path() / "report.json"));
  EXPECT_EQ(report["cells"].size(), 1u);
  EXPECT_EQ(report["cells"][0]["violations"].size(), 1u);
  return report["cells"][0]["violations"][0];
}

TEST(CliShrink, TheStarvationOfPart8IsReportedShrunkAndBothSchedulesReplay) {
  TempDir dir;
  // The shrink's executions budget ends it, not its guard of 5 s of wall clock, which a loaded
  // machine under ASan overran (stopped_by "time").
  auto r =
      run_cell(dir, "shared-mutex-starvation", "shared_mutex_part8", {"--shrink-budget", "600"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json v = only_violation(dir);
  EXPECT_EQ(v["property"], "starvation_freedom");
  ASSERT_TRUE(v.contains("original_schedule"));
  EXPECT_LT(v["steps"].get<int>(), v["original_steps"].get<int>());
  EXPECT_LE(v["preemptions"].get<int>(), v["original_preemptions"].get<int>());
  EXPECT_EQ(v["shrink"]["stopped_by"], "done");
  EXPECT_EQ(v["trace"].size(), v["steps"].get<std::size_t>());
  // The shrunk schedule replays from the report (with the parameters it lowered) ...
  r = testing::run_cli({"replay", "report.json", "--violation", "1"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("violation reproduced after " + std::to_string(v["steps"].get<int>()) +
                       " steps: starvation_freedom"),
            std::string::npos)
      << r.out;
  // ... and the one the search found, by the command kept beside it.
  const std::string original = v["original_replay_command"].get<std::string>();
  ASSERT_EQ(original.rfind("syncstress replay ", 0), 0u) << original;
  ASSERT_EQ(original.find("--set"), std::string::npos) << original;
  r = testing::run_cli(
      {"replay", "--schedule", v["original_schedule"].get<std::string>(), "--scenario",
       "shared-mutex-starvation", "--primitive", "shared_mutex_part8"},
      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("violation reproduced after " +
                       std::to_string(v["original_steps"].get<int>()) + " steps"),
            std::string::npos)
      << r.out;
}

TEST(CliShrink, NoShrinkReportsTheScheduleAsFound) {
  TempDir dir;
  const auto r = run_cell(dir, "shared-mutex-starvation", "shared_mutex_part8", {"--no-shrink"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json v = only_violation(dir);
  EXPECT_FALSE(v.contains("original_schedule"));
  EXPECT_EQ(v["shrink"]["skipped"], "--no-shrink");
}

TEST(CliShrink, AMisusedCoroutineFrameIsShrunkInChildProcesses) {
  TempDir dir;
  const auto r = run_cell(dir, "cancellation-during-resume", "mutex_part7");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json v = only_violation(dir);
  EXPECT_EQ(v["property"], "resume-after-destroy");
  EXPECT_EQ(v["shrink"]["in_children"], "a misused coroutine frame");
  ASSERT_TRUE(v.contains("original_schedule"));
  EXPECT_LE(v["steps"].get<int>(), v["original_steps"].get<int>());
  const auto replayed = testing::run_cli({"replay", "report.json"}, dir.path());
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_NE(replayed.out.find("resume-after-destroy"), std::string::npos) << replayed.out;
}

TEST(CliShrink, BadShrinkSettingsAreRefusedBeforeAnythingRuns) {
  TempDir dir;
  auto r = run_cell(dir, "mutex-safety", "ticket_mutex", {"--shrink-budget", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--shrink-budget"), std::string::npos) << r.err;
  r = run_cell(dir, "mutex-safety", "ticket_mutex", {"--shrink-budget", "2", "--no-shrink"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "report.json"));
}

}  // namespace
}  // namespace cli_shrink_test
}  // namespace syncstress
