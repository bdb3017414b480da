// syncstress-relacy on its own: the tool tested against itself on the relacy platform. Planted
// bugs that sim cannot see (a relaxed unlock) or sees only as a hang (a forgotten wake) must be
// caught under every Relacy search, their states must replay, correct controls must pass, and
// bad input must exit 2 with nothing on stdout. Every search keeps to its budget (iterations,
// time) and answers promptly when SIGINT or SIGTERM asks it to stop.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "schedules/relacy_strategies.hpp"
#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_relacy_child_test {
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

/// Relacy's own state string in a violation's schedule (rl1.<search>.<state>), which `replay
/// --state` takes.
std::string state_of(const json& violation) {
  return parse_relacy_schedule_string(violation.at("schedule").get<std::string>()).state;
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
    EXPECT_NE(v["message"].get<std::string>().find("scenarios/scenario_context.hpp"),
              std::string::npos)
        << v["message"];
    EXPECT_FALSE(v["trace"].empty());
    // Each line names its function by class and name, and its file from the source tree:
    // "..., in ScenarioContext::enter_exclusive, scenarios/scenario_context.hpp(61)".
    bool harness_line = false;
    for (const auto& line : v["trace"]) {
      const auto text = line.get<std::string>();
      EXPECT_EQ(text.find("syncstress::"), std::string::npos) << text;
      EXPECT_EQ(text.find(SYNCSTRESS_SOURCE_DIR), std::string::npos) << text;
      if (text.find("in ScenarioContext::enter_exclusive, scenarios/scenario_context.hpp(") !=
          std::string::npos) {
        harness_line = true;
      }
    }
    EXPECT_TRUE(harness_line) << v["trace"].dump(1);
  }
}

TEST(RelacyChild, AFailingStateReplaysTheSameViolationWithTheSameTrace) {
  for (const std::string search : {"random", "full"}) {
    const json found = run_child(cell("planted_relaxed_unlock_mutex", search, "20000"));
    ASSERT_EQ(found["verdict"], "fail");
    const json& v = found["violations"][0];
    const json again =
        run_child({"replay", "--family", "safety", "--kind", "mutex", "--primitive",
                   "planted_relaxed_unlock_mutex", "--search", search, "--state", state_of(v)});
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

// Relacy's counting semaphore and condition variable behind the Platform's: locks made of them
// pass, and one whose waiter checks its flag once is caught when a wait returns spuriously
// (planted.hpp).
TEST(RelacyChild, SemaphoreAndConditionVariableLocksPassAndAnIfWaiterFails) {
  for (const std::string primitive : {"planted_semaphore_mutex", "planted_condvar_mutex"}) {
    const json out = run_child(cell(primitive, "random", "5000"));
    EXPECT_EQ(out["verdict"], "pass") << primitive << out.dump();
  }
  const json out = run_child(cell("planted_if_condvar_mutex", "random", "20000"));
  ASSERT_EQ(out["verdict"], "fail") << out.dump();
  // Two holders at once: seen as the guarded data written by both without order between them,
  // or as the count of holders.
  const std::string property = out["violations"][0]["property"];
  EXPECT_TRUE(property == "data_race" || property == "mutual_exclusion") << out.dump();
}

TEST(RelacyChild, ALockWhoseGuardUnlocksPassesAndOneWhoseGuardForgetsLosesAWakeUp) {
  // lock() gives a guard, the only way to unlock (primitives/README.md, "What an acquisition
  // gives"): the harness keeps it and destroys it to release, under Relacy as on sim.
  json out = run_child(cell("test_guard_lock_mutex", "random", "2000"));
  EXPECT_EQ(out["verdict"], "pass") << out.dump();
  EXPECT_EQ(out["executions"], 2000u);
  out = run_child(cell("planted_guard_forgets_unlock_mutex", "random", "2000"));
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

TEST(RelacyChild, ATimeBudgetEndsEverySearchAsAnIterationBegins) {
  for (const std::string search : {"random", "bound", "full"}) {
    auto args = cell("ticket_mutex", search, "1000000000");
    args.insert(args.end(), {"--context-bound", "3", "--time-budget", "1"});
    const auto began = std::chrono::steady_clock::now();
    const json out = run_child(args);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - began;
    ASSERT_FALSE(out.is_null());
    EXPECT_EQ(out["verdict"], "pass") << search << out.dump();
    EXPECT_EQ(out["stopped_by"], "time_budget") << search;
    EXPECT_GT(out["executions"].get<std::uint64_t>(), 0u) << search;
    EXPECT_LT(out["executions"].get<std::uint64_t>(), 1000000000u) << search;
    EXPECT_EQ(out["metrics"]["search_complete"], false) << search;
    // The search's own clock starts a little after the budget's; one iteration is microseconds.
    EXPECT_LT(out["elapsed_seconds"].get<double>(), 1.5) << search;
    EXPECT_LT(wall.count(), 10) << search;  // slack for a loaded machine; it ran 66 s before
  }
}

TEST(RelacyChild, TheRandomSearchRunsExactlyItsIterationsFromItsStart) {
  // From iteration 1000, part 8's data race is met at iteration 1001: one iteration must not
  // reach it.
  auto part8 = [](const std::string& iterations) {
    return std::vector<std::string>{"cell",
                                    "--family",
                                    "safety",
                                    "--kind",
                                    "shared_mutex",
                                    "--primitive",
                                    "shared_mutex_part8",
                                    "--search",
                                    "random",
                                    "--iterations",
                                    iterations,
                                    "--start",
                                    "1000"};
  };
  json out = run_child(part8("1"));
  EXPECT_EQ(out["verdict"], "pass") << out.dump();
  EXPECT_EQ(out["executions"], 1u);
  EXPECT_EQ(out["stopped_by"], "executions");
  out = run_child(part8("2"));
  ASSERT_EQ(out["verdict"], "fail") << out.dump();
  EXPECT_EQ(out["executions"], 2u);
  EXPECT_EQ(out["stopped_by"], "violation");
  // Relacy's state: the iteration, then the scheduler's state (none for the random one).
  EXPECT_EQ(std::stoull(state_of(out["violations"][0])), 1001u) << out["violations"][0]["schedule"];
}

TEST(RelacyChild, AViolationInTheLastIterationOfACappedSearchIsReported) {
  // The relaxed unlock races in the first iteration of both searches: a cap of one must keep
  // it (it was once taken for the cap, when Relacy re-ran that iteration to print it).
  for (const std::string search : {"bound", "full"}) {
    const json out = run_child(cell("planted_relaxed_unlock_mutex", search, "1"));
    ASSERT_EQ(out["verdict"], "fail") << search << out.dump();
    EXPECT_EQ(out["violations"][0]["property"], "data_race") << search;
    EXPECT_EQ(out["executions"], 1u) << search;
    EXPECT_EQ(out["stopped_by"], "violation") << search;
    EXPECT_FALSE(out["violations"][0]["trace"].empty()) << search;
  }
}

/// Starts `binary args...` with stdout to `out`; its pid.
pid_t start_binary(const std::string& binary, const std::vector<std::string>& args,
                   const std::filesystem::path& out) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, 1) < 0) ::_exit(127);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(126);
  }
  return pid;
}

