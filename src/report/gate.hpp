// The CI gate: reports' verdicts against the committed expectations (results/baseline.json).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace syncstress::report {

/// The schema tag of a baseline file.
inline constexpr const char* kBaselineSchema = "syncstress.baseline/1";

/// One expected verdict. Without a schedule it holds for every schedule of the cell.
struct Expectation {
  std::string primitive;
  std::string scenario;
  std::optional<std::string> schedule;
  std::string verdict;
};

/// One compared cell (or one expectation no report covered).
struct GateCase {
  std::string primitive;
  std::string scenario;
  std::string schedule;  ///< empty for a missing expectation without a schedule
  std::string expected;  ///< empty when the baseline has no entry
  std::string actual;    ///< empty when no report has the cell
  double elapsed_seconds = 0;
  std::string problem;  ///< empty when the case agrees with the baseline
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

/// Compares the cells of `reports` (already checked by read_report) with `baseline`.
/// A difference is: a verdict other than expected (a known failure that now passes too), a
/// cell the baseline does not know, or an expectation of a scenario that ran whose cell is
/// missing. With `require_all`, expectations of scenarios that did not run are missing too.
GateResult compare_with_baseline(const std::vector<Expectation>& baseline,
                                 const std::vector<nlohmann::json>& reports, bool require_all);

/// The baseline that makes `reports` pass: one entry per (primitive, scenario), or per
/// schedule where a cell's schedules disagree. Throws UsageError when two cells of the
/// reports are the same cell with different verdicts: no baseline makes both pass.
nlohmann::json baseline_from_reports(const std::vector<nlohmann::json>& reports);

/// JUnit XML (one testsuite, one testcase per GateCase, <failure> on a difference).
std::string junit_xml(const GateResult& result);

/// Escapes text for XML attribute values and character data.
std::string xml_escape(const std::string& text);

}  // namespace syncstress::report
