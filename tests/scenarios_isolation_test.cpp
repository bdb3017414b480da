// Cells and replays run in child processes: a crash or a hang of the code under test becomes a
// failed cell (or a replayed violation) with the execution in flight, never the end of the tool.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <string>

#include "scenarios/isolation.hpp"

namespace syncstress::scenarios {
namespace {

CellResult identity() {
  CellResult c;
  c.primitive = "some_primitive";
  c.scenario = "some-scenario";
  c.schedule = "random";
  return c;
}

TEST(ScenariosIsolation, ResultOfAHealthyChildComesBackWhole) {
  const auto r = run_isolated(
      [] {
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

TEST(ScenariosIsolation, CrashIsAFailedCellNamingTheSignalAndTheExecutionInFlight) {
  const auto r = run_isolated(
      [] {
        static std::uint64_t executions = 4;
        static const InFlight in_flight{[] { return std::string("ss1.in-flight"); }, &executions};
        set_in_flight(&in_flight);
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

TEST(ScenariosIsolation, HangIsKilledAtTheDeadlineAndReported) {
  const auto r = run_isolated(
      [] {
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

TEST(ScenariosIsolation, StallIsCaughtByTheChildsWatchdogWithTheScheduleInFlight) {
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_isolated(
      [] {
        static std::uint64_t executions = 4;
        static const InFlight in_flight{[] { return std::string("ss1.in-flight"); }, &executions};
        set_in_flight(&in_flight);
        note_progress();
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

TEST(ScenariosIsolation, ProgressKeepsTheWatchdogQuiet) {
  const auto r = run_isolated(
      [] {
        // Three seconds of steady progress under a one-second watchdog.
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < until) note_progress();
        CellResult c = identity();
        c.verdict = Verdict::pass;
        return c;
      },
      identity(), 60, 1);
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_TRUE(r.violations.empty());
}

TEST(ScenariosIsolation, ReplayThatCrashesComesBackAsACrashViolationOfTheReplayedSchedule) {
  Violation identity_of_replay;
  identity_of_replay.schedule = "ss1.replayed";
  identity_of_replay.seed = 9;
  const auto r = replay_isolated(
      []() -> ReplayOutcome {
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

TEST(ScenariosIsolation, HealthyReplayComesBackWhole) {
  const auto r = replay_isolated(
      [] {
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

TEST(ScenariosIsolation, UsageErrorInTheChildIsRethrownInTheParent) {
  EXPECT_THROW(
      run_isolated([]() -> CellResult { throw UsageError("bad input"); }, identity(), 30, 60),
      UsageError);
}

}  // namespace
}  // namespace syncstress::scenarios
