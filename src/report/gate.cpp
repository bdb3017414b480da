// Verdicts against expectations, both ways: a new failure and a failure no longer caught
// are both differences, so CI notices when the tool stops finding a bug.
#include "report/gate.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "report/markup.hpp"
#include "scenarios/outcome.hpp"
#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace {

using nlohmann::json;

[[noreturn]] void bad_baseline(const std::filesystem::path& path, const std::string& what) {
  throw UsageError(concat(path.string(), ": not a syncstress baseline: ", what));
}

std::string cell_name(const std::string& primitive, const std::string& scenario,
                      const std::string& schedule) {
  std::string name = concat(primitive, " x ", scenario);
  if (!schedule.empty()) name += concat(" [", schedule, "]");
  return name;
}

std::string join(const std::vector<std::string>& names) {
  std::string out = "[";
  for (const auto& n : names) out += (out.size() > 1 ? ", " : "") + n;
  return out + "]";
}

/// A baseline entry for people: "fail (property)", "measured, broken [a, b]", "pass".
std::string describe_entry(const json& entry) {
  std::string out = entry.at("verdict").get<std::string>();
  if (const auto p = entry.value("property", std::string()); !p.empty())
    out += concat(" (", p, ")");
  if (entry.contains("broken")) {
    out += ", broken " + join(entry["broken"].get<std::vector<std::string>>());
  }
  return out;
}

/// " (property)" for a cell that has a violation, else "".
std::string describe_findings(const json& cell) {
  const auto findings = findings_of(cell);
  return findings.property.empty() ? "" : concat(" (", findings.property, ")");
}

/// "fail (property)" for an expectation that pins one, else the verdict.
std::string expected_text(const Expectation& e) {
  const std::string property = e.property.value_or("");
  return property.empty() ? e.verdict : concat(e.verdict, " (", property, ")");
}

/// The kind and text of a verdict difference (c.expected != c.actual).
void verdict_difference(const std::string& expected, const json& cell, GateCase& c) {
  const std::string actual = concat(c.actual, describe_findings(cell));
  if (c.actual == "inconclusive" || c.actual == "interrupted") {
    c.kind = c.actual;
    c.problem = concat(
        c.kind, ": expected ", expected, ", but only ",
        std::to_string(cell.value("executions", std::uint64_t{0})), " of ",
        std::to_string(cell.value("planned_executions", std::uint64_t{0})), " executions ran",
        c.actual == "inconclusive" ? " before the time budget ended the cell (raise --time-budget)"
                                   : "");
    return;
  }
  c.kind = c.expected == "fail" ? "bug no longer caught"
           : c.actual == "fail" ? "new failure"
                                : "verdict changed";
  c.problem = concat(c.kind, ": expected ", expected, ", got ", actual);
  const auto& v = cell.at("violations");
  if (c.kind == "new failure" && !v.empty()) {
    c.problem += ": " + v[0].value("message", std::string());
  }
}

/// Fills c.kind and c.problem when `cell` differs from `e` (c.expected and c.actual are set).
/// (The optionals are read through value_or: clang-tidy 16's optional-access analysis does not
/// finish on a branchy function that dereferences them.)
void judge_case(const Expectation& e, const json& cell, GateCase& c) {
  const std::string expected = expected_text(e);
  if (c.expected != c.actual) {
    verdict_difference(expected, cell, c);
    return;
  }
  const auto findings = findings_of(cell);
  if (c.actual == "fail" && e.property.has_value() &&
      e.property.value_or("") != findings.property) {
    c.kind = "property changed";
    c.problem =
        concat(c.kind, ": expected ", expected, ", got ", c.actual, " (", findings.property, ")");
  }
  const auto broken = e.broken.value_or(std::vector<std::string>{});
  if (c.actual == "measured" && e.broken.has_value() && broken != findings.broken) {
    c.kind = "property changed";
    c.problem = concat(c.kind, ": measured, broken ", join(broken), " expected, got ",
                       join(findings.broken));
  }
}

}  // namespace

CellFindings findings_of(const json& cell) {
  CellFindings out;
  std::set<std::string> broken;
  const auto violations = cell.find("violations");
  if (violations != cell.end() && violations->is_array()) {
    for (const auto& v : *violations) {
      const auto p = v.find("property");
      if (p == v.end() || !p->is_string()) continue;
      if (out.property.empty()) out.property = p->get<std::string>();
      broken.insert(p->get<std::string>());
    }
  }
  const auto metrics = cell.find("metrics");
  if (metrics != cell.end() && metrics->is_object()) {
    const auto counts = metrics->find("executions_breaking");
    if (counts != metrics->end() && counts->is_object()) {
      for (const auto& [property, n] : counts->items()) broken.insert(property);
    }
  }
  out.broken.assign(broken.begin(), broken.end());
  return out;
}

