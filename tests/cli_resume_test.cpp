// Checkpoints from the CLI: a run stopped by its time budget writes each cell's position, and
// `run --resume REPORT` goes on from there until the search is done; the resumed report then
// counts what one uninterrupted run counts, for whole runs and for shards merged afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli_harness.hpp"
#include "report_totals.hpp"

namespace syncstress::testing {
namespace cli_resume_test {
namespace {

using nlohmann::json;

json essentials(const json& cell) { return cell_totals(cell); }

/// Runs `args` with a time budget too small to finish, then resumes the report until a cell
/// has no position left. Returns the last report's name; `resumes` counts the continuations.
/// Each continuation gets twice the budget of the one before (from 2 ms, at most 1 s): a search
/// of any size ends after a few resumes, on a slow or sanitized build too, where a fixed 2 ms
/// made thousands of processes each run an execution or two.
std::string run_until_done(const TempDir& dir, std::vector<std::string> args,
                           const std::string& name, int* resumes) {
  args.insert(args.end(), {"--time-budget", "0.001", "--quiet", "--out", name + "-0.json"});
  const auto first = run_cli(args, dir.path());
  EXPECT_TRUE(first.exit_code == 4 || first.exit_code == 0) << first.err;
  std::string last = name + "-0.json";
  *resumes = 0;
  double budget = 0.002;
  while (!read_json(dir.path() / last).at("cells")[0].value("position", json()).is_null()) {
    const std::string next = name + "-" + std::to_string(++*resumes) + ".json";
    const auto r = run_cli({"run", "--resume", last, "--time-budget", std::to_string(budget),
                            "--quiet", "--out", next},
                           dir.path());
    budget = std::min(budget * 2, 1.0);
    EXPECT_TRUE(r.exit_code == 4 || r.exit_code == 0) << r.err;
    if (r.exit_code != 4 && r.exit_code != 0) break;
    last = next;
    if (*resumes > 200) {
      ADD_FAILURE() << "no end after 200 resumes";
      break;
    }
  }
  return last;
}

void expect_resumed_equals_whole(const std::vector<std::string>& args) {
  TempDir dir;
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--quiet", "--out", "whole.json"});
  ASSERT_EQ(run_cli(whole_args, dir.path()).exit_code, 0);
  int resumes = 0;
  const auto last = run_until_done(dir, args, "piece", &resumes);
  EXPECT_GT(resumes, 0) << "the first run finished: nothing was resumed";
  const json whole = read_json(dir.path() / "whole.json");
  const json resumed = read_json(dir.path() / last);
  EXPECT_EQ(essentials(resumed.at("cells")[0]), essentials(whole.at("cells")[0]));
  EXPECT_EQ(resumed.at("summary").at("pass"), 1);
  EXPECT_FALSE(resumed.at("config").at("resumed_from").get<std::string>().empty());
}

TEST(CliResume, AReducedSearchStoppedByItsTimeBudgetResumesToTheUninterruptedTotals) {
  expect_resumed_equals_whole({"run", "--scenario", "mutex-safety", "--primitive", "mutex_part7",
                               "--schedule", "exhaustive", "--set", "actors=2", "--set", "rounds=3",
                               "--executions", "1000000"});
}

TEST(CliResume, APlainSearchStoppedByItsTimeBudgetResumesToTheUninterruptedTotals) {
  expect_resumed_equals_whole({"run", "--scenario", "mutex-safety", "--primitive", "platform_mutex",
                               "--schedule", "exhaustive:preemptions=3,reduction=none", "--set",
                               "actors=2", "--set", "rounds=1", "--executions", "1000000"});
}

TEST(CliResume, ARandomRunStoppedByItsTimeBudgetResumesAtItsNextSeed) {
  expect_resumed_equals_whole({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                               "--schedule", "random", "--seed", "3", "--executions", "400"});
}

TEST(CliResume, ResumedShardsMergeToTheUninterruptedUnshardedSearch) {
  TempDir dir;
  const std::vector<std::string> args = {
      "run",        "--scenario",   "mutex-safety", "--primitive", "mutex_part7",
      "--schedule", "exhaustive",   "--set",        "actors=2",    "--set",
      "rounds=1",   "--executions", "1000000"};
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--quiet", "--out", "whole.json"});
  ASSERT_EQ(run_cli(whole_args, dir.path()).exit_code, 0);
  std::vector<std::string> merge = {"merge", "--quiet", "--out", "merged.json"};
  std::vector<std::string> merge_straight = {"merge", "--quiet", "--out", "straight.json"};
  for (const auto* shard : {"1/2", "2/2"}) {
    auto shard_args = args;
    shard_args.insert(shard_args.end(), {"--shard", shard});
    int resumes = 0;
    merge.push_back(run_until_done(dir, shard_args, std::string("shard") + shard[0], &resumes));
    const std::string straight = std::string("straight") + shard[0] + ".json";
    shard_args.insert(shard_args.end(), {"--quiet", "--out", straight});
    ASSERT_EQ(run_cli(shard_args, dir.path()).exit_code, 0);
    merge_straight.push_back(straight);
  }
  ASSERT_EQ(run_cli(merge, dir.path()).exit_code, 0);
  ASSERT_EQ(run_cli(merge_straight, dir.path()).exit_code, 0);
  // Resumed, each shard counts what it counts uninterrupted.
  EXPECT_EQ(essentials(read_json(dir.path() / "merged.json").at("cells")[0]),
            essentials(read_json(dir.path() / "straight.json").at("cells")[0]));
  // A split search runs extra executions, each ended at once (report_totals.hpp).
  EXPECT_EQ(classes_totals(read_json(dir.path() / "merged.json").at("cells")[0]),
            classes_totals(read_json(dir.path() / "whole.json").at("cells")[0]));
}

TEST(CliResume, ResumeRefusesWhatItCannotGoOnFrom) {
  TempDir dir;
  for (const auto* shard : {"1/2", "2/2"}) {
    ASSERT_EQ(run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                       "--schedule", "random", "--executions", "20", "--quiet", "--shard", shard,
                       "--out", std::string("s") + shard[0] + ".json"},
                      dir.path())
                  .exit_code,
              0);
  }
  ASSERT_EQ(
      run_cli({"merge", "s1.json", "s2.json", "--quiet", "--out", "m.json"}, dir.path()).exit_code,
      0);
  auto refused = [&](const std::vector<std::string>& args, const std::string& why) {
    const auto r = run_cli(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.json"));
  };
  refused({"run", "--resume", "m.json", "--out", "out.json"}, "merged report");
  refused({"run", "--resume", "s1.json", "--scenario", "mutex-safety", "--out", "out.json"},
          "--resume");
  auto report = read_json(dir.path() / "s1.json");
  report["cells"][0]["position"] = {{"executions_left", "many"}};
  dir.write("bad.json", report.dump());
  refused({"run", "--resume", "bad.json", "--out", "out.json"}, "position");
  refused({"run", "--resume", "missing.json", "--out", "out.json"}, "missing.json");
}

TEST(CliResume, ACheckpointRunCouldNotHaveWrittenIsRefusedNamingItsFieldBeforeAnythingRuns) {
  TempDir dir;
  const auto first =
      run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--schedule",
               "exhaustive", "--time-budget", "0.001", "--quiet", "--out", "cut.json"},
              dir.path());
  ASSERT_EQ(first.exit_code, 4) << first.err;
  const json cut = read_json(dir.path() / "cut.json");
  ASSERT_FALSE(cut.at("cells")[0].value("position", json()).is_null());
  // Each edit, and the field the refusal must name.
  const std::vector<std::pair<std::string, std::function<void(json&)>>> edits = {
      {"state.depth must be a whole number >= 0",
       [](json& search) { search["state"]["depth"] = -5; }},
      {"state.depth is 500, above", [](json& search) { search["state"]["depth"] = 500; }},
      {"field search is the plain search (reduction=none)'s, and this cell runs the reduced",
       [](json& search) { search["search"] = "plain"; }},
      {"field format is 99, and this build reads format 3",
       [](json& search) { search["format"] = 99; }},
      {"state.path[0][3] (the runnable threads) must number its bound 99",
       [](json& search) { search["state"]["path"][0][1] = 99; }},
      {"state.accesses must be an array",
       [](json& search) { search["state"]["accesses"] = json::object(); }},
      {"state.events[0] must have at least 5 elements",
       [](json& search) {
         search["state"]["events"] = json::array({json::array({1, 2})});
       }},
      {"state.prefix[3] must be 0 or 1",
       [](json& search) {
         search["state"]["prefix"] = json::array({9, 9, 9, 9});
       }},
  };
  for (const auto& [field, edit] : edits) {
    SCOPED_TRACE(field);
    json report = cut;
    edit(report["cells"][0]["position"]["search"]);
    dir.write("edited.json", report.dump());
    const auto r = run_cli({"run", "--resume", "edited.json", "--out", "out.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--resume edited.json: the position of cell ticket_mutex x mutex-safety "
                         "has a search checkpoint run could not have written: its field " +
                         (field.starts_with("field ") ? field.substr(6) : field)),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.json"));
  }
  // A cell the run's config would not make (another primitive, another schedule): its position
  // names the cell it was written for; edited to agree, the cell is still not the run's.
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"primitive", "mutex_part7"},
                                   {"schedule", "exhaustive:preemptions=2"}}) {
    SCOPED_TRACE(key);
    json report = cut;
    json& cell = report["cells"][0];
    const std::string was = cell[key].get<std::string>();
    cell[key] = value;
    dir.write("edited.json", report.dump());
    auto r = run_cli({"run", "--resume", "edited.json", "--out", "out.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("was written for another cell"), std::string::npos) << r.err;
    std::string owner = cell["position"]["cell"].get<std::string>();
    owner.replace(owner.find(was), was.size(), value);
    cell["position"]["cell"] = owner;
    dir.write("edited.json", report.dump());
    r = run_cli({"run", "--resume", "edited.json", "--out", "out.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("is not a cell of the run its config describes"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.json"));
  }
}

/// A position cut by a 1 ms time budget from `schedule` on ticket_mutex x mutex-safety.
json cut_position(const TempDir& dir, const std::string& schedule) {
  const auto first =
      run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--schedule",
               schedule, "--time-budget", "0.001", "--quiet", "--out", "cut.json"},
              dir.path());
  EXPECT_EQ(first.exit_code, 4) << first.err;
  return read_json(dir.path() / "cut.json");
}

