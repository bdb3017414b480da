// Verdicts against expectations, both ways: a new failure and a failure no longer caught
// are both differences, so CI notices when the tool stops finding a bug.
#include "report/gate.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

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

}  // namespace

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
    Expectation e{cell["primitive"], cell["scenario"], std::nullopt, cell["verdict"]};
    if (cell.contains("schedule")) {
      if (!cell["schedule"].is_string()) bad_baseline(path, where + ".schedule is not a string");
      e.schedule = cell["schedule"].get<std::string>();
    }
    if (!verdict_from_string(e.verdict)) {
      bad_baseline(path, concat(where, " has verdict \"", e.verdict,
                                "\"; valid: pass, fail, measured, error"));
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
        if (c.expected != c.actual) {
          c.problem = concat("expected ", c.expected, ", got ", c.actual);
          if (c.expected == "fail" && c.actual != "fail") {
            c.problem += ": a known failure is no longer detected";
          }
        }
      } else {
        c.problem = concat("verdict ", c.actual, ", but the baseline has no entry for this cell");
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
               concat("expected ", e.verdict, ", but no report has this cell")};
    result.cases.push_back(std::move(c));
  }
  for (const auto& c : result.cases) {
    if (!c.problem.empty()) ++result.differences;
  }
  return result;
}

json baseline_from_reports(const std::vector<json>& reports) {
  // (primitive, scenario) -> schedule -> verdict; std::map keeps the output sorted and stable.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>> verdicts;
  for (const auto& report : reports) {
    for (const auto& cell : report.at("cells")) {
      const std::string primitive = cell.at("primitive");
      const std::string scenario = cell.at("scenario");
      const std::string schedule = cell.at("schedule");
      const std::string verdict = cell.at("verdict");
      const auto [it, added] = verdicts[{primitive, scenario}].emplace(schedule, verdict);
      if (!added && it->second != verdict) {
        // Kept, either verdict would make the baseline fail the very reports it came from.
        throw UsageError(concat(cell_name(primitive, scenario, schedule), " is ", it->second,
                                " in one cell of the reports and ", verdict,
                                " in another; a baseline pins one verdict per cell: write it "
                                "from reports that agree (one run of each cell)"));
      }
    }
  }
  json cells = json::array();
  for (const auto& [key, by_schedule] : verdicts) {
    std::set<std::string> distinct;
    for (const auto& [schedule, verdict] : by_schedule) distinct.insert(verdict);
    if (distinct.size() == 1) {
      cells.push_back(
          {{"primitive", key.first}, {"scenario", key.second}, {"verdict", *distinct.begin()}});
      continue;
    }
    for (const auto& [schedule, verdict] : by_schedule) {
      cells.push_back({{"primitive", key.first},
                       {"scenario", key.second},
                       {"schedule", schedule},
                       {"verdict", verdict}});
    }
  }
  return json{{"schema", kBaselineSchema}, {"cells", cells}};
}

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even when escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
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
    xml << ">\n      <failure message=\"" << xml_escape(c.problem) << "\" type=\"verdict\">"
        << xml_escape(concat(cell_name(c.primitive, c.scenario, c.schedule), ": ", c.problem))
        << "</failure>\n    </testcase>\n";
  }
  xml << "  </testsuite>\n</testsuites>\n";
  return xml.str();
}

}  // namespace syncstress::report
