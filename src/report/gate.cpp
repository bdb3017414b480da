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

/// An entry the baseline pins, for people: "fail (property)", "measured, broken [a, b]", "pass".
std::string describe_entry(const Expectation& e) {
  std::string out(to_string(e.verdict));
  if (const auto p = e.property.value_or(""); !p.empty()) out += concat(" (", p, ")");
  if (e.broken) out += ", broken " + join(*e.broken);
  return out;
}

/// " (property)" for a cell that has a violation, else "".
std::string describe_findings(const CellResult& cell) {
  const auto findings = findings_of(cell);
  return findings.property.empty() ? "" : concat(" (", findings.property, ")");
}

/// "fail (property)" for an expectation that pins one, else the verdict.
std::string expected_text(const Expectation& e) {
  const std::string property = e.property.value_or("");
  return property.empty() ? std::string(to_string(e.verdict))
                          : concat(to_string(e.verdict), " (", property, ")");
}

/// The kind and text of a verdict difference (`cell`'s verdict is not `e`'s).
void verdict_difference(const Expectation& e, const CellResult& cell, GateCase& c) {
  const std::string expected = expected_text(e);
  const std::string actual = concat(to_string(cell.verdict), describe_findings(cell));
  if (cell.verdict == Verdict::inconclusive || cell.verdict == Verdict::interrupted) {
    const bool inconclusive = cell.verdict == Verdict::inconclusive;
    c.kind = inconclusive ? GateDifference::inconclusive : GateDifference::interrupted;
    c.problem = concat(
        to_string(c.kind), ": expected ", expected, ", but only ", std::to_string(cell.executions),
        " of ", std::to_string(cell.planned_executions), " executions ran",
        inconclusive ? " before the time budget ended the cell (raise --time-budget)" : "");
    return;
  }
  c.kind = e.verdict == Verdict::fail      ? GateDifference::bug_no_longer_caught
           : cell.verdict == Verdict::fail ? GateDifference::new_failure
                                           : GateDifference::verdict_changed;
  c.problem = concat(to_string(c.kind), ": expected ", expected, ", got ", actual);
  if (c.kind == GateDifference::new_failure && !cell.violations.empty()) {
    c.problem += ": " + cell.violations.front().message;
  }
}

/// Fills c.kind and c.problem when `cell` differs from `e`.
/// (The optionals are read through value_or: clang-tidy 16's optional-access analysis does not
/// finish on a branchy function that dereferences them.)
void judge_case(const Expectation& e, const CellResult& cell, GateCase& c) {
  if (cell.verdict != e.verdict) {
    verdict_difference(e, cell, c);
    return;
  }
  const auto findings = findings_of(cell);
  if (cell.verdict == Verdict::fail && e.property.has_value() &&
      e.property.value_or("") != findings.property) {
    c.kind = GateDifference::property_changed;
    c.problem = concat(to_string(c.kind), ": expected ", expected_text(e), ", got ",
                       to_string(cell.verdict), " (", findings.property, ")");
  }
  const auto broken = e.broken.value_or(std::vector<std::string>{});
  if (cell.verdict == Verdict::measured && e.broken.has_value() && broken != findings.broken) {
    c.kind = GateDifference::property_changed;
    c.problem = concat(to_string(c.kind), ": measured, broken ", join(broken), " expected, got ",
                       join(findings.broken));
  }
}

/// The expectation `cell` passes: its names and verdict, the property of a fail and the broken
/// properties of a measured cell.
Expectation expectation_of(const CellResult& cell) {
  Expectation e{cell.primitive, cell.scenario, cell.schedule, cell.verdict, {}, {}};
  const auto findings = findings_of(cell);
  if (cell.verdict == Verdict::fail) e.property = findings.property;
  if (cell.verdict == Verdict::measured) e.broken = findings.broken;
  return e;
}

/// Whether `a` and `b` pin the same (their names aside).
bool same_pin(const Expectation& a, const Expectation& b) {
  return a.verdict == b.verdict && a.property == b.property && a.broken == b.broken;
}

/// A baseline entry as parse_baseline reads it.
json to_json(const Expectation& e) {
  json out = {{"primitive", e.primitive},
              {"scenario", e.scenario},
              {"verdict", std::string(to_string(e.verdict))}};
  if (e.schedule) out["schedule"] = *e.schedule;
  if (e.property) out["property"] = *e.property;
  if (e.broken) out["broken"] = *e.broken;
  return out;
}

}  // namespace

std::string_view to_string(GateDifference kind) {
  switch (kind) {
    case GateDifference::none:
      return "";
    case GateDifference::bug_no_longer_caught:
      return "bug no longer caught";
    case GateDifference::new_failure:
      return "new failure";
    case GateDifference::property_changed:
      return "property changed";
    case GateDifference::inconclusive:
      return "inconclusive";
    case GateDifference::interrupted:
      return "interrupted";
    case GateDifference::verdict_changed:
      return "verdict changed";
    case GateDifference::not_in_baseline:
      return "not in baseline";
    case GateDifference::missing:
      return "missing";
  }
  return "";
}

