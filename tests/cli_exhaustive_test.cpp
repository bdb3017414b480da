// An exhaustive search's counterexample from the CLI: it is the fewest-preemption one the
// search and its bounded re-searches find, and it replays.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_harness.hpp"

namespace syncstress::testing {
namespace cli_exhaustive_test {
namespace {

using nlohmann::json;

TEST(CliExhaustive, AViolationIsReportedWithTheFewestPreemptionsItsSearchFinds) {
  TempDir dir;
  // The depth-first search first meets the resumption after destroy of shared_mutex_part9's
  // fixed cancellation with two preemptions; bound 0 reaches one without any.
  const auto r =
      run_cli({"run", "--scenario", "shared-mutex-cancellation", "--primitive",
               "shared_mutex_part9_cancel_fixed", "--schedule", "exhaustive", "--set", "waiters=3",
               "--set", "cancellations=2", "--executions", "1000000", "--quiet", "--out", "r.json"},
              dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json cell = json::parse(read_file(dir.path() / "r.json")).at("cells")[0];
  ASSERT_EQ(cell.at("violations").size(), 1u);
  const json& v = cell.at("violations")[0];
  EXPECT_EQ(v.at("preemptions"), 0);
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

TEST(CliExhaustive, APrimitiveThatPollsItsQueueWithYieldIsExhaustedAtTheModelCheckingSize) {
  // cooperative_semaphore's release polls its waiter queue (try_pop; yield) until the waiter
  // that took the count negative has queued itself: a loop of reads, run as one step, so its
  // unfair schedules end instead of running to the step bound. Sequentially consistent and
  // under the C++ model (the memory-model preset's default).
  for (const char* scenario : {"semaphore-safety", "semaphore-memory-model"}) {
    TempDir dir;
    const auto r = run_cli(
        {"run", "--scenario", scenario, "--primitive", "cooperative_semaphore", "--schedule",
         "exhaustive", "--executions", "100000", "--quiet", "--out", "r.json"},
        dir.path());
    EXPECT_EQ(r.exit_code, 0) << scenario << r.err;
    const json cell = json::parse(read_file(dir.path() / "r.json")).at("cells")[0];
    EXPECT_EQ(cell.at("stopped_by"), "exhausted") << scenario;
    EXPECT_EQ(cell.at("verdict"), "pass") << scenario;
    EXPECT_TRUE(cell.at("metrics").at("search_complete").get<bool>()) << scenario;
    EXPECT_LT(cell.at("executions").get<std::int64_t>(), 5000) << scenario;
  }
}

TEST(CliExhaustive, ABoundedSearchFindsAViolationThePlainSearchFindsWithinTheSameBound) {
  // mutex_part7_cancel_fixed resumes a destroyed frame in a schedule with one preemption. The
  // plain search with bound 1 finds it; the reduced search with bound 1 must too (it once
  // exhausted its 100 executions and passed: it did not try a race's thread at the start of
  // its block, where running it takes no preemption).
  TempDir dir;
  for (const char* schedule :
       {"exhaustive:preemptions=1,reduction=none", "exhaustive:preemptions=1"}) {
    const auto r = run_cli({"run", "--scenario", "cancellation-during-resume", "--primitive",
                            "mutex_part7_cancel_fixed", "--schedule", schedule, "--executions",
                            "1000000", "--no-shrink", "--quiet", "--out", "r.json"},
                           dir.path());
    ASSERT_EQ(r.exit_code, 1) << schedule << ": " << r.err;
    const json cell = json::parse(read_file(dir.path() / "r.json")).at("cells")[0];
    ASSERT_FALSE(cell.at("violations").empty()) << schedule;
    EXPECT_EQ(cell.at("violations")[0].at("property"), "resume-after-destroy") << schedule;
    EXPECT_LE(cell.at("violations")[0].at("preemptions"), 1) << schedule;
  }
}

TEST(CliExhaustive, ASearchCutShortNeverSaysABarePassAndShowsItsEstimate) {
  TempDir dir;
  const std::vector<std::string> search = {
      "run",        "--scenario", "mutex-safety", "--primitive", "mutex_part7", "--schedule",
      "exhaustive", "--set",      "actors=3",     "--set",       "rounds=2"};
  // The whole search: its estimate is its count once complete.
  auto all_args = search;
  all_args.insert(all_args.end(), {"--executions", "1000000", "--out", "all.json"});
  const auto all = run_cli(all_args, dir.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("| pass    | "), std::string::npos) << all.out;
  const json whole = json::parse(read_file(dir.path() / "all.json")).at("cells")[0];
  const auto total = whole.at("executions").get<std::uint64_t>();
  ASSERT_GT(total, 1000u);
  EXPECT_NE(all.out.find(std::to_string(total) + " (all)"), std::string::npos) << all.out;
  EXPECT_EQ(whole.at("metrics").at("exhaustive").at("estimated_executions"), total);
  // Cut past half of it.
  const std::string half = std::to_string(total / 2 + 1);
  auto cut_args = search;
  cut_args.insert(cut_args.end(), {"--executions", half, "--out", "cut.json"});
  const auto cut = run_cli(cut_args, dir.path());
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_NE(cut.out.find("| pass (search incomplete) | " + half + " of about "), std::string::npos)
      << cut.out;
  const json cell = json::parse(read_file(dir.path() / "cut.json")).at("cells")[0];
  EXPECT_FALSE(cell.at("metrics").at("search_complete").get<bool>());
  const auto estimate =
      cell.at("metrics").at("exhaustive").at("estimated_executions").get<std::uint64_t>();
  // The estimate made past half the search, against the total it estimated.
  EXPECT_LE(estimate, 2 * total);
  EXPECT_GE(2 * estimate, total);
}

}  // namespace
}  // namespace cli_exhaustive_test
}  // namespace syncstress::testing
