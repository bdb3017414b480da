// Builds, writes, reads and prints the run report.
#include "report/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "report/atomic_file.hpp"
#include "report/version.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/outcome_json.hpp"
#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/safe_name.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace {

using nlohmann::json;

std::string format_utc_now(const char* format) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, format, &utc);
  return buffer;
}

template <class T>
json optional_to_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json config_to_json(const RunDescription& config) {
  return json{
      {"scenarios", config.scenarios},
      {"preset_file", config.preset_file ? json(config.preset_file->string()) : json(nullptr)},
      {"primitives", config.primitives},
      {"schedule", optional_to_json(config.schedule)},
      {"seed", optional_to_json(config.seed)},
      {"executions", optional_to_json(config.executions)},
      {"time_budget_seconds", optional_to_json(config.time_budget_seconds)},
      {"soak", config.soak},
      {"overrides", config.overrides},
      {"shard", optional_to_json(config.shard)},
      {"out", config.out.string()},
  };
}

[[noreturn]] void bad_report(const std::filesystem::path& path, const std::string& what) {
  throw UsageError(concat(path.string(), ": not a syncstress report: ", what));
}

void require_field(const std::filesystem::path& path, const json& object, const char* key,
                   json::value_t type, const std::string& where) {
  const auto it = object.find(key);
  const bool number_ok = type == json::value_t::number_unsigned && it != object.end() &&
                         it->is_number_integer() && !it->is_number_float() &&
                         it->get<std::int64_t>() >= 0;
  const bool float_ok =
      type == json::value_t::number_float && it != object.end() && it->is_number();
  if (it == object.end() || !(it->type() == type || number_ok || float_ok)) {
    bad_report(path,
               concat(where, " needs a field \"", key, "\" of type ", json(type).type_name()));
  }
}

std::string format_seconds(double seconds) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(seconds < 10 ? 2 : 1) << seconds << "s";
  return out.str();
}

}  // namespace

