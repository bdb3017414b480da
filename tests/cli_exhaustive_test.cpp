// An exhaustive search's counterexample from the CLI: it is the fewest-preemption one the
// search and its bounded re-searches find, and it replays.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_harness.hpp"

namespace syncstress::testing {
namespace {

using nlohmann::json;

TEST(CliExhaustive, AViolationIsReportedWithTheFewestPreemptionsItsSearchFinds) {
  TempDir dir;
  // The depth-first search first meets the resumption after destroy of mutex_part7's fixed
  // cancellation with two preemptions; bound 1 reaches one with a single preemption.
  const auto r = run_cli(
      {"run", "--scenario", "cancellation-during-resume", "--primitive", "mutex_part7_cancel_fixed",
       "--schedule", "exhaustive", "--executions", "1000000", "--quiet", "--out", "r.json"},
      dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json cell = json::parse(read_file(dir.path() / "r.json")).at("cells")[0];
  ASSERT_EQ(cell.at("violations").size(), 1u);
  const json& v = cell.at("violations")[0];
  EXPECT_EQ(v.at("preemptions"), 1);
  ASSERT_TRUE(v.contains("first_found"));
  EXPECT_EQ(v.at("first_found").at("preemptions"), 2);
  EXPECT_NE(v.at("first_found").at("schedule"), v.at("schedule"));
  EXPECT_GT(cell.at("metrics").at("exhaustive").at("fewer_preemptions_executions"), 0);
  const auto replay = run_cli({"replay", "r.json", "--violation", "1"}, dir.path());
  EXPECT_EQ(replay.exit_code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find(v.at("property").get<std::string>()), std::string::npos) << replay.out;
  // --verbose draws it as swimlanes: a lane per thread, the breach marked.
  const auto lanes = run_cli({"replay", "r.json", "--violation", "1", "--verbose"}, dir.path());
  EXPECT_EQ(lanes.exit_code, 1) << lanes.err;
  EXPECT_NE(lanes.out.find("  step | t0 "), std::string::npos) << lanes.out;
  EXPECT_NE(lanes.out.find("\n=> " + v.at("property").get<std::string>()), std::string::npos)
      << lanes.out;
  EXPECT_NE(lanes.out.find("harness step"), std::string::npos) << lanes.out;
  const auto all =
      run_cli({"replay", "r.json", "--violation", "1", "--verbose", "--all-steps"}, dir.path());
  EXPECT_EQ(all.out.find("folded"), std::string::npos) << all.out;
}

TEST(CliExhaustive, AViolationThatNeedsNoPreemptionIsReportedAsFound) {
  TempDir dir;
  const auto r =
      run_cli({"run", "--scenario", "cancellation-during-resume", "--primitive", "mutex_part7",
               "--schedule", "exhaustive", "--executions", "1000000", "--quiet", "--out", "r.json"},
              dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json report = json::parse(read_file(dir.path() / "r.json"));
  const json& v = report.at("cells")[0].at("violations")[0];
  EXPECT_EQ(v.at("preemptions"), 0);
  EXPECT_FALSE(v.contains("first_found"));
}

}  // namespace
}  // namespace syncstress::testing
