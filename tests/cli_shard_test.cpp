// Shards (`run --shard K/N`) and `merge`: N processes cover a search exactly once between them,
// and the merge of their reports is the report of the unsharded run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli_harness.hpp"
#include "report_totals.hpp"
#include "scenarios/metrics.hpp"

namespace syncstress::testing {
namespace cli_shard_test {
namespace {

using nlohmann::json;

/// Every cell's totals (report_totals.hpp).
json essentials(const json& report) {
  json out = json::array();
  for (const auto& c : report.at("cells")) out.push_back(cell_totals(c));
  return out;
}

/// What a merge of shards must share with the unsharded run.
enum class Same {
  everything,  // executions, steps, verdicts, violations and coverage
  classes,     // a reducing search: classes, completed executions, verdicts (classes_totals);
               // every N >= 2 merges to the same report in everything
};

/// Runs `args` unsharded and as N = 1, 2, 3, 7 shards merged; each merge must equal the
/// unsharded report in what `same` says.
void expect_shards_merge_to_whole(const std::vector<std::string>& args, int expected_exit,
                                  Same same = Same::everything) {
  TempDir dir;
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--quiet", "--out", "whole.json"});
  const auto whole = run_cli(whole_args, dir.path());
  ASSERT_EQ(whole.exit_code, expected_exit) << whole.err;
  const json whole_report = read_json(dir.path() / "whole.json");
  const json expected = essentials(whole_report);
  json first_split;  // the merge of N = 2
  for (const int n : {1, 2, 3, 7}) {
    std::vector<std::string> merge_args = {"merge", "--quiet", "--out", "merged.json"};
    std::uint64_t executions_seen = 0;
    for (int k = 1; k <= n; ++k) {
      const std::string out = "shard-" + std::to_string(k) + ".json";
      auto shard_args = args;
      shard_args.insert(
          shard_args.end(),
          {"--quiet", "--shard", std::to_string(k) + "/" + std::to_string(n), "--out", out});
      const auto shard = run_cli(shard_args, dir.path());
      ASSERT_TRUE(shard.exit_code == 0 || shard.exit_code == expected_exit) << shard.err;
      executions_seen += read_json(dir.path() / out).at("cells")[0].at("executions").get<int>();
      merge_args.push_back(out);
    }
    const auto merged = run_cli(merge_args, dir.path());
    ASSERT_EQ(merged.exit_code, expected_exit) << "N=" << n << ": " << merged.err;
    const json merged_report = read_json(dir.path() / "merged.json");
    const json got = essentials(merged_report);
    if (expected_exit == 0 && (same == Same::everything || n == 1)) {
      EXPECT_EQ(got, expected) << "N=" << n;
    } else if (expected_exit == 0) {
      EXPECT_EQ(classes_totals(merged_report.at("cells")[0]),
                classes_totals(whole_report.at("cells")[0]))
          << "N=" << n;
      if (first_split.is_null()) first_split = got;
      EXPECT_EQ(got, first_split) << "N=" << n;
    } else {
      // Each shard stops at its own first violation: the verdict is the unsharded one.
      EXPECT_EQ(got[0]["verdict"], expected[0]["verdict"]) << "N=" << n;
      EXPECT_GE(got[0]["violations"].get<int>(), 1) << "N=" << n;
    }
    EXPECT_GT(executions_seen, 0u);
  }
}

TEST(CliShard, ReducedExhaustiveSearchShardsMergeToTheUnshardedSearch) {
  expect_shards_merge_to_whole(
      {"run", "--scenario", "mutex-safety", "--primitive", "mutex_part7", "--schedule",
       "exhaustive", "--set", "actors=2", "--set", "rounds=1", "--executions", "1000000"},
      0, Same::classes);
}

TEST(CliShard, PlainExhaustiveSearchShardsMergeToTheUnshardedSearch) {
  expect_shards_merge_to_whole(
      {"run", "--scenario", "mutex-safety", "--primitive", "platform_mutex", "--schedule",
       "exhaustive:preemptions=2,reduction=none", "--set", "actors=2", "--set", "rounds=1",
       "--executions", "1000000"},
      0);
}

TEST(CliShard, SeedRangesOfARandomRunMergeToTheUnshardedRun) {
  expect_shards_merge_to_whole({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                                "--schedule", "random", "--seed", "5", "--executions", "300"},
                               0);
}

TEST(CliShard, AViolationFoundUnshardedIsFoundByTheMergedShards) {
  // --no-shrink: the verdicts are compared, not the shrunk schedules.
  expect_shards_merge_to_whole(
      {"run", "--scenario", "cancellation-during-resume", "--primitive", "mutex_part7",
       "--schedule", "exhaustive:preemptions=1", "--executions", "1000000", "--no-shrink"},
      1);
}

/// The names of the files in `dir`, sorted.
std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Runs `args` unsharded and with --jobs `jobs`: the two reports must agree in what `same`
/// says, the exit codes too, and --jobs leaves no shard report behind.
void expect_jobs_equal_to_whole(const std::vector<std::string>& args, int jobs, int expected_exit,
                                Same same = Same::everything) {
  TempDir dir;
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--quiet", "--out", "whole.json"});
  const auto unsplit = run_cli(whole_args, dir.path());
  ASSERT_EQ(unsplit.exit_code, expected_exit) << unsplit.err;
  auto jobs_args = args;
  jobs_args.insert(jobs_args.end(),
                   {"--quiet", "--jobs", std::to_string(jobs), "--out", "jobs.json"});
  const auto r = run_cli(jobs_args, dir.path());
  ASSERT_EQ(r.exit_code, expected_exit) << r.err;
  const json whole = read_json(dir.path() / "whole.json");
  const json report = read_json(dir.path() / "jobs.json");
  if (expected_exit == 0 && same == Same::everything) {
    EXPECT_EQ(essentials(report), essentials(whole));
  } else if (expected_exit == 0) {
    EXPECT_EQ(classes_totals(report.at("cells")[0]), classes_totals(whole.at("cells")[0]));
  } else {
    EXPECT_EQ(essentials(report)[0]["verdict"], essentials(whole)[0]["verdict"]);
  }
  EXPECT_EQ(report["config"]["jobs"], jobs);
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"jobs.json", "whole.json"}));
}