// Well formed and consistent, yet not where this cell stopped: only running the cell shows it.
// Its first execution, which walks the position's path, leaves it; the run stops there.
TEST(CliResume, AWellFormedPositionThatIsNotTheCellsIsRefusedWhenItsFirstExecutionLeavesIt) {
  TempDir dir;
  const auto refused = [&](const json& report, const std::string& why) {
    dir.write("edited.json", report.dump());
    const auto r = run_cli({"run", "--resume", "edited.json", "--out", "out.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(
        r.err.find("--resume edited.json: the position of cell ticket_mutex x mutex-safety " + why),
        std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("nondeterminism"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.json"));
  };
  const std::string left =
      "did not lead this cell where it stopped: the first execution "
      "resumed from it left its path (at choice #";
  {
    SCOPED_TRACE("the reduced search: a runnable thread renamed where nothing else names it");
    json report = cut_position(dir, "exhaustive");
    json& path = report["cells"][0]["position"]["search"]["state"]["path"];
    bool edited = false;
    for (json& node : path) {
      // [is_thread, bound, chosen, runnable, backtrack, done, sleep, ...]
      if (!node[0].get<bool>()) continue;
      const json last = node[3].back();
      const auto names = [&](const json& threads) {
        for (const json& t : threads) {
          if (t == last || (t.is_array() && !t.empty() && t[0] == last)) return true;
        }
        return false;
      };
      if (names(node[4]) || names(node[5]) || names(node[6])) continue;
      node[3].back() = last.get<int>() + 1;
      edited = true;
      break;
    }
    ASSERT_TRUE(edited) << path.dump();
    refused(report, left);
  }
  {
    SCOPED_TRACE("the plain search: a choice's bound changed, its answer still below it");
    json report = cut_position(dir, "exhaustive:reduction=none");
    json& node = report["cells"][0]["position"]["search"]["state"]["path"][0];
    node[1] = node[1].get<int>() + 1;
    refused(report, left);
  }
  {
    SCOPED_TRACE("the count of executions the search started");
    json report = cut_position(dir, "exhaustive");
    report["cells"][0]["position"]["search"]["state"]["explored"] = 1'000'000'000'000'000'000ULL;
    refused(report,
            "has a search checkpoint whose state.explored, 1000000000000000000, does not "
            "match its executions");
  }
}

}  // namespace
}  // namespace cli_resume_test
}  // namespace syncstress::testing
