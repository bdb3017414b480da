// syncstress-relacy on its own: the tool tested against itself on the relacy platform. Planted
// bugs that sim cannot see (a relaxed unlock) or sees only as a hang (a forgotten wake) must be
// caught under every Relacy search, their states must replay, correct controls must pass, and
// bad input must exit 2 with nothing on stdout.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace {

using nlohmann::json;
using testing::TempDir;

json run_child(const std::vector<std::string>& args, int expected_exit = 0) {
  TempDir dir;
  const auto r = testing::run_binary(testing::relacy_binary_path(), args, dir.path());
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  if (r.exit_code != 0) return nullptr;
  return json::parse(r.out);
}

std::vector<std::string> cell(const std::string& primitive, const std::string& search,
                              const std::string& iterations) {
  return {"cell",    "--family", "safety", "--kind",       "mutex",   "--primitive",
          primitive, "--search", search,   "--iterations", iterations};
}

TEST(RelacyChild, RelaxedUnlockIsADataRaceUnderEverySearch) {
  for (const std::string search : {"random", "bound", "full"}) {
    const json out = run_child(cell("planted_relaxed_unlock_mutex", search, "20000"));
    ASSERT_FALSE(out.is_null());
    EXPECT_EQ(out["verdict"], "fail") << search << out.dump();
    ASSERT_EQ(out["violations"].size(), 1u) << search;
    const json& v = out["violations"][0];
    EXPECT_EQ(v["property"], "data_race") << search;
    EXPECT_NE(v["message"].get<std::string>().find("scenarios/harness.hpp"), std::string::npos)
        << v["message"];
    EXPECT_FALSE(v["trace"].empty());
  }
}

TEST(RelacyChild, AFailingStateReplaysTheSameViolationWithTheSameTrace) {
  for (const std::string search : {"random", "full"}) {
    const json found = run_child(cell("planted_relaxed_unlock_mutex", search, "20000"));
    ASSERT_EQ(found["verdict"], "fail");
    const json& v = found["violations"][0];
    const json again = run_child({"replay", "--family", "safety", "--kind", "mutex", "--primitive",
                                  "planted_relaxed_unlock_mutex", "--search", search, "--state",
                                  v["schedule"].get<std::string>()});
    ASSERT_EQ(again["verdict"], "fail") << search << again.dump();
    EXPECT_EQ(again["executions"], 1u);
    EXPECT_EQ(again["violations"][0]["property"], v["property"]);
    EXPECT_EQ(again["violations"][0]["message"], v["message"]);
    // Addresses are named by first appearance, so the text is the same from run to run.
    EXPECT_EQ(again["violations"][0]["trace"], v["trace"]) << search;
  }
}

TEST(RelacyChild, AForgottenWakeIsALostWakeUp) {
  const json out = run_child(cell("planted_forgetful_wake_mutex", "random", "20000"));
  ASSERT_EQ(out["verdict"], "fail") << out.dump();
  EXPECT_EQ(out["violations"][0]["property"], "no_lost_wakeups");
}

TEST(RelacyChild, CorrectControlsPassAndACappedSearchSaysItIsIncomplete) {
  json out = run_child(cell("ticket_mutex", "random", "2000"));
  EXPECT_EQ(out["verdict"], "pass") << out.dump();
  EXPECT_EQ(out["executions"], 2000u);
  out = run_child(cell("ticket_mutex", "bound", "300"));
  EXPECT_EQ(out["verdict"], "pass") << out.dump();
  EXPECT_EQ(out["executions"], 300u);
  EXPECT_EQ(out["metrics"]["search_complete"], false);
  out = run_child({"cell", "--family", "progress", "--kind", "work_queue", "--primitive",
                   "locked_work_queue", "--search", "random", "--iterations", "1000"});
  EXPECT_EQ(out["verdict"], "pass") << out.dump();
}

TEST(RelacyChild, ListShowsTheCatalogueAndHidesThePlantedBugs) {
  const json plain = run_child({"list"});
  const json all = run_child({"list", "--planted"});
  std::set<std::string> names;
  for (const auto& row : plain) names.insert(row["primitive"].get<std::string>());
  EXPECT_TRUE(names.count("shared_mutex_part8"));
  EXPECT_TRUE(names.count("work_queue_wait_on_address"));
  EXPECT_FALSE(names.count("planted_relaxed_unlock_mutex"));
  EXPECT_EQ(all.size(), plain.size() + 2);
}

