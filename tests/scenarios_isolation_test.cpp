// Cells run in child processes: a crash or a hang of the code under test becomes a failed
// cell with the execution in flight, never the end of the tool.
#include <gtest/gtest.h>

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
      identity(), 30);
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
      identity(), 30);
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
        // Never reaches a scheduling point: only the parent's deadline can end it.
        volatile bool forever = true;
        while (forever) {
        }
        return identity();
      },
      identity(), 1.0);
  EXPECT_EQ(r.verdict, Verdict::fail);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].property, "hang");
}

TEST(ScenariosIsolation, UsageErrorInTheChildIsRethrownInTheParent) {
  EXPECT_THROW(run_isolated([]() -> CellResult { throw UsageError("bad input"); }, identity(), 30),
               UsageError);
}

}  // namespace
}  // namespace syncstress::scenarios