TEST(CliJobs, AnExhaustiveSearchRunAsJobsIsTheUnshardedSearch) {
  expect_jobs_equal_to_whole(
      {"run", "--scenario", "mutex-safety", "--primitive", "mutex_part7", "--schedule",
       "exhaustive", "--set", "actors=2", "--set", "rounds=1", "--executions", "1000000"},
      2, 0, Same::classes);
}

TEST(CliJobs, ARandomRunAsJobsIsTheUnshardedRun) {
  expect_jobs_equal_to_whole({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                              "--schedule", "random", "--seed", "9", "--executions", "300"},
                             3, 0);
}

TEST(CliJobs, AViolationFoundUnshardedIsFoundAsJobs) {
  // --no-shrink: the verdicts are compared, and every shard that finds the violation would
  // shrink its own copy (about 50 s of forked trials under ASan).
  expect_jobs_equal_to_whole(
      {"run", "--scenario", "cancellation-during-resume", "--primitive", "mutex_part7",
       "--schedule", "exhaustive", "--executions", "1000000", "--no-shrink"},
      2, 1);
}

TEST(CliJobs, AReducedSearchWithAPreemptionBoundRunsWholeInOneProcess) {
  // Split, its shards would repeat work (ExhaustiveParams::split_repeats_work): --jobs says so
  // and runs each cell whole, the same report as without --jobs.
  TempDir dir;
  const std::vector<std::string> args = {"run",
                                         "--scenario",
                                         "mutex-safety",
                                         "--primitive",
                                         "ticket_mutex",
                                         "--schedule",
                                         "exhaustive:preemptions=1",
                                         "--executions",
                                         "1000000"};
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--quiet", "--out", "whole.json"});
  ASSERT_EQ(run_cli(whole_args, dir.path()).exit_code, 0);
  auto jobs_args = args;
  jobs_args.insert(jobs_args.end(), {"--jobs", "2", "--out", "jobs.json"});
  const auto r = run_cli(jobs_args, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("--jobs 2: a reduced search with a preemption bound repeats work when "
                       "split"),
            std::string::npos)
      << r.err;
  const json whole = read_json(dir.path() / "whole.json");
  const json report = read_json(dir.path() / "jobs.json");
  EXPECT_EQ(essentials(report), essentials(whole));
  EXPECT_FALSE(report.at("config").contains("jobs"));
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"jobs.json", "whole.json"}));
}