std::string utc_iso8601_now() { return format_utc_now("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_file_stamp_now() { return format_utc_now("%Y%m%dT%H%M%SZ"); }

Context current_context(const std::vector<std::string>& command_line) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return Context{
      .version = kVersion,
      .git_revision = git_revision(),
      .date = utc_iso8601_now(),
      .host = host,
      .cpus = std::thread::hardware_concurrency(),
      .build_type = kBuildType,
      .command_line = command_line,
  };
}

nlohmann::json build_report(const Context& context, const RunDescription& config,
                            const RunOutcome& outcome) {
  json cells = json::array();
  for (const auto& cell : outcome.cells) cells.push_back(to_json(cell));
  json summary = {
      {"cells_planned", std::max(outcome.cells_planned, outcome.cells.size())},
      {"interrupted_by", outcome.interrupted_by == 0
                             ? json(nullptr)
                             : json(outcome.interrupted_by == SIGINT ? "SIGINT" : "SIGTERM")}};
  json report{
      {"schema", kReportSchema},
      {"context",
       {
           {"tool", "syncstress"},
           {"version", context.version},
           {"git_revision", context.git_revision},
           {"date", context.date},
           {"host", context.host},
           {"cpus", context.cpus},
           {"build_type", context.build_type},
           {"command_line", context.command_line},
       }},
      {"config", config_to_json(config)},
      {"cells", cells},
      {"summary", summary},
  };
  recount_summary(report);
  return report;
}

void recount_summary(json& report) {
  json& summary = report["summary"];
  for (const char* k :
       {"pass", "fail", "measured", "inconclusive", "interrupted", "error", "violations"}) {
    summary[k] = 0;
  }
  for (const auto& cell : report.at("cells")) {
    const auto verdict = cell.at("verdict").get<std::string>();
    summary[verdict] = summary.value(verdict, 0) + 1;
    summary["violations"] = summary["violations"].get<std::size_t>() + cell.at("violations").size();
  }
  summary["cells"] = report.at("cells").size();
  summary["cells_planned"] =
      std::max(summary.value("cells_planned", std::size_t{0}), report.at("cells").size());
}

void write_report(const std::filesystem::path& path, const nlohmann::json& report) {
  // The command line and file names come from argv, which need not be UTF-8 (JSON must be):
  // a byte that is not is written as U+FFFD instead of failing the run after its work.
  write_file_atomically(path, report.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

std::string build_of(const nlohmann::json& report) {
  const auto field = [&](const char* key) -> std::string {
    if (!report.contains("context") || !report.at("context").is_object()) return "?";
    const auto& value = report.at("context").value(key, json());
    return value.is_string() ? value.get<std::string>() : value.dump();
  };
  return concat("syncstress ", field("version"), " (", field("git_revision"), ")");
}

std::string this_build() { return concat("syncstress ", kVersion, " (", git_revision(), ")"); }

std::optional<std::string> other_build(const nlohmann::json& report) {
  auto build = build_of(report);
  if (build == this_build()) return std::nullopt;
  return build;
}

std::filesystem::path write_new_report(const std::filesystem::path& dir, std::string_view label,
                                       nlohmann::json& report) {
  // Names are checked where they are read (a preset's, scenarios/preset.cpp): one that is not
  // safe here is a bug of the tool's.
  if (!is_safe_name(label)) throw std::logic_error(concat("unchecked report label '", label, "'"));
  const std::string stem = concat(utc_file_stamp_now(), "-", label);
  constexpr int kMaxTries = 1000;
  for (int n = 1; n <= kMaxTries; ++n) {
    auto path =
        dir / concat(stem, n == 1 ? std::string() : concat("-", std::to_string(n)), ".json");
    report["config"]["out"] = path.string();
    if (write_new_file_atomically(
            path, report.dump(2, ' ', false, json::error_handler_t::replace) + "\n")) {
      return path;
    }
  }
  throw UsageError(concat(dir.string(), " holds ", std::to_string(kMaxTries), " reports named ",
                          stem, "*.json already; give --out FILE"));
}

nlohmann::json read_report(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw UsageError(path.string() + ": no such report file");
  }
  std::ifstream in(path);
  if (!in) throw UsageError(path.string() + ": cannot open the report");
  json report = parse_json_input(in, path.string());
  check_report(report, path);
  return report;
}

void check_report(const nlohmann::json& report, const std::filesystem::path& path) {
  if (!report.is_object()) bad_report(path, "the document is not a JSON object");
  const auto schema = report.find("schema");
  if (schema == report.end() || !schema->is_string()) {
    bad_report(path, "it has no \"schema\" field");
  }
  if (*schema != kReportSchema) {
    bad_report(path,
               concat("schema is ", schema->dump(), ", this tool reads \"", kReportSchema, "\""));
  }
  require_field(path, report, "config", json::value_t::object, "the report");
  require_field(path, report, "cells", json::value_t::array, "the report");
  std::size_t index = 0;
  for (const auto& cell : report["cells"]) {
    const std::string where = concat("cells[", std::to_string(index++), "]");
    if (!cell.is_object()) bad_report(path, where + " is not an object");
    for (const char* key : {"primitive", "scenario", "schedule", "verdict"}) {
      require_field(path, cell, key, json::value_t::string, where);
    }
    if (!verdict_from_string(cell["verdict"].get<std::string>())) {
      bad_report(path, concat(where, " has verdict ", cell["verdict"].dump(),
                              "; valid: pass, fail, measured, inconclusive, interrupted, error"));
    }
    require_field(path, cell, "executions", json::value_t::number_unsigned, where);
    require_field(path, cell, "elapsed_seconds", json::value_t::number_float, where);
    require_field(path, cell, "violations", json::value_t::array, where);
    std::size_t v_index = 0;
    for (const auto& v : cell["violations"]) {
      const std::string v_where = concat(where, ".violations[", std::to_string(v_index++), "]");
      if (!v.is_object()) bad_report(path, concat(v_where, " is not an object"));
      for (const char* key : {"property", "message", "schedule"}) {
        require_field(path, v, key, json::value_t::string, v_where);
      }
      require_field(path, v, "seed", json::value_t::number_unsigned, v_where);
    }
  }
}

/// A wall-clock figure in ns as people read it: "850 ns", "12.3 us", "4.1 ms", "2.0 s".
std::string format_ns(double ns) {
  char buf[32];
  if (ns < 1e3) {
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  } else if (ns < 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
  } else if (ns < 1e9) {
    std::snprintf(buf, sizeof buf, "%.1f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", ns / 1e9);
  }
  return buf;
}

namespace {

/// `v` with `digits` decimals.
std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

/// The cells measured on real threads (stress mode), one line each: throughput, wait
/// percentiles, the victims' (writers') p99, Jain's index over the actors' acquisitions.
void print_stress_table(std::ostream& out, const nlohmann::json& report) {
  std::vector<std::string> lines;
  for (const auto& cell : report.at("cells")) {
    const auto metrics = cell.find("metrics");
    if (metrics == cell.end() || !metrics->is_object() || !metrics->contains("stress")) continue;
    const auto& s = (*metrics)["stress"];
    std::string line = concat(cell.at("primitive").get<std::string>(), " | ",
                              cell.at("scenario").get<std::string>(), " | ");
    if (s.contains("acquisitions_per_second")) {
      line += concat(fixed(s["acquisitions_per_second"].get<double>() / 1e3, 1), "k acq/s");
    } else if (s.contains("items_per_second")) {
      line += concat(fixed(s["items_per_second"].get<double>() / 1e3, 1), "k items/s");
    }
    if (s.contains("wait_ns")) {
      const auto& w = s["wait_ns"];
      line += concat(" | wait p50 ", format_ns(w.value("p50", 0.0)), ", p99 ",
                     format_ns(w.value("p99", 0.0)), ", p99.9 ", format_ns(w.value("p999", 0.0)),
                     ", max ", format_ns(w.value("max", 0.0)));
    }
    for (const char* key : {"writer_wait_ns", "victim_wait_ns"}) {
      if (s.contains(key)) {
        line += concat(" | ", std::string(key).substr(0, std::string(key).find('_')), "s' p99 ",
                       format_ns(s[key].value("p99", 0.0)), ", max ",
                       format_ns(s[key].value("max", 0.0)));
      }
    }
    if (s.contains("jain_fairness_index")) {
      line += concat(" | Jain ", fixed(s["jain_fairness_index"].get<double>(), 3));
    }
    lines.push_back(std::move(line));
  }
  if (lines.empty()) return;
  out << "\nmeasured on real threads (wall clock):\n";
  for (const auto& line : lines) out << "  " << printable(line) << '\n';
}

/// A cell's first violation ("property: message", the message's first line) or its error, cut
/// to 70 characters; empty for neither.
std::string first_violation(const nlohmann::json& cell) {
  std::string first;
  if (!cell.at("violations").empty()) {
    const auto& v = cell["violations"][0];
    const auto property = v.at("property").get<std::string>();
    // One line per cell: the message's first line (a deadlock's wait-for picture follows
    // on the next ones), without the property when the message already starts with it.
    auto message = v.at("message").get<std::string>();
    message = message.substr(0, message.find('\n'));
    first = message.rfind(property + ":", 0) == 0 ? message : concat(property, ": ", message);
  } else if (cell.contains("error") && cell["error"].is_string()) {
    first = cell["error"].get<std::string>();
  }
  constexpr std::size_t kMaxFirst = 70;
  if (first.size() > kMaxFirst) first = first.substr(0, kMaxFirst - 3) + "...";
  return first;
}

/// The exhaustive search's metrics of a cell, or null for a cell no sim search ran.
const nlohmann::json* search_metrics(const nlohmann::json& cell) {
  const auto metrics = cell.find("metrics");
  if (metrics == cell.end() || !metrics->is_object()) return nullptr;
  const auto search = metrics->find(scenarios::kSearchMetricsKey);
  return search != metrics->end() && search->is_object() ? &*search : nullptr;
}

bool search_complete(const nlohmann::json& cell) {
  const auto metrics = cell.find("metrics");
  return metrics != cell.end() && metrics->is_object() && metrics->value("search_complete", false);
}

/// A cell's executions, with " (all)" for a search that ran them all, " of N" for a cell
/// stopped short of the N it planned, and " of about N" for a search stopped short of the N
/// executions it estimated it has in all.
std::string executions_of(const nlohmann::json& cell) {
  std::string executions = std::to_string(cell.at("executions").get<std::uint64_t>());
  // An exhaustive search that ran out of schedules: every one within its bounds was run.
  if (search_complete(cell)) return executions + " (all)";
  // Cut short by the clock or a signal: how far it got.
  const std::string stopped_by = cell.value("stopped_by", std::string());
  if (stopped_by == "time_budget" || stopped_by == "interrupted") {
    executions +=
        concat(" of ", std::to_string(cell.value("planned_executions", std::uint64_t{0})));
  }
  if (const nlohmann::json* search = search_metrics(cell)) {
    const auto estimate = search->find("estimated_executions");
    if (estimate != search->end() && estimate->is_number_unsigned()) {
      executions += concat(" of about ", std::to_string(estimate->get<std::uint64_t>()));
    }
  }
  return executions;
}

/// A cell's verdict; a pass of a search that did not run every schedule says so, since only a
/// complete search's pass holds for every schedule within its bounds.
std::string verdict_of(const nlohmann::json& cell) {
  std::string verdict = printable(cell.at("verdict").get<std::string>());
  const auto metrics = cell.find("metrics");
  if (verdict == "pass" && metrics != cell.end() && search_incomplete(*metrics)) {
    verdict += " (search incomplete)";
  }
  return verdict;
}

/// A cell's row of the table.
std::vector<std::string> table_row(const nlohmann::json& cell) {
  const std::string first = first_violation(cell);
  std::string executions = executions_of(cell);
  // A report may come from anywhere (merge, a resumed file): its text is shown, not obeyed.
  return {printable(cell.at("primitive").get<std::string>()),
          printable(cell.at("scenario").get<std::string>()),
          printable(cell.at("schedule").get<std::string>()),
          verdict_of(cell),
          std::move(executions),
          format_seconds(cell.at("elapsed_seconds").get<double>()),
          printable(first)};
}

/// `header`, a rule, and `rows`, in columns as wide as their widest entry, separated by '|'.
void print_columns(std::ostream& out, const std::vector<std::string>& header,
                   const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  const auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) line += " | ";
      line += row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size(), ' ');
    }
    out << line << '\n';
  };
  print_row(header);
  std::string rule;
  for (std::size_t c = 0; c < width.size(); ++c) {
    if (c) rule += "-+-";
    rule.append(width[c], '-');
  }
  out << rule << '\n';
  for (const auto& row : rows) print_row(row);
}

}  // namespace

bool search_incomplete(const nlohmann::json& metrics) {
  if (!metrics.is_object()) return false;
  const auto search = metrics.find(scenarios::kSearchMetricsKey);
  return search != metrics.end() && search->is_object() && !metrics.value("search_complete", false);
}

void print_table(std::ostream& out, const nlohmann::json& report) {
  const std::vector<std::string> header = {"primitive",  "scenario", "schedule",       "verdict",
                                           "executions", "time",     "first violation"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& cell : report.at("cells")) rows.push_back(table_row(cell));
  print_columns(out, header, rows);
  if (rows.empty()) out << "(no cells)\n";
  print_stress_table(out, report);
}

}  // namespace syncstress::report