std::vector<Expectation> read_baseline(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw UsageError(path.string() + ": no such baseline file");
  }
  std::ifstream in(path);
  return parse_baseline(parse_json_input(in, path.string()), path);
}

std::vector<Expectation> parse_baseline(const nlohmann::json& doc,
                                        const std::filesystem::path& path) {
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kBaselineSchema) {
    bad_baseline(path, concat("it needs \"schema\": \"", kBaselineSchema, "\""));
  }
  if (!doc.contains("cells") || !doc["cells"].is_array()) {
    bad_baseline(path, "it needs a \"cells\" array");
  }
  std::vector<Expectation> baseline;
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::size_t index = 0;
  for (const auto& cell : doc["cells"]) {
    const std::string where = concat("cells[", std::to_string(index++), "]");
    if (!cell.is_object()) bad_baseline(path, where + " is not an object");
    for (const char* key : {"primitive", "scenario", "verdict"}) {
      if (!cell.contains(key) || !cell[key].is_string()) {
        bad_baseline(path, concat(where, " needs a string field \"", key, "\""));
      }
    }
    Expectation e{cell["primitive"], cell["scenario"], std::nullopt, cell["verdict"], {}, {}};
    if (cell.contains("schedule")) {
      if (!cell["schedule"].is_string()) bad_baseline(path, where + ".schedule is not a string");
      e.schedule = cell["schedule"].get<std::string>();
    }
    if (!verdict_from_string(e.verdict)) {
      bad_baseline(path,
                   concat(where, " has verdict \"", e.verdict,
                          "\"; valid: pass, fail, measured, inconclusive, interrupted, error"));
    }
    if (cell.contains("property")) {
      if (!cell["property"].is_string()) bad_baseline(path, where + ".property is not a string");
      e.property = cell["property"].get<std::string>();
    }
    if (cell.contains("broken")) {
      std::vector<std::string> broken;
      if (!cell["broken"].is_array()) bad_baseline(path, where + ".broken is not an array");
      for (const auto& b : cell["broken"]) {
        if (!b.is_string()) bad_baseline(path, where + ".broken holds a non-string");
        broken.push_back(b.get<std::string>());
      }
      std::sort(broken.begin(), broken.end());
      broken.erase(std::unique(broken.begin(), broken.end()), broken.end());
      e.broken = std::move(broken);
    }
    if (!seen.insert({e.primitive, e.scenario, e.schedule.value_or("*")}).second) {
      bad_baseline(path, concat(where, " repeats ",
                                cell_name(e.primitive, e.scenario, e.schedule.value_or(""))));
    }
    baseline.push_back(std::move(e));
  }
  return baseline;
}

GateResult compare_with_baseline(const std::vector<Expectation>& baseline,
                                 const std::vector<json>& reports, bool require_all) {
  GateResult result;
  std::vector<bool> matched(baseline.size(), false);
  std::set<std::string> scenarios_run;
  const auto find_expectation = [&](const std::string& primitive, const std::string& scenario,
                                    const std::string& schedule) -> std::optional<std::size_t> {
    std::optional<std::size_t> any_schedule;
    for (std::size_t i = 0; i < baseline.size(); ++i) {
      const auto& e = baseline[i];
      if (e.primitive != primitive || e.scenario != scenario) continue;
      if (e.schedule == schedule) return i;  // an exact schedule beats a catch-all
      if (!e.schedule) any_schedule = i;
    }
    return any_schedule;
  };
  for (const auto& report : reports) {
    for (const auto& cell : report.at("cells")) {
      GateCase c;
      c.primitive = cell.at("primitive").get<std::string>();
      c.scenario = cell.at("scenario").get<std::string>();
      c.schedule = cell.at("schedule").get<std::string>();
      c.actual = cell.at("verdict").get<std::string>();
      c.elapsed_seconds = cell.at("elapsed_seconds").get<double>();
      scenarios_run.insert(c.scenario);
      if (const auto i = find_expectation(c.primitive, c.scenario, c.schedule)) {
        matched[*i] = true;
        c.expected = baseline[*i].verdict;
        judge_case(baseline[*i], cell, c);
      } else {
        c.kind = "not in baseline";
        c.problem = concat(c.kind, ": verdict ", c.actual, describe_findings(cell),
                           ", but the baseline has no entry for this cell");
      }
      result.cases.push_back(std::move(c));
    }
  }
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    if (matched[i]) continue;
    const auto& e = baseline[i];
    if (!require_all && !scenarios_run.contains(e.scenario)) {
      ++result.not_run;
      continue;
    }
    GateCase c{e.primitive,
               e.scenario,
               e.schedule.value_or(""),
               e.verdict,
               "",
               0,
               "missing",
               concat("missing: expected ", e.verdict, ", but no report has this cell")};
    result.cases.push_back(std::move(c));
  }
  for (const auto& c : result.cases) {
    if (!c.problem.empty()) ++result.differences;
  }
  return result;
}

