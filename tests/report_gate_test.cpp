// The gate finds differences both ways (a new failure, and a known failure no longer caught),
// and a fail for another reason than the baseline's ("property changed"); it tells them apart
// in text and JUnit, writes well-formed JUnit, and its CLI exits 1 on a difference, 0 on none.
#include <gtest/gtest.h>

#include <cstdlib>

#include "report/gate.hpp"
#include "report/report.hpp"
#include "scenarios/outcome_json.hpp"
#include "tests/cli_harness.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace report_gate_test {
namespace {

using nlohmann::json;
using testing::TempDir;

CellResult cell(const std::string& primitive, const std::string& scenario,
                const std::string& schedule, Verdict verdict) {
  CellResult c;
  c.primitive = primitive;
  c.scenario = scenario;
  c.schedule = schedule;
  c.verdict = verdict;
  c.executions = 10;
  c.elapsed_seconds = 0.5;
  c.steps = 100;
  return c;
}

/// A failing cell whose first violation broke `property`.
CellResult failing(const std::string& primitive, const std::string& property) {
  CellResult c = cell(primitive, "shared-mutex-starvation", "pct", Verdict::fail);
  Violation v;
  v.property = property;
  v.message = "m";
  v.seed = 1;
  v.schedule = "s1.x";
  c.violations.push_back(v);
  return c;
}

/// A report of `cells` as `syncstress run` writes it, for the command line.
json report_of(const std::vector<CellResult>& cells) {
  json out = json::array();
  for (const auto& c : cells) out.push_back(to_json(c));
  return {{"schema", report::kReportSchema}, {"config", json::object()}, {"cells", out}};
}

std::vector<report::Expectation> expectations() {
  return {{"part8", "shared-mutex-starvation", std::nullopt, Verdict::fail, {}, {}},
          {"part9", "shared-mutex-starvation", std::nullopt, Verdict::pass, {}, {}},
          {"fifo_mutex", "mutex-fairness", std::nullopt, Verdict::pass, {}, {}}};
}

TEST(Gate, AgreeingReportHasNoDifference) {
  const auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct", Verdict::fail),
       cell("part9", "shared-mutex-starvation", "pct", Verdict::pass)},
      false);
  EXPECT_EQ(result.differences, 0u);
  EXPECT_EQ(result.cases.size(), 2u);
  EXPECT_EQ(result.not_run, 1u);  // mutex-fairness did not run
}

TEST(Gate, KnownFailureThatNowPassesIsADifference) {
  const auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct", Verdict::pass),
       cell("part9", "shared-mutex-starvation", "pct", Verdict::pass)},
      false);
  ASSERT_EQ(result.differences, 1u);
  EXPECT_EQ(result.cases[0].kind, report::GateDifference::bug_no_longer_caught);
  EXPECT_EQ(result.cases[0].problem, "bug no longer caught: expected fail, got pass");
}

TEST(Gate, NewFailureIsADifference) {
  const auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct", Verdict::fail),
       cell("part9", "shared-mutex-starvation", "pct", Verdict::fail)},
      false);
  ASSERT_EQ(result.differences, 1u);
  EXPECT_EQ(result.cases[1].kind, report::GateDifference::new_failure);
  EXPECT_EQ(result.cases[1].problem, "new failure: expected pass, got fail");
}

TEST(Gate, AFailForAnotherPropertyIsAPropertyChange) {
  auto baseline = expectations();
  baseline[0].property = "starvation_freedom";
  const CellResult part9 = cell("part9", "shared-mutex-starvation", "pct", Verdict::pass);
  const auto same = report::compare_with_baseline(
      baseline, {failing("part8", "starvation_freedom"), part9}, false);
  EXPECT_EQ(same.differences, 0u);
  // The documented bug is no longer what fails the cell: a crash took its place.
  const auto changed =
      report::compare_with_baseline(baseline, {failing("part8", "crash"), part9}, false);
  ASSERT_EQ(changed.differences, 1u);
  EXPECT_EQ(changed.cases[0].kind, report::GateDifference::property_changed);
  EXPECT_EQ(changed.cases[0].problem,
            "property changed: expected fail (starvation_freedom), got fail (crash)");
}

TEST(Gate, AMeasuredCellPinsWhichUnclaimedPropertiesBroke) {
  std::vector<report::Expectation> baseline = {
      {"m", "cancellation-during-resume", std::nullopt, Verdict::measured, {}, {{"a", "b"}}}};
  CellResult c = cell("m", "cancellation-during-resume", "random", Verdict::measured);
  c.metrics = {{"executions_breaking", {{"a", 3}, {"b", 1}}}};
  EXPECT_EQ(report::compare_with_baseline(baseline, {c}, false).differences, 0u);
  c.metrics["executions_breaking"].erase("b");
  const auto result = report::compare_with_baseline(baseline, {c}, false);
  ASSERT_EQ(result.differences, 1u);
  EXPECT_EQ(result.cases[0].problem, "property changed: measured, broken [a, b] expected, got [a]");
}

TEST(Gate, AnInconclusiveCellSaysHowFarItGot) {
  CellResult c = cell("part9", "shared-mutex-starvation", "pct", Verdict::inconclusive);
  c.planned_executions = 1000;
  const auto result = report::compare_with_baseline(expectations(), {c}, false);
  ASSERT_EQ(result.differences, 2u);  // and part8 is missing
  EXPECT_EQ(result.cases[0].kind, report::GateDifference::inconclusive);
  EXPECT_EQ(result.cases[0].problem,
            "inconclusive: expected pass, but only 10 of 1000 executions ran before the time "
            "budget ended the cell (raise --time-budget)");
}

