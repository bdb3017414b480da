// Cells and replays run in child processes: a crash or a hang of the code under test becomes a
// failed cell (or a replayed violation) with the execution in flight, never the end of the tool;
// and another program runs under the same supervision with its output captured.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <string>

#include "supervise/isolated.hpp"
#include "supervise/program.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
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
      identity(), 30, 60);
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
      identity(), 30, 60);
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
      identity(), 1.0, 60);
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
      identity(), 60, 1);
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
      identity(), 60, 1);
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
      identity_of_replay, 30, 60);
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
      Violation{}, 30, 60);
  EXPECT_FALSE(r.violation.has_value());
  EXPECT_EQ(r.steps, 12u);
  EXPECT_EQ(r.trace.size(), 2u);
}

TEST(SuperviseIsolation, UsageErrorInTheChildIsRethrownInTheParent) {
  EXPECT_THROW(run_isolated([](ExecutionWatch&) -> CellResult { throw UsageError("bad input"); },
                            identity(), 30, 60),
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
}  // namespace syncstress::supervise
