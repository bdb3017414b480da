// Cells and replays run in child processes: a crash or a hang of the code under test becomes a
// failed cell (or a replayed violation) with the execution in flight, never the end of the tool;
// and another program runs under the same supervision with its output captured.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "supervise/isolated.hpp"
#include "supervise/program.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace supervise_isolation_test {
namespace {

using scenarios::ExecutionWatch;

/// A note on a made-up execution in flight: the fifth, with its schedule so far.
const ExecutionWatch::Note kFifthExecution = [](nlohmann::json& note) {
  note["execution"] = 5;
  note["schedule"] = "ss1.in-flight";
};

CellResult identity() {
  CellResult c;
  c.primitive = "some_primitive";
  c.scenario = "some-scenario";
  c.schedule = "random";
  return c;
}

TEST(SuperviseIsolation, ResultOfAHealthyChildComesBackWhole) {
  const auto r = run_isolated(
      [](ExecutionWatch&) {
        CellResult c = identity();
        c.verdict = Verdict::fail;
        c.executions = 7;
        c.metrics["jain_fairness_index"] = 0.5;
        Violation v;
        v.property = "mutual_exclusion";
        v.message = "2 holders";
        v.schedule = "ss1.x";
        v.trace = {"1 t0 lock", "2 t1 lock"};
        c.violations.push_back(v);
        return c;
      },
      identity(), 30, Stall{60, StallClock::cpu});
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.executions, 7u);
  EXPECT_EQ(r.metrics.at("jain_fairness_index"), 0.5);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].trace.size(), 2u);
}

TEST(SuperviseIsolation, CrashIsAFailedCellNamingTheSignalAndTheExecutionInFlight) {
  const auto r = run_isolated(
      [](ExecutionWatch& watch) {
        watch.in_flight(&kFifthExecution);
        std::raise(SIGSEGV);
        return identity();
      },
      identity(), 30, Stall{60, StallClock::cpu});
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].property, "crash");
  EXPECT_NE(r.violations[0].message.find("SIGSEGV"), std::string::npos) << r.violations[0].message;
  EXPECT_NE(r.violations[0].message.find("execution 5"), std::string::npos);
  EXPECT_EQ(r.violations[0].schedule, "ss1.in-flight");
  EXPECT_EQ(r.primitive, "some_primitive");
}

TEST(SuperviseIsolation, HangIsKilledAtTheDeadlineAndReported) {
  const auto r = run_isolated(
      [](ExecutionWatch&) {
        // Never reaches a scheduling point: with the watchdog at 60 s, only the parent's
        // deadline can end it.
        volatile bool forever = true;
        while (forever) {
        }
        return identity();
      },
      identity(), 1.0, Stall{60, StallClock::cpu});
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].property, "hang");
  EXPECT_NE(r.violations[0].message.find("did not finish within 1 s"), std::string::npos)
      << r.violations[0].message;
}

TEST(SuperviseIsolation, StallIsCaughtByTheChildsWatchdogWithTheScheduleInFlight) {
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_isolated(
      [](ExecutionWatch& watch) {
        watch.in_flight(&kFifthExecution);
        watch.progress();
        volatile bool forever = true;
        while (forever) {
        }
        return identity();
      },
      identity(), 60, Stall{1, StallClock::cpu});
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].property, "hang");
  EXPECT_NE(r.violations[0].message.find("no progress for"), std::string::npos)
      << r.violations[0].message;
  EXPECT_NE(r.violations[0].message.find("execution 5"), std::string::npos)
      << r.violations[0].message;
  EXPECT_EQ(r.violations[0].schedule, "ss1.in-flight");
  EXPECT_EQ(r.executions, 5u);
  // The watchdog, not the 60 s deadline, ended it.
  EXPECT_LT(took, std::chrono::seconds(30));
}

TEST(SuperviseIsolation, AStoppedChildIsNoHang) {
  // The child stops itself for three seconds (as SIGSTOP, a debugger or a paused machine would
  // stop it) under a one-second stall counted in its CPU time; the test continues it.
  const auto pid_file = std::filesystem::temp_directory_path() /
                        ("syncstress-stopped-child-" + std::to_string(::getpid()));
  std::thread resume([&] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::ifstream in(pid_file);
    pid_t pid = 0;
    if (in >> pid && pid > 0) ::kill(pid, SIGCONT);
  });
  const auto r = run_isolated(
      [&](ExecutionWatch& watch) {
        watch.progress();
        std::ofstream(pid_file) << ::getpid() << '\n';
        ::raise(SIGSTOP);
        watch.progress();
        CellResult c = identity();
        c.verdict = Verdict::pass;
        return c;
      },
      identity(), 60, Stall{1, StallClock::cpu});
  resume.join();
  std::filesystem::remove(pid_file);
  EXPECT_EQ(r.verdict, Verdict::pass) << (r.violations.empty() ? "" : r.violations[0].message);
}