TEST(RelacyChild, SigintOrSigtermEndsTheSearchWithinHalfASecondWithAValidAnswer) {
  // Shared-mutex safety with three actors of four rounds each: Relacy's longest iterations here.
  // The parent kills a child that has not answered half a second after it forwarded SIGINT.
  for (const int number : {SIGINT, SIGTERM}) {
    TempDir dir;
    const auto answer = dir.path() / "answer.json";
    const pid_t pid =
        start_binary(testing::relacy_binary_path(),
                     {"cell", "--family", "safety", "--kind", "shared_mutex", "--primitive",
                      "shared_mutex_part9", "--search", "full", "--set", "actors=3", "--set",
                      "rounds=4", "--iterations", "1000000000"},
                     answer);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const auto sent = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(pid, number), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    const std::chrono::duration<double> latency = std::chrono::steady_clock::now() - sent;
    EXPECT_LT(latency.count(), 0.5) << number;
    ASSERT_TRUE(WIFEXITED(status)) << number;
    EXPECT_EQ(WEXITSTATUS(status), 0) << number;
    const json out = json::parse(testing::read_file(answer));
    EXPECT_EQ(out["stopped_by"], "interrupted") << out.dump();
    EXPECT_EQ(out["verdict"], "pass");
    EXPECT_GT(out["executions"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(out["metrics"]["search_complete"], false);
  }
}

TEST(RelacyChild, CheckTakesTheCellAsARunWouldAndRunsNothing) {
  auto args = cell("ticket_mutex", "full", "1000000000");
  args.push_back("--check");
  EXPECT_EQ(run_child(args), json::object());
}

TEST(RelacyChild, ListShowsTheCatalogueAndHidesTheTestsOwnPrimitives) {
  const json plain = run_child({"list"});
  const json all = run_child({"list", "--planted"});
  std::set<std::string> names;
  for (const auto& row : plain) names.insert(row["primitive"].get<std::string>());
  EXPECT_TRUE(names.count("shared_mutex_part8"));
  EXPECT_TRUE(names.count("work_queue_wait_on_address"));
  EXPECT_FALSE(names.count("planted_relaxed_unlock_mutex"));
  EXPECT_FALSE(names.count("test_guard_lock_mutex"));
  EXPECT_EQ(all.size(), plain.size() + 7);
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
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--set",
       "actors=9", "--check"},
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--search",
       "full", "--start", "5"},
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex", "--start",
       "18446744073709551615", "--iterations", "2"},
      {"cell", "--family", "safety", "--kind", "mutex", "--primitive", "ticket_mutex",
       "--time-budget", "0"},
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
  const auto state = state_of(found["violations"][0]);
  expect_bad_input(replay("ticket_mutex", "full", state), "the schedule does not fit this cell");
}

TEST(RelacyChild, ARandomSearchThatWouldPassTheLastIterationIsBadInput) {
  // Its iteration count wrapped to 0, and Relacy divided by it (SIGFPE).
  auto args = cell("ticket_mutex", "random", "100");
  // Relacy numbers iterations from 1: from K, 100 of them end at K + 99.
  args.insert(args.end(), {"--start", "18446744073709551517"});
  expect_bad_input(args, "would pass iteration 2^64-1");
  args = cell("ticket_mutex", "random", "100");
  args.insert(args.end(), {"--start", "18446744073709551516"});
  EXPECT_EQ(run_child(args)["verdict"], "pass");
}

}  // namespace
}  // namespace cli_relacy_child_test
}  // namespace syncstress