json baseline_from_reports(const std::vector<json>& reports) {
  // (primitive, scenario) -> schedule -> what is pinned of the cell (its entry without the
  // names); std::map keeps the output sorted and stable.
  std::map<std::pair<std::string, std::string>, std::map<std::string, json>> pinned;
  for (const auto& report : reports) {
    for (const auto& cell : report.at("cells")) {
      const std::string primitive = cell.at("primitive");
      const std::string scenario = cell.at("scenario");
      const std::string schedule = cell.at("schedule");
      const std::string verdict = cell.at("verdict");
      json entry = {{"verdict", verdict}};
      const auto findings = findings_of(cell);
      if (verdict == "fail") entry["property"] = findings.property;
      if (verdict == "measured") entry["broken"] = findings.broken;
      const auto [it, added] = pinned[{primitive, scenario}].emplace(schedule, entry);
      if (!added && it->second != entry) {
        // Kept, either entry would make the baseline fail the very reports it came from.
        throw UsageError(concat(cell_name(primitive, scenario, schedule), " is ",
                                describe_entry(it->second), " in one cell of the reports and ",
                                describe_entry(entry),
                                " in another; a baseline pins one verdict per cell: write it "
                                "from reports that agree (one run of each cell)"));
      }
    }
  }
  json cells = json::array();
  for (const auto& [key, by_schedule] : pinned) {
    std::set<std::string> distinct;
    for (const auto& [schedule, entry] : by_schedule) distinct.insert(entry.dump());
    const auto names = [&](const std::string* schedule) {
      json out = {{"primitive", key.first}, {"scenario", key.second}};
      if (schedule) out["schedule"] = *schedule;
      return out;
    };
    if (distinct.size() == 1) {
      json out = names(nullptr);
      out.update(by_schedule.begin()->second);
      cells.push_back(out);
      continue;
    }
    for (const auto& [schedule, entry] : by_schedule) {
      json out = names(&schedule);
      out.update(entry);
      cells.push_back(out);
    }
  }
  return json{{"schema", kBaselineSchema}, {"cells", cells}};
}

std::string xml_escape(const std::string& text) {
  // XML 1.0 forbids most control characters even when escaped.
  return escape_markup(text, {"&apos;", "?", /*del_too=*/false});
}

std::string junit_xml(const GateResult& result) {
  double total_time = 0;
  for (const auto& c : result.cases) total_time += c.elapsed_seconds;
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"syncstress gate\" tests=\"" << result.cases.size() << "\" failures=\""
      << result.differences << "\" errors=\"0\" time=\"" << total_time << "\">\n";
  xml << "  <testsuite name=\"syncstress.gate\" tests=\"" << result.cases.size() << "\" failures=\""
      << result.differences << "\" errors=\"0\" skipped=\"0\" time=\"" << total_time << "\">\n";
  for (const auto& c : result.cases) {
    std::string name = c.primitive;
    if (!c.schedule.empty()) name += concat(" [", c.schedule, "]");
    xml << "    <testcase classname=\"" << xml_escape(c.scenario) << "\" name=\""
        << xml_escape(name) << "\" time=\"" << c.elapsed_seconds << "\"";
    if (c.problem.empty()) {
      xml << "/>\n";
      continue;
    }
    xml << ">\n      <failure message=\"" << xml_escape(c.problem) << "\" type=\""
        << xml_escape(c.kind) << "\">"
        << xml_escape(concat(cell_name(c.primitive, c.scenario, c.schedule), ": ", c.problem))
        << "</failure>\n    </testcase>\n";
  }
  xml << "  </testsuite>\n</testsuites>\n";
  return xml.str();
}

}  // namespace syncstress::report