TEST(CliJobs, AScheduleThatDoesNotSplitIsRefusedBeforeAnythingRuns) {
  TempDir dir;
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--schedule", "stress"}, {"--schedule", "relacy-full"}, {"--shard", "1/2"}}) {
    std::vector<std::string> args = {"run",         "--scenario",   "mutex-safety",
                                     "--primitive", "ticket_mutex", "--jobs",
                                     "2",           "--out",        "r.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << extra[1] << ": " << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << extra[1];
  }
  const auto r = run_cli({"run", "--scenario", "mutex-safety", "--jobs", "0"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

/// The paths of every metric below `value` (a leaf or a list ends a path).
void metric_paths(const json& value, std::vector<std::string>& path,
                  std::vector<std::vector<std::string>>& out) {
  if (!value.is_object()) {
    out.push_back(path);
    return;
  }
  for (const auto& [key, v] : value.items()) {
    path.push_back(key);
    metric_paths(v, path, out);
    path.pop_back();
  }
}

TEST(CliShard, EveryMetricABackendWritesHasAMergeRule) {
  TempDir dir;
  // Each backend and each family that writes metrics of its own.
  const std::vector<std::vector<std::string>> runs = {
      {"--scenario", "mutex-fairness", "--primitive", "ticket_mutex", "--schedule", "random"},
      {"--scenario", "cancellation-during-resume", "--primitive", "mutex_part7_cancel_handoff",
       "--schedule", "random"},
      {"--scenario", "work-queue-progress", "--primitive", "locked_work_queue", "--schedule",
       "random"},
      {"--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--schedule", "exhaustive",
       "--set", "actors=2", "--set", "rounds=1"},
      {"--scenario", "shared-mutex-starvation", "--primitive", "shared_mutex_part9", "--schedule",
       "stress"},
      {"--scenario", "work-queue-progress", "--primitive", "locked_work_queue", "--schedule",
       "stress"},
      {"--scenario", "mutex-memory-model", "--primitive", "ticket_mutex", "--schedule",
       "relacy-random"},
  };
  std::size_t checked = 0;
  for (auto args : runs) {
    args.insert(args.begin(), "run");
    args.insert(args.end(), {"--executions", "20", "--quiet", "--out", "r.json"});
    const auto r = run_cli(args, dir.path());
    ASSERT_EQ(r.exit_code, 0) << args[2] << " " << args[6] << ": " << r.err;
    std::vector<std::vector<std::string>> paths;
    std::vector<std::string> path;
    metric_paths(read_json(dir.path() / "r.json").at("cells")[0].at("metrics"), path, paths);
    for (const auto& p : paths) {
      std::string dotted;
      for (const auto& key : p) dotted += (dotted.empty() ? "" : ".") + key;
      EXPECT_TRUE(scenarios::metric_merge_rule(p).has_value())
          << args[2] << " on " << args[6] << " writes " << dotted << ", which has no rule";
      ++checked;
    }
  }
  EXPECT_GT(checked, 40u);
}

TEST(CliShard, MetricsMergeEachByItsOwnRule) {
  // Two parts of a stress cell (as a resumed cell's would be joined): counts add, maxima take
  // the larger, histograms add their buckets' counts, rates and percentiles are left out.
  TempDir dir;
  const auto wait = [](std::uint64_t count, std::uint64_t max, json buckets) {
    return json{{"count", count}, {"p50", 10}, {"max", max}, {"buckets", buckets}};
  };
  json a = {{"search_complete", true},
            {"acquisitions", 5},
            {"executions_breaking", {{"deadlock", 1}}},
            {"stress", {{"threads", 4}, {"wait_ns", wait(3, 70, {{8, 2}, {64, 1}})}}}};
  json b = {{"search_complete", false},
            {"acquisitions", 7},
            {"jain_fairness_index", 0.9},
            {"executions_breaking", {{"deadlock", 2}, {"fifo_handoff", 1}}},
            {"stress", {{"threads", 4}, {"wait_ns", wait(4, 40, {{8, 1}, {16, 3}})}}}};
  // Through merge: two shard reports of a random run whose metrics are replaced by a and b.
  for (const auto* shard : {"1/2", "2/2"}) {
    ASSERT_EQ(run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                       "--schedule", "random", "--executions", "10", "--quiet", "--shard", shard,
                       "--out", std::string("s") + shard[0] + ".json"},
                      dir.path())
                  .exit_code,
              0);
  }
  for (const auto& [file, metrics] : {std::pair{"s1.json", a}, std::pair{"s2.json", b}}) {
    json report = read_json(dir.path() / file);
    report["cells"][0]["metrics"] = metrics;
    std::ofstream(dir.path() / file) << report.dump();
  }
  const auto merged =
      run_cli({"merge", "--quiet", "--out", "m.json", "s1.json", "s2.json"}, dir.path());
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const json m = read_json(dir.path() / "m.json").at("cells")[0].at("metrics");
  EXPECT_EQ(m["search_complete"], false);
  EXPECT_EQ(m["acquisitions"], 12);
  EXPECT_EQ(m["executions_breaking"], (json{{"deadlock", 3}, {"fifo_handoff", 1}}));
  EXPECT_EQ(m["stress"]["threads"], 4);
  EXPECT_EQ(m["stress"]["wait_ns"]["count"], 7);
  EXPECT_EQ(m["stress"]["wait_ns"]["max"], 70);
  EXPECT_EQ(m["stress"]["wait_ns"]["buckets"], (json{{8, 3}, {16, 3}, {64, 1}}));
  EXPECT_FALSE(m["stress"]["wait_ns"].contains("p50"));
  EXPECT_FALSE(m.contains("jain_fairness_index"));  // one part's index is not the whole's
  EXPECT_EQ(m["not_merged"], (json{"jain_fairness_index", "stress.wait_ns.p50"}));
}

class CliShardInput : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto* shard : {"1/2", "2/2"}) {
      const std::string out = std::string("s") + shard[0] + ".json";
      ASSERT_EQ(
          run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--schedule",
                   "random", "--executions", "20", "--quiet", "--shard", shard, "--out", out},
                  dir_.path())
              .exit_code,
          0);
    }
    ASSERT_EQ(run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                       "--schedule", "random", "--executions", "21", "--quiet", "--shard", "2/2",
                       "--out", "other.json"},
                      dir_.path())
                  .exit_code,
              0);
  }
  /// Runs merge into out.json; it must refuse with exit 2, saying `why`, and write nothing.
  void expect_refused(const std::vector<std::string>& reports, const std::string& why) {
    std::vector<std::string> args = {"merge", "--out", "out.json"};
    args.insert(args.end(), reports.begin(), reports.end());
    const auto r = run_cli(args, dir_.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir_.path() / "out.json"));
  }
  TempDir dir_;
};