TEST(SuperviseIsolation, ASleepingChildIsAHangOnlyOnTheWallClock) {
  // A child that gets no CPU (asleep here, as one starved by a loaded machine would be) makes
  // no stall counted in its CPU time; counted in wall-clock time it does (real threads asleep
  // in a deadlock).
  for (const StallClock clock : {StallClock::cpu, StallClock::wall}) {
    const auto r = run_isolated(
        [](ExecutionWatch& watch) {
          watch.progress();
          std::this_thread::sleep_for(std::chrono::milliseconds(2500));
          CellResult c = identity();
          c.verdict = Verdict::pass;
          return c;
        },
        identity(), 60, Stall{1, clock});
    EXPECT_EQ(r.verdict, clock == StallClock::cpu ? Verdict::pass : Verdict::fail);
  }
}

TEST(SuperviseIsolation, ProgressKeepsTheWatchdogQuiet) {
  const auto r = run_isolated(
      [](ExecutionWatch& watch) {
        // Three seconds of steady progress under a one-second watchdog.
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < until) watch.progress();
        CellResult c = identity();
        c.verdict = Verdict::pass;
        return c;
      },
      identity(), 60, Stall{1, StallClock::cpu});
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_TRUE(r.violations.empty());
}

TEST(SuperviseIsolation, ReplayThatCrashesComesBackAsACrashViolationOfTheReplayedSchedule) {
  Violation identity_of_replay;
  identity_of_replay.schedule = "ss1.replayed";
  identity_of_replay.seed = 9;
  const auto r = replay_isolated(
      [](ExecutionWatch&) -> ReplayOutcome {
        std::raise(SIGABRT);
        return {};
      },
      identity_of_replay, 30, Stall{60, StallClock::cpu});
  ASSERT_TRUE(r.violation.has_value());
  EXPECT_EQ(r.violation->property, "crash");
  EXPECT_NE(r.violation->message.find("SIGABRT"), std::string::npos) << r.violation->message;
  EXPECT_EQ(r.violation->schedule, "ss1.replayed");
  EXPECT_EQ(r.violation->seed, 9u);
}

TEST(SuperviseIsolation, HealthyReplayComesBackWhole) {
  const auto r = replay_isolated(
      [](ExecutionWatch&) {
        ReplayOutcome out;
        out.steps = 12;
        out.trace = {"1 t0 lock", "2 t1 lock"};
        return out;
      },
      Violation{}, 30, Stall{60, StallClock::cpu});
  EXPECT_FALSE(r.violation.has_value());
  EXPECT_EQ(r.steps, 12u);
  EXPECT_EQ(r.trace.size(), 2u);
}

TEST(SuperviseIsolation, UsageErrorInTheChildIsRethrownInTheParent) {
  EXPECT_THROW(run_isolated([](ExecutionWatch&) -> CellResult { throw UsageError("bad input"); },
                            identity(), 30, Stall{60, StallClock::cpu}),
               UsageError);
}

TEST(SuperviseProgram, OutputAndExitCodeOfAProgramAreCaptured) {
  const auto f = run_program({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 30);
  EXPECT_EQ(f.exit_code, 3);
  EXPECT_EQ(f.out, "out\n");
  EXPECT_EQ(f.err, "err\n");
  EXPECT_FALSE(f.timed_out);
}

TEST(SuperviseProgram, ProgramPastItsDeadlineIsKilled) {
  const auto started = std::chrono::steady_clock::now();
  const auto f = run_program({"/bin/sh", "-c", "exec sleep 60"}, 0.5);
  EXPECT_TRUE(f.timed_out);
  EXPECT_EQ(f.signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
}

TEST(SuperviseProgram, ProgramThatCannotStartExits127SayingWhy) {
  const auto f = run_program({"/nonexistent/program"}, 30);
  EXPECT_EQ(f.exit_code, 127);
  EXPECT_NE(f.err.find("cannot start /nonexistent/program"), std::string::npos) << f.err;
}

}  // namespace
}  // namespace supervise_isolation_test
}  // namespace syncstress::supervise