CellFindings findings_of(const CellResult& cell) {
  CellFindings out;
  std::set<std::string> broken;
  for (const auto& v : cell.violations) {
    if (out.property.empty()) out.property = v.property;
    broken.insert(v.property);
  }
  if (cell.metrics.is_object()) {
    const auto counts = cell.metrics.find("executions_breaking");
    if (counts != cell.metrics.end() && counts->is_object()) {
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
    Expectation e{cell["primitive"], cell["scenario"], std::nullopt, Verdict::pass, {}, {}};
    if (cell.contains("schedule")) {
      if (!cell["schedule"].is_string()) bad_baseline(path, where + ".schedule is not a string");
      e.schedule = cell["schedule"].get<std::string>();
    }
    const auto verdict = cell["verdict"].get<std::string>();
    if (const auto v = verdict_from_string(verdict)) {
      e.verdict = *v;
    } else {
      bad_baseline(path,
                   concat(where, " has verdict \"", verdict,
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
                                 const std::vector<CellResult>& cells, bool require_all) {
  GateResult result;
  std::vector<bool> matched(baseline.size(), false);
  std::set<std::string> scenarios_run;
  const auto find_expectation = [&](const CellResult& cell) -> std::optional<std::size_t> {
    std::optional<std::size_t> any_schedule;
    for (std::size_t i = 0; i < baseline.size(); ++i) {
      const auto& e = baseline[i];
      if (e.primitive != cell.primitive || e.scenario != cell.scenario) continue;
      if (e.schedule == cell.schedule) return i;  // an exact schedule beats a catch-all
      if (!e.schedule) any_schedule = i;
    }
    return any_schedule;
  };
  for (const auto& cell : cells) {
    GateCase c{cell.primitive, cell.scenario, cell.schedule};
    c.actual = cell.verdict;
    c.elapsed_seconds = cell.elapsed_seconds;
    scenarios_run.insert(c.scenario);
    if (const auto i = find_expectation(cell)) {
      matched[*i] = true;
      c.expected = baseline[*i].verdict;
      judge_case(baseline[*i], cell, c);
    } else {
      c.kind = GateDifference::not_in_baseline;
      c.problem = concat(to_string(c.kind), ": verdict ", to_string(cell.verdict),
                         describe_findings(cell), ", but the baseline has no entry for this cell");
    }
    result.cases.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    if (matched[i]) continue;
    const auto& e = baseline[i];
    if (!require_all && !scenarios_run.contains(e.scenario)) {
      ++result.not_run;
      continue;
    }
    GateCase c{e.primitive, e.scenario, e.schedule.value_or("")};
    c.expected = e.verdict;
    c.kind = GateDifference::missing;
    c.problem = concat(to_string(c.kind), ": expected ", to_string(e.verdict),
                       ", but no report has this cell");
    result.cases.push_back(std::move(c));
  }
  for (const auto& c : result.cases) {
    if (c.kind != GateDifference::none) ++result.differences;
  }
  return result;
}

json baseline_from_cells(const std::vector<CellResult>& cells) {
  // (primitive, scenario) -> schedule -> the expectation its cell passes; std::map keeps the
  // output sorted and stable.
  std::map<std::pair<std::string, std::string>, std::map<std::string, Expectation>> pinned;
  for (const auto& cell : cells) {
    const Expectation entry = expectation_of(cell);
    const auto [it, added] = pinned[{cell.primitive, cell.scenario}].emplace(cell.schedule, entry);
    if (!added && !same_pin(it->second, entry)) {
      // Kept, either entry would make the baseline fail the very reports it came from.
      throw UsageError(concat(cell_name(cell.primitive, cell.scenario, cell.schedule), " is ",
                              describe_entry(it->second), " in one cell of the reports and ",
                              describe_entry(entry),
                              " in another; a baseline pins one verdict per cell: write it "
                              "from reports that agree (one run of each cell)"));
    }
  }
  json out = json::array();
  for (const auto& [names, by_schedule] : pinned) {
    const Expectation& first = by_schedule.begin()->second;
    const bool one_pin = std::all_of(by_schedule.begin(), by_schedule.end(),
                                     [&](const auto& s) { return same_pin(s.second, first); });
    if (one_pin) {
      Expectation any_schedule = first;
      any_schedule.schedule.reset();
      out.push_back(to_json(any_schedule));
      continue;
    }
    for (const auto& [schedule, entry] : by_schedule) out.push_back(to_json(entry));
  }
  return json{{"schema", kBaselineSchema}, {"cells", out}};
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
    if (c.kind == GateDifference::none) {
      xml << "/>\n";
      continue;
    }
    xml << ">\n      <failure message=\"" << xml_escape(c.problem) << "\" type=\""
        << xml_escape(std::string(to_string(c.kind))) << "\">"
        << xml_escape(concat(cell_name(c.primitive, c.scenario, c.schedule), ": ", c.problem))
        << "</failure>\n    </testcase>\n";
  }
  xml << "  </testsuite>\n</testsuites>\n";
  return xml.str();
}

}  // namespace syncstress::report