TEST_F(CliShardInput, MergeRefusesCellsNoRunWrites) {
  const json original = read_json(dir_.path() / "s2.json");
  const json violation = {
      {"property", "mutual_exclusion"}, {"message", "forged"},   {"seed", 1}, {"schedule", ""},
      {"replay_command", ""},           {"trace", json::array()}};
  const std::vector<std::pair<std::string, std::function<void(json&)>>> forgeries = {
      {"passed with violations", [&](json& c) { c["violations"].push_back(violation); }},
      {"failed without a violation", [](json& c) { c["verdict"] = "fail"; }},
      {"above its planned_executions", [](json& c) { c["executions"] = 1'000'000; }},
      {"elapsed_seconds that is negative", [](json& c) { c["elapsed_seconds"] = -5.0; }},
      {"has steps 1, fewer than its executions 2",
       [](json& c) {
         c["executions"] = 2;
         c["steps"] = 1;
       }},
      {"an error without its text", [](json& c) { c["verdict"] = "error"; }},
  };
  for (const auto& [why, forge] : forgeries) {
    json report = original;
    forge(report["cells"][0]);
    std::ofstream(dir_.path() / "s2.json") << report.dump();
    expect_refused({"s1.json", "s2.json"}, why);
  }
  std::ofstream(dir_.path() / "s2.json") << original.dump();
}

