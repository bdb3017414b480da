// A checked report read once (src/report/typed_report.hpp): its cells through the codec, a
// cell the codec cannot read refused with the file and the cell named, and the run's parts
// taken where they have their schema's type and left empty where they do not.
#include "report/report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "report/typed_report.hpp"
#include "scenarios/outcome_json.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace report_typed_report_test {
namespace {

using nlohmann::json;

CellResult failing_cell() {
  CellResult cell;
  cell.primitive = "ticket_mutex";
  cell.scenario = "mutex-safety";
  cell.schedule = "random";
  cell.verdict = Verdict::fail;
  cell.stopped_by = StopReason::violation;
  cell.executions = 3;
  Violation v;
  v.property = "mutual_exclusion";
  v.message = "two holders";
  v.schedule = "ss1.random.7.5.AAAA.BBBB";
  v.overrides = {{"actors", "2"}};
  cell.violations.push_back(v);
  return cell;
}

json report_of(const json& cells) {
  return {{"schema", kReportSchema},
          {"context", {{"host", "vm"}}},
          {"config",
           {{"scenarios", {"mutex-safety"}},
            {"preset_file", "presets/odd.json"},
            {"overrides", {{"actors", "3"}}}}},
          {"cells", cells},
          {"summary", {{"cells_planned", 5}, {"interrupted_by", "SIGINT"}}}};
}

TEST(TypedReport, ReadsEachCellThroughTheCodecAndTheRunsPartsOnce) {
  const json report = report_of(json::array({to_json(failing_cell())}));
  check_report(report, "r.json");
  const TypedReport typed = read_typed_report(report, "r.json");
  ASSERT_EQ(typed.cells.size(), 1u);
  EXPECT_EQ(typed.cells[0].verdict, Verdict::fail);
  EXPECT_EQ(typed.cells[0].stopped_by, StopReason::violation);
  ASSERT_EQ(typed.cells[0].violations.size(), 1u);
  EXPECT_EQ(typed.cells[0].violations[0].overrides.at("actors"), "2");
  EXPECT_EQ(typed.run.scenarios, std::vector<std::string>{"mutex-safety"});
  EXPECT_EQ(typed.run.preset_file, std::filesystem::path("presets/odd.json"));
  EXPECT_EQ(typed.run.overrides, (std::map<std::string, std::string>{{"actors", "3"}}));
  EXPECT_EQ(typed.run.interrupted_by, "SIGINT");
  EXPECT_EQ(typed.run.cells_planned, 5u);
  EXPECT_EQ(typed.context, (json{{"host", "vm"}}));
}

TEST(TypedReport, RefusesAnOverrideThatIsNotTextNamingIt) {
  json report = report_of(json::array());
  report["config"]["overrides"]["rounds"] = 4;
  try {
    read_typed_report(report, "r.json");
    FAIL() << "an override that is not a string was read";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.json: not a syncstress report: config.overrides.rounds is not a string");
  }
}

TEST(TypedReport, LeavesPartsOfAnotherTypeEmpty) {
  json report = report_of(json::array());
  report["config"] = {{"scenarios", "mutex-safety"}, {"preset_file", nullptr}, {"overrides", 3}};
  report["summary"] = {{"cells_planned", -1}, {"interrupted_by", nullptr}};
  report.erase("context");
  const TypedReport typed = read_typed_report(report, "r.json");
  EXPECT_TRUE(typed.cells.empty());
  EXPECT_TRUE(typed.run.scenarios.empty());
  EXPECT_FALSE(typed.run.preset_file.has_value());
  EXPECT_TRUE(typed.run.overrides.empty());
  EXPECT_FALSE(typed.run.interrupted_by.has_value());
  EXPECT_FALSE(typed.run.cells_planned.has_value());
  EXPECT_TRUE(typed.context.is_null());
}

TEST(TypedReport, RefusesACellTheCodecCannotReadNamingTheFileAndTheCell) {
  json lacking = to_json(failing_cell());
  lacking.erase("stopped_by");
  json mistyped = to_json(failing_cell());
  mistyped["parameters"] = json::array({1, 2});
  for (const json& bad : {lacking, mistyped}) {
    const json report = report_of(json::array({to_json(failing_cell()), bad}));
    check_report(report, "r.json");  // what check_report does not check, the codec does
    try {
      read_cells(report, "r.json");
      ADD_FAILURE() << "read: " << bad.dump();
    } catch (const UsageError& e) {
      EXPECT_EQ(
          std::string(e.what()).rfind(
              "r.json: not a syncstress report: cells[1] is not as syncstress run writes it", 0),
          0u)
          << e.what();
      // What is wrong, in the tool's words: without the JSON library's tag.
      EXPECT_EQ(std::string(e.what()).find("[json.exception"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace report_typed_report_test
}  // namespace syncstress::report
