// The HTML page of a report (src/report/html.hpp): every string from the report escaped, one
// table row per cell, the breach step of a swimlane marked, nothing loaded from elsewhere, and
// a page for reports without violations or with metrics, context or summary of unexpected
// types.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/html.hpp"
#include "report/html_text.hpp"
#include "report/swimlane.hpp"
#include "report/typed_report.hpp"

namespace syncstress::report {
namespace report_html_test {
namespace {

using nlohmann::json;

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

json cell(const std::string& primitive, const std::string& verdict) {
  return {{"primitive", primitive},
          {"scenario", "shared-mutex-starvation"},
          {"schedule", "portfolio"},
          {"verdict", verdict},
          {"executions", 1000u},
          {"planned_executions", 1000u},
          {"stopped_by", "executions"},
          {"steps", 25000u},
          {"elapsed_seconds", 0.25},
          {"parameters", {{"readers", "3"}}},
          {"metrics",
           {{"bypasses", 12},
            {"jain_fairness_index", 0.62},
            {"search_complete", false},
            {"wait_steps", {{"p50", 1.0}, {"p90", 10.0}, {"p99", 87.0}, {"max", 242.0}}}}},
          {"violations", json::array()},
          {"error", ""}};
}

const std::vector<std::string> kTrace = {
    "1 t0 spawn t1 scenarios/families/starvation.hpp:80",
    "2 t1 resume frame#1 src/platform/task.hpp:156",
    "3 t1 cas_strong atomic#2 [0 -> -1] primitives/shared_mutex_part8.hpp:68",
    "4 t2 load atomic#2 [-1] primitives/shared_mutex_part8.hpp:70",
    "5 t2 cas_strong atomic#2 [0 -> 1] primitives/shared_mutex_part8.hpp:70",
};

json violation(const std::string& property, const std::string& message) {
  return {{"property", property},
          {"message", message},
          {"seed", 7u},
          {"schedule", "ss1.random.7.5.AAAA.BBBB"},
          {"replay_command",
           "syncstress replay --schedule ss1.random.7.5.AAAA.BBBB --scenario "
           "shared-mutex-starvation --primitive shared_mutex_part8"},
          {"trace", kTrace}};
}

json report_of(std::vector<json> cells) {
  std::size_t violations = 0;
  for (const auto& c : cells) violations += c["violations"].size();
  return {{"schema", "syncstress.report/1"},
          {"context",
           {{"tool", "syncstress"},
            {"git_revision", "abc123"},
            {"host", "vm"},
            {"command_line", {"syncstress", "run", "--scenario", "shared-mutex-starvation"}}}},
          {"config", {{"scenarios", {"shared-mutex-starvation"}}}},
          {"cells", cells},
          {"summary", {{"cells", cells.size()}, {"violations", violations}}}};
}

/// The page of `report`, read as `syncstress html` reads it.
std::string page_of(const json& report, const std::vector<ViolationTrace>& traces) {
  return render_html(read_typed_report(report, "report.json"), traces);
}

std::vector<ViolationTrace> lanes_of(const json& report) {
  std::vector<ViolationTrace> traces;
  for (const auto& c : report["cells"]) {
    for (const auto& v : c["violations"]) {
      traces.push_back({swimlane_table(v["trace"].get<std::vector<std::string>>()), ""});
    }
  }
  return traces;
}

TEST(ReportHtml, EscapesEveryHostileStringOfTheReport) {
  json failing = cell("<script>alert('primitive')</script>", "fail");
  failing["scenario"] = "a&b\"c";
  failing["parameters"]["<img src=x onerror=alert(1)>"] = "</td></tr></table>";
  json v = violation("starvation_freedom", "<script>alert(\"message\")</script>");
  v["trace"].push_back("6 t1 load <b>atomic</b> [1] primitives/x.hpp:1");
  v["replay_command"] = "syncstress replay --schedule '<script>'";
  failing["violations"].push_back(v);
  json report = report_of({failing});
  report["context"]["host"] = "<iframe src=\"javascript:alert(1)\">";
  const std::string page = page_of(report, lanes_of(report));

  EXPECT_EQ(count(page, "<script"), 1u) << "only the page's own script";
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<iframe"), std::string::npos);
  EXPECT_EQ(page.find("<b>atomic"), std::string::npos);
  EXPECT_EQ(page.find("</td></tr></table></td>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&#39;primitive&#39;)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&quot;message&quot;)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(page.find("a&amp;b&quot;c"), std::string::npos);
  EXPECT_NE(page.find("load &lt;b&gt;atomic&lt;/b&gt; [1]"), std::string::npos);
}

TEST(ReportHtml, APassOfASearchCutShortSaysSoInTheTable) {
  json cut = cell("ticket_mutex", "pass");
  cut["schedule"] = "exhaustive";
  cut["metrics"]["exhaustive"] = {{"reduction", "dpor"}};
  json whole = cut;
  whole["primitive"] = "mutex_part7";
  whole["metrics"]["search_complete"] = true;
  const json sampled = cell("platform_mutex", "pass");  // no search: nothing to complete
  const std::string page = page_of(report_of({cut, whole, sampled}), {});
  EXPECT_EQ(count(page, " (search incomplete)"), 1u);
  const auto row = page.find("ticket_mutex</td>");
  ASSERT_NE(row, std::string::npos);
  EXPECT_LT(page.find(" (search incomplete)", row), page.find("</tr>", row));
}

TEST(ReportHtml, EscapeHtmlReplacesControlCharactersAndKeepsUtf8) {
  EXPECT_EQ(escape_html("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(escape_html(std::string("x\0y\x1b", 4)), "x\xEF\xBF\xBDy\xEF\xBF\xBD");
  EXPECT_EQ(escape_html("tab\tline\n\xC3\xA9"), "tab\tline\n\xC3\xA9");
}

TEST(ReportHtml, ShowsOneTableRowPerCellOfTheReport) {
  std::vector<json> cells;
  for (int i = 0; i < 7; ++i) cells.push_back(cell("primitive_" + std::to_string(i), "pass"));
  cells.push_back(cell("measured_one", "measured"));
  const std::string page = page_of(report_of(cells), {});
  EXPECT_EQ(count(page, "<tr class=\"cell-row"), 8u);
  EXPECT_NE(page.find("data-cells=\"8\""), std::string::npos);
  EXPECT_EQ(count(page, "<details class=\"cell"), 8u);
  // The verdict filter has a checkbox per verdict present, hidden until the script shows it.
  EXPECT_NE(page.find("id=\"verdict-filter\" hidden"), std::string::npos);
  EXPECT_EQ(count(page, "type=\"checkbox\" value=\""), 2u);
}

TEST(ReportHtml, MarksTheBreachStepOfEachSwimlaneWithItsMessage) {
  json failing = cell("shared_mutex_part8", "fail");
  failing["violations"].push_back(violation("starvation_freedom", "a writer was bypassed 9 times"));
  json second = cell("shared_mutex_part8_pooled", "fail");
  second["violations"].push_back(violation("deadlock", "no thread can run"));
  const json report = report_of({cell("ticket_shared_mutex", "pass"), failing, second});
  const std::string page = page_of(report, lanes_of(report));

  const auto breach = page.find("<tbody class=\"breach\" id=\"violation-1-breach\">");
  ASSERT_NE(breach, std::string::npos) << page;
  const auto end = page.find("</tbody>", breach);
  const std::string marked = page.substr(breach, end - breach);
  EXPECT_NE(marked.find("cas_strong atomic#2 [0 -&gt; 1]"), std::string::npos) << marked;
  EXPECT_NE(marked.find("starvation_freedom: a writer was bypassed 9 times"), std::string::npos);
  EXPECT_NE(page.find("id=\"violation-2-breach\""), std::string::npos);
  // The harness's resume is there but folded; the lanes are the trace's threads.
  EXPECT_NE(page.find("<tr class=\"step harness"), std::string::npos);
  EXPECT_NE(page.find("2 harness steps folded"), std::string::npos);
  EXPECT_NE(page.find("<th>t0</th><th>t1</th><th>t2</th>"), std::string::npos);
  // The replay command, with a copy button the script shows.
  EXPECT_NE(page.find("id=\"violation-1-command\">syncstress replay --schedule"),
            std::string::npos);
  EXPECT_NE(page.find("data-copy=\"violation-1-command\" hidden>Copy</button>"), std::string::npos);
  // The table's violation count links to the first violation of the cell.
  EXPECT_NE(page.find("<a href=\"#violation-2\">1</a>"), std::string::npos);
}

TEST(ReportHtml, LoadsNothingFromOutsideThePage) {
  json stress = cell("ticket_mutex", "pass");
  stress["metrics"]["stress"] = {
      {"acquisitions_per_actor", {3145, 2790, 3658, 2461}},
      {"acquisitions_per_second", 47480.5},
      {"wait_ns",
       {{"count", 12054},
        {"p50", 1151},
        {"p99", 3932159},
        {"max", 5551380},
        {"buckets", {{120, 553}, {128, 719}, {576, 1825}, {3670016, 84}}}}}};
  json failing = cell("shared_mutex_part8", "fail");
  failing["violations"].push_back(violation("starvation_freedom", "see http://example.com"));
  const json report = report_of({stress, failing});
  std::string page = page_of(report, lanes_of(report));
  // The one URL in the page is the report's own text (in the table, the violation, the
  // breach), never an attribute.
  const std::string own = "see http://example.com";
  ASSERT_NE(page.find(own), std::string::npos);
  for (auto at = page.find(own); at != std::string::npos; at = page.find(own)) {
    EXPECT_NE(page[at - 1], '"');
    page.erase(at, own.size());
  }
  for (const char* external : {"http://", "https://", "//cdn", "<link", "@import", "url(",
                               " src=", "<img", "<iframe", "<object", "<embed"}) {
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  }
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  // The stress figures are drawn inline.
  EXPECT_NE(page.find("Acquisitions per actor (real threads)"), std::string::npos);
  EXPECT_NE(page.find("histogram (12054 waits)"), std::string::npos);
  EXPECT_GE(count(page, "<svg "), 4u);
}

TEST(ReportHtml, RendersAReportWithoutViolations) {
  const std::string page =
      page_of(report_of({cell("ticket_shared_mutex", "pass"), cell("other", "pass")}), {});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("2 cells, 0 violations"), std::string::npos);
  EXPECT_EQ(page.find("class=\"violation\""), std::string::npos);
  EXPECT_EQ(page.find("class=\"breach\""), std::string::npos);
  EXPECT_NE(page.find("Wait to acquire, in scheduling steps"), std::string::npos);
  EXPECT_NE(page.find("</html>\n"), std::string::npos);

  const std::string empty = page_of(report_of({}), {});
  EXPECT_NE(empty.find("The report has no cells."), std::string::npos);
}

TEST(ReportHtml, ShowsATraceWithoutLanesAsTheReportHasIt) {
  json relacy = cell("shared_mutex_part8", "fail");
  json v = violation("data_race", "a load is not ordered after the store");
  v["schedule"] = "rl1.random.1001";
  v["trace"] = {"[0] 0: <obj1> atomic store, value=0", "[1] 2: <obj1> atomic load"};
  relacy["violations"].push_back(v);
  json stress = cell("shared_mutex_part8_pooled", "fail");
  json hang = violation("hang", "no progress for 10 s");
  hang["schedule"] = "";
  hang["replay_command"] = "syncstress run --schedule portfolio --scenario x --primitive y";
  hang["trace"] = {"a trial on real threads; not replayable step by step."};
  stress["violations"].push_back(hang);
  const std::vector<ViolationTrace> traces = {{std::nullopt, "Found by Relacy"},
                                              {std::nullopt, ""}};
  const std::string page = page_of(report_of({relacy, stress}), traces);
  EXPECT_NE(page.find("<pre class=\"trace\">[0] 0: &lt;obj1&gt; atomic store"), std::string::npos);
  EXPECT_NE(page.find("Found by Relacy"), std::string::npos);
  EXPECT_NE(page.find("try next:</span><pre><code id=\"violation-2-command\">syncstress run"),
            std::string::npos);
  EXPECT_EQ(page.find("class=\"breach\""), std::string::npos);
}

TEST(ReportHtml, ToleratesMetricsContextAndSummaryOfUnexpectedTypes) {
  json odd = cell("odd", "fail");
  odd["metrics"] = "not an object";
  odd["violations"].push_back(violation("deadlock", "stuck"));
  json weird = cell("weird", "pass");
  weird["metrics"]["wait_steps"] = {{"p50", "fast"}};
  weird["metrics"]["stress"] = {{"acquisitions_per_actor", "four"}, {"wait_ns", {{"buckets", 3}}}};
  weird["metrics"]["executions_breaking"] = {{"x", "many"}};
  json report = report_of({odd, weird});
  report["context"] = nullptr;
  report["summary"] = 5;
  report["config"]["scenarios"] = {1, 2};
  std::string page;
  EXPECT_NO_THROW(page = page_of(report, {}));
  EXPECT_EQ(count(page, "<tr class=\"cell-row"), 2u);
  EXPECT_NE(page.find("<title>syncstress report</title>"), std::string::npos);
}

TEST(ReportHtml, SwimlaneTableParsesThreadsStepsAndSwitches) {
  const SwimlaneTable table = swimlane_table(
      {"1 t0 spawn t1 scenarios/families/safety.hpp:165", "2 t10 load atomic#1 [0] p.hpp:1",
       "3 t1 store atomic#1 [1] p.hpp:2", "4 t1 exit t1 -", "not a trace line"});
  EXPECT_EQ(table.threads, (std::vector<std::string>{"t0", "t1", "t10"}));
  ASSERT_EQ(table.steps.size(), 5u);
  EXPECT_TRUE(table.steps[0].bookkeeping);  // the scenario's own step
  EXPECT_FALSE(table.steps[0].switched);
  EXPECT_TRUE(table.steps[1].switched);
  EXPECT_EQ(table.steps[1].text, "load atomic#1 [0]");
  EXPECT_EQ(table.steps[1].where, "p.hpp:1");
  EXPECT_TRUE(table.steps[2].switched);
  EXPECT_FALSE(table.steps[3].switched);
  EXPECT_TRUE(table.steps[3].bookkeeping);  // an exit
  EXPECT_FALSE(table.steps[4].parsed);
  EXPECT_EQ(table.steps[4].text, "not a trace line");
}

}  // namespace
}  // namespace report_html_test
}  // namespace syncstress::report