TEST_F(CliShardInput, MergeRefusesAMissingShard) { expect_refused({"s1.json"}, "is missing"); }

TEST_F(CliShardInput, MergeRefusesAShardGivenTwice) {
  expect_refused({"s1.json", "s1.json", "s2.json"}, "given twice");
}

TEST_F(CliShardInput, MergeRefusesShardsOfDifferentRuns) {
  expect_refused({"s1.json", "other.json"}, "different runs");
}

TEST_F(CliShardInput, MergeRefusesAReportThatIsNoShard) {
  ASSERT_EQ(
      run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--schedule",
               "random", "--executions", "20", "--quiet", "--out", "whole.json"},
              dir_.path())
          .exit_code,
      0);
  expect_refused({"whole.json"}, "not a shard report");
}

TEST(CliShard, TheShardComesFromTheBatchEnginesEnvironment) {
  TempDir dir;
  const std::vector<std::string> run = {
      "run",        "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
      "--schedule", "random",     "--executions", "30",          "--quiet",
      "--out",      "r.json",     "--shard"};
  auto with = [&](const std::string& shard, const std::vector<std::string>& env) {
    auto args = run;
    args.push_back(shard);
    return run_cli(args, dir.path(), env);
  };
  auto shard_of = [&] {
    return read_json(dir.path() / "r.json").at("config").at("shard").get<std::string>();
  };
  ASSERT_EQ(with("auto/3", {"JOB_COMPLETION_INDEX=2"}).exit_code, 0);
  EXPECT_EQ(shard_of(), "3/3");
  ASSERT_EQ(
      with("auto", {"SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_MIN=4", "SLURM_ARRAY_TASK_COUNT=4"})
          .exit_code,
      0);
  EXPECT_EQ(shard_of(), "2/4");
  EXPECT_EQ(read_json(dir.path() / "r.json").at("cells")[0].at("executions"), 8);  // 8 of 30
  const auto no_env = with("auto/3", {});
  EXPECT_EQ(no_env.exit_code, 2);
  EXPECT_NE(no_env.err.find("JOB_COMPLETION_INDEX"), std::string::npos) << no_env.err;
  EXPECT_EQ(with("auto", {"JOB_COMPLETION_INDEX=0"}).exit_code, 2);  // N unknown
  EXPECT_EQ(with("auto/2", {"JOB_COMPLETION_INDEX=2"}).exit_code, 2);
  for (const auto* bad : {"0/3", "4/3", "3", "1/0", "a/b"}) {
    const auto r = with(bad, {});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
  const auto stress = run_cli({"run", "--scenario", "mutex-safety", "--schedule", "relacy-bound",
                               "--shard", "1/2", "--quiet", "--out", "x.json"},
                              dir.path());
  EXPECT_EQ(stress.exit_code, 2);
  EXPECT_NE(stress.err.find("does not split into shards"), std::string::npos) << stress.err;
}

}  // namespace
}  // namespace cli_shard_test
}  // namespace syncstress::testing