TEST(RelacyChild, BadInputExitsTwoWithNothingOnStdout) {
  const std::vector<std::vector<std::string>> cases = {
      cell("no_such_primitive", "random", "10"),
      cell("ticket_mutex", "sideways", "10"),
      {"cell", "--family", "progress", "--kind", "mutex", "--primitive", "ticket_mutex"},
      {"cell", "--family", "safety", "--kind", "semaphore", "--primitive", "ticket_mutex"},
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--set",
       "actors=9"},
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--set",
       "colour=blue"},
      {"replay", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--state",
       "abc"},
  };
  for (const auto& args : cases) {
    TempDir dir;
    const auto r = testing::run_binary(testing::relacy_binary_path(), args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(args) << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(r.err.empty());
  }
}

/// syncstress-relacy replay of `state` for `primitive` (a mutex) under `search`.
std::vector<std::string> replay(const std::string& primitive, const std::string& search,
                                const std::string& state) {
  return {"replay",  "--family", "safety", "--kind",  "mutex", "--primitive",
          primitive, "--search", search,   "--state", state};
}

/// Runs syncstress-relacy; expects exit 2, nothing on stdout and `message` on stderr.
void expect_bad_input(const std::vector<std::string>& args, const std::string& message) {
  TempDir dir;
  const auto r = testing::run_binary(testing::relacy_binary_path(), args, dir.path());
  EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(args) << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find(message), std::string::npos) << ::testing::PrintToString(args) << r.err;
}

TEST(RelacyChild, AStateNoSearchCouldHavePrintedIsBadInput) {
  // Each of these killed syncstress-relacy or stalled it before the check.
  expect_bad_input(replay("ticket_mutex", "random", "0"), "there is no iteration 0");  // SIGFPE
  expect_bad_input(replay("ticket_mutex", "random", "99999999999999999999"),
                   "not a whole number below 2^64");  // stoull threw: exit 3
  expect_bad_input(replay("ticket_mutex", "random", "5 6 7"), "its iteration alone");
  expect_bad_input(replay("ticket_mutex", "full", "1 99999999999999"),
                   "n nodes of three numbers");  // filled memory with 10^14 nodes
  expect_bad_input(replay("ticket_mutex", "full", "1 2 1 0 0 2 7 3"),
                   "node 2 of its search tree picks option 7 of 2");
}

TEST(RelacyChild, AWellFormedPathThatDoesNotFitTheCellIsBadInputNotACrash) {
  // A path through the search tree made up (or recorded for another cell): Relacy took option 8
  // of 2 from it and indexed past its runnable threads (SIGSEGV, SIGBUS).
  const std::string made_up = "1 6 4 2 0 2 0 0 2 0 4 4 1 0 3 0 0 9 6 0";
  for (const std::string search : {"full", "bound"}) {
    expect_bad_input(replay("ticket_mutex", search, made_up),
                     "--state: the schedule does not fit this cell: choice 1 picks among 1 (of "
                     "kind 0), the schedule's node there among 4 (of kind 0)");
    expect_bad_input(replay("ticket_mutex", search, "1 1 9 8 0"),  // SIGBUS
                     "the schedule does not fit this cell");
  }
  // A real failing path of one primitive, replayed on another.
  const json found = run_child(cell("planted_relaxed_unlock_mutex", "full", "20000"));
  ASSERT_EQ(found["verdict"], "fail");
  const auto state = found["violations"][0]["schedule"].get<std::string>();
  expect_bad_input(replay("ticket_mutex", "full", state), "the schedule does not fit this cell");
}

TEST(RelacyChild, ARandomSearchThatWouldPassTheLastIterationIsBadInput) {
  // Its iteration count wrapped to 0, and Relacy divided by it (SIGFPE).
  auto args = cell("ticket_mutex", "random", "100");
  args.insert(args.end(), {"--start", "18446744073709551516"});
  expect_bad_input(args, "the search would pass Relacy's last iteration");
  args = cell("ticket_mutex", "random", "100");
  args.insert(args.end(), {"--start", "18446744073709551515"});
  EXPECT_EQ(run_child(args)["verdict"], "pass");
}

}  // namespace
}  // namespace syncstress
