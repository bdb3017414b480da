// The CI gate: reports' verdicts against the committed expectations (results/baseline.json).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/outcome.hpp"

namespace syncstress::report {

/// The schema tag of a baseline file.
inline constexpr const char* kBaselineSchema = "syncstress.baseline/1";

/// One expected verdict. Without a schedule it holds for every schedule of the cell.
struct Expectation {
  std::string primitive;
  std::string scenario;
  std::optional<std::string> schedule;
  Verdict verdict = Verdict::pass;
  /// For a fail: the property of the violation reported (unset: any).
  std::optional<std::string> property;
  /// For a measured cell: the properties broken in some execution, sorted (unset: any).
  std::optional<std::vector<std::string>> broken;
};

/// What the gate pins of a report's cell beside its verdict: the violated property of a fail,
/// the properties a measured cell saw broken (metrics.executions_breaking and its violations),
/// sorted.
struct CellFindings {
  std::string property;             ///< the first violation's, or empty
  std::vector<std::string> broken;  ///< sorted, without repeats
};
CellFindings findings_of(const CellResult& cell);

/// How a compared cell differs from the baseline.
enum class GateDifference {
  none,                  ///< it agrees
  bug_no_longer_caught,  ///< a fail was expected and the cell did not fail
  new_failure,           ///< the cell failed where something else was expected
  property_changed,      ///< the expected verdict, but another property (fail) or broken list
  inconclusive,          ///< the time budget ended the cell before its planned executions
  interrupted,           ///< the cell was interrupted
  verdict_changed,       ///< any other verdict than expected
  not_in_baseline,       ///< the baseline has no entry for the cell
  missing,               ///< no report has the expected cell
};

/// The kind as the gate prints it and JUnit types the failure: "bug no longer caught", "new
/// failure", "property changed", "inconclusive", "interrupted", "verdict changed", "not in
/// baseline", "missing"; "" for none.
std::string_view to_string(GateDifference kind);

/// One compared cell (or one expectation no report covered).
struct GateCase {
  std::string primitive;
  std::string scenario;
  std::string schedule;               ///< empty for a missing expectation without a schedule
  std::optional<Verdict> expected{};  ///< none when the baseline has no entry
  std::optional<Verdict> actual{};    ///< none when no report has the cell
  double elapsed_seconds = 0;
  GateDifference kind = GateDifference::none;
  std::string problem{};  ///< empty when the case agrees with the baseline; starts with `kind`
};

struct GateResult {
  std::vector<GateCase> cases;
  std::size_t differences = 0;
  /// Expectations skipped because no report ran their scenario (without require_all).
  std::size_t not_run = 0;
};

/// Reads and checks a baseline file; throws UsageError naming the file and the problem.
std::vector<Expectation> read_baseline(const std::filesystem::path& path);

/// The checks of read_baseline on a parsed document (parse_json_input's result) of file `path`.
std::vector<Expectation> parse_baseline(const nlohmann::json& doc,
                                        const std::filesystem::path& path);

/// Compares `cells` (the cells of the reports, read by read_cells) with `baseline`.
/// A difference is: a verdict other than expected (a known failure that now passes too), a
/// fail with another property than expected, a measured cell whose broken properties differ,
/// a cell the baseline does not know, or an expectation of a scenario that ran whose cell is
/// missing. With `require_all`, expectations of scenarios that did not run are missing too.
GateResult compare_with_baseline(const std::vector<Expectation>& baseline,
                                 const std::vector<CellResult>& cells, bool require_all);

/// The baseline that makes `cells` pass: one entry per (primitive, scenario), or per schedule
/// where a cell's schedules disagree. Throws UsageError when two of the cells are the same cell
/// with different verdicts: no baseline makes both pass.
nlohmann::json baseline_from_cells(const std::vector<CellResult>& cells);

/// JUnit XML (one testsuite, one testcase per GateCase, <failure> on a difference).
std::string junit_xml(const GateResult& result);

/// Escapes text for XML attribute values and character data.
std::string xml_escape(const std::string& text);

}  // namespace syncstress::report