TEST(Gate, UnknownCellAndMissingCellOfARunScenarioAreDifferences) {
  const auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct", Verdict::fail),
       cell("new_one", "shared-mutex-starvation", "pct", Verdict::pass)},
      false);
  EXPECT_EQ(result.differences, 2u);  // new_one unknown, part9 missing
  EXPECT_NE(result.cases[1].problem.find("no entry"), std::string::npos);
  EXPECT_EQ(result.cases[2].primitive, "part9");
  EXPECT_NE(result.cases[2].problem.find("no report has this cell"), std::string::npos);
}

TEST(Gate, RequireAllCountsScenariosThatDidNotRun) {
  const auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct", Verdict::fail),
       cell("part9", "shared-mutex-starvation", "pct", Verdict::pass)},
      true);
  EXPECT_EQ(result.differences, 1u);
  EXPECT_EQ(result.not_run, 0u);
}

TEST(Gate, ScheduleSpecificExpectationBeatsTheCatchAll) {
  auto baseline = expectations();
  baseline.push_back({"part8", "shared-mutex-starvation", "round-robin", Verdict::pass, {}, {}});
  const auto result = report::compare_with_baseline(
      baseline,
      {cell("part8", "shared-mutex-starvation", "round-robin", Verdict::pass),
       cell("part8", "shared-mutex-starvation", "pct", Verdict::fail),
       cell("part9", "shared-mutex-starvation", "pct", Verdict::pass)},
      false);
  EXPECT_EQ(result.differences, 0u);
}

TEST(Gate, BaselineWrittenFromReportsPassesThemAndPinsProperties) {
  CellResult measured = cell("b", "s1", "pct", Verdict::measured);
  measured.metrics = {{"executions_breaking", {{"x", 2}}}};
  CellResult fail = failing("a", "mutual_exclusion");
  fail.scenario = "s1";
  const std::vector<CellResult> cells = {fail, cell("a", "s1", "random", Verdict::pass), measured};
  TempDir dir;
  const auto path = dir.write("b.json", report::baseline_from_cells(cells).dump());
  const auto baseline = report::read_baseline(path);
  ASSERT_EQ(baseline.size(), 3u);  // a split by schedule (verdicts differ), b one entry
  EXPECT_EQ(baseline[0].property, "mutual_exclusion");
  EXPECT_EQ(baseline[2].broken, std::vector<std::string>{"x"});
  const auto result = report::compare_with_baseline(baseline, cells, true);
  EXPECT_EQ(result.differences, 0u);
}

TEST(Gate, NoBaselineIsWrittenFromReportsThatGiveOneCellTwoVerdicts) {
  // The later verdict won, and the baseline failed the very reports it was written from.
  const std::vector<CellResult> cells = {cell("a", "s1", "pct", Verdict::pass),
                                         cell("a", "s1", "pct", Verdict::fail)};
  try {
    report::baseline_from_cells(cells);
    ADD_FAILURE() << "a baseline was written";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("a x s1 [pct] is pass in one cell of the reports and "
                                         "fail in another"),
              std::string::npos)
        << e.what();
  }
  // The same verdict twice is one expectation.
  EXPECT_EQ(report::baseline_from_cells({cells[0], cells[0]})["cells"].size(), 1u);
}

TEST(Gate, JunitIsWellFormedXmlWithOneFailurePerDifference) {
  auto result = report::compare_with_baseline(
      expectations(),
      {cell("part8", "shared-mutex-starvation", "pct:d=3", Verdict::pass),
       cell("part9<&\"'>", "shared-mutex-starvation", "pct", Verdict::pass),
       cell("fifo_mutex", "mutex-fairness", "random", Verdict::pass)},
      false);
  TempDir dir;
  const auto xml = dir.write("j.xml", report::junit_xml(result));
  // An independent XML parser checks it: Python's, from the python3 the project depends on.
  const std::string check =
      "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
      "s = r.find('testsuite'); c = s.findall('testcase'); "
      "f = [t for t in c if t.find('failure') is not None]; "
      "sys.exit(0 if (r.tag, len(c), len(f), s.get('failures')) == ('testsuites', 4, 3, '3') "
      "else 1)\" " +
      xml.string();
  EXPECT_EQ(result.differences, 3u);
  EXPECT_EQ(std::system(check.c_str()), 0) << testing::read_file(xml);
}

TEST(GateCli, ExitsOneOnADifferenceZeroOnNoneAndWritesJunit) {
  TempDir dir;
  const auto baseline =
      dir.write("baseline.json",
                json{{"schema", report::kBaselineSchema},
                     {"cells", {{{"primitive", "part8"}, {"scenario", "s"}, {"verdict", "fail"}}}}}
                    .dump());
  const auto same =
      dir.write("same.json", report_of({cell("part8", "s", "pct", Verdict::fail)}).dump());
  const auto changed =
      dir.write("changed.json", report_of({cell("part8", "s", "pct", Verdict::pass)}).dump());

  auto r = testing::run_cli(
      {"gate", "--baseline", baseline.string(), same.string(), "--junit", "ok.xml"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 differences"), std::string::npos) << r.out;
  EXPECT_NE(testing::read_file(dir.path() / "ok.xml").find("failures=\"0\""), std::string::npos);

  r = testing::run_cli(
      {"gate", "--baseline", baseline.string(), changed.string(), "--junit", "bad.xml"},
      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("DIFF part8 x s [pct]: bug no longer caught: expected fail, got pass"),
            std::string::npos)
      << r.out;
  EXPECT_NE(testing::read_file(dir.path() / "bad.xml")
                .find("<failure message=\"bug no longer caught: expected fail, got pass\" "
                      "type=\"bug no longer caught\">"),
            std::string::npos);

  r = testing::run_cli({"gate", "--write-baseline", "new.json", changed.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_cli({"gate", "--baseline", "new.json", changed.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace report_gate_test
}  // namespace syncstress
