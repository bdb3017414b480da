#include "report/merge.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "report/report.hpp"
#include "scenarios/outcome_json.hpp"
#include "schedules/shard.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace {

using json = nlohmann::json;

[[noreturn]] void refuse(const std::string& what) { throw UsageError(concat("merge: ", what)); }

/// The run settings every shard must share: the config without where it went, which shard,
/// and how long each part could take (a shard resumed with another --time-budget still covers
/// its part of the same search).
json run_settings(const json& report) {
  json config = report.at("config");
  for (const char* key : {"out", "shard", "time_budget_seconds", "resumed_from"}) config.erase(key);
  return config;
}

std::string cell_name(const json& cell) {
  return concat(cell.at("primitive").get<std::string>(), " x ",
                cell.at("scenario").get<std::string>(), " (",
                cell.at("schedule").get<std::string>(), ")");
}

/// Metrics that describe a distribution or a ratio: not the sum of the shards'.
bool not_additive(const std::string& key) {
  static const std::set<std::string> kKeys = {
      "p50", "p90", "p99", "p99.9", "p999", "jain_fairness_index", "mean", "rate_per_second"};
  return kKeys.count(key) != 0 || key.find("per_second") != std::string::npos ||
         key.find("jain") != std::string::npos;
}

/// Adds metric `from` into `into` (same key, both present): counts add up, maxima take the
/// larger, flags combine; what cannot be combined goes to `dropped`.
void merge_metric(const std::string& key, json& into, const json& from,
                  std::set<std::string>& dropped) {
  if (not_additive(key)) {
    dropped.insert(key);
    return;
  }
  if (key == "search_complete") {
    into = into.get<bool>() && from.get<bool>();
  } else if (key == "distinct_traces_capped") {
    into = into.get<bool>() || from.get<bool>();
  } else if (into.is_object() && from.is_object()) {
    for (const auto& [k, v] : from.items()) {
      if (!into.contains(k)) {
        into[k] = v;
      } else {
        merge_metric(k, into[k], v, dropped);
      }
    }
  } else if (into.is_array() && from.is_array() && into.size() == from.size()) {
    for (std::size_t i = 0; i < into.size(); ++i) merge_metric(key, into[i], from[i], dropped);
  } else if (key == "executions_by_preemptions" && into.is_array() && from.is_array()) {
    // Counts by preemptions: the longer list has entries the shorter one lacks.
    while (into.size() < from.size()) into.push_back(0);
    for (std::size_t i = 0; i < from.size(); ++i) {
      into[i] = into[i].get<std::uint64_t>() + from[i].get<std::uint64_t>();
    }
  } else if (into.is_number_integer() && from.is_number_integer()) {
    if (key.rfind("max", 0) == 0) {
      into = std::max(into.get<std::int64_t>(), from.get<std::int64_t>());
    } else {
      into = into.get<std::int64_t>() + from.get<std::int64_t>();
    }
  } else if (into.is_number() && from.is_number() && key.rfind("max", 0) == 0) {
    into = std::max(into.get<double>(), from.get<double>());
  } else if (into != from) {
    dropped.insert(key);
  }
}

/// Removes the dropped keys wherever they occur.
void erase_keys(json& metrics, const std::set<std::string>& keys) {
  if (!metrics.is_object()) return;
  for (const auto& k : keys) metrics.erase(k);
  for (auto& [k, v] : metrics.items()) erase_keys(v, keys);
}

/// `into` plus `from`'s metrics, with what cannot be added up left out and named in
/// "not_merged" (with what either side had left out already).
json add_metrics(json into, json from) {
  std::set<std::string> dropped;
  for (json* m : {&into, &from}) {
    if (!m->contains("not_merged")) continue;
    for (const auto& k : m->at("not_merged")) dropped.insert(k.get<std::string>());
    m->erase("not_merged");
  }
  merge_metric("metrics", into, from, dropped);
  erase_keys(into, dropped);
  if (!dropped.empty()) {
    into["not_merged"] = std::vector<std::string>(dropped.begin(), dropped.end());
  }
  return into;
}

/// A report's cell, read through the codec; one that is not as run writes it is refused.
CellResult read_cell(const json& cell, const std::filesystem::path& path) {
  try {
    return cell_result_from_json(cell);
  } catch (const json::exception&) {
    refuse(concat(path.string(), ": a cell is not as syncstress run writes it"));
  }
}

/// `a + b`, refusing a sum past 2^64-1: no run makes that many, so a shard that claims it lies.
std::uint64_t add_count(std::uint64_t a, std::uint64_t b, const char* what,
                        const std::filesystem::path& path) {
  if (b > std::numeric_limits<std::uint64_t>::max() - a) {
    refuse(concat(path.string(), ": its ", what, " (", std::to_string(b),
                  ") and the other shards' add up past 2^64-1; no run makes that many"));
  }
  return a + b;
}

/// Cell `c` of every shard (in shard order) as one cell.
json merge_cell(const std::vector<const ShardReport*>& shards, std::size_t c) {
  std::vector<CellResult> cells;
  cells.reserve(shards.size());
  for (const auto* shard : shards)
    cells.push_back(read_cell(shard->report.at("cells")[c], shard->path));
  CellResult out = cells.front();
  json metrics = cells.front().metrics;
  std::uint64_t planned_max = out.planned_executions;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const CellResult& cell = cells[i];
    const auto& path = shards[i]->path;
    out.executions = add_count(out.executions, cell.executions, "executions", path);
    out.steps = add_count(out.steps, cell.steps, "steps", path);
    out.planned_executions =
        add_count(out.planned_executions, cell.planned_executions, "planned executions", path);
    planned_max = std::max(planned_max, cell.planned_executions);
    // The shards ran side by side: the cell took as long as the slowest.
    out.elapsed_seconds = std::max(out.elapsed_seconds, cell.elapsed_seconds);
    if (severity(cell.verdict) > severity(out.verdict)) out.verdict = cell.verdict;
    if (severity(cell.stopped_by) > severity(out.stopped_by)) out.stopped_by = cell.stopped_by;
    out.violations.insert(out.violations.end(), cell.violations.begin(), cell.violations.end());
    if (out.error.empty()) out.error = cell.error;
    metrics = add_metrics(std::move(metrics), cell.metrics);
  }
  // An exhaustive search plans the same cap in every shard; a seeded one its own range.
  if (metrics.contains("exhaustive")) out.planned_executions = planned_max;
  out.metrics = std::move(metrics);
  // Each shard stopped at its own position: resume the shard reports, then merge them.
  out.position = nullptr;
  return to_json(out);
}

}  // namespace

json continue_cell(const json& before_json, const json& after_json) {
  const CellResult before = cell_result_from_json(before_json);
  const CellResult after = cell_result_from_json(after_json);
  CellResult out = after;
  out.executions = before.executions + after.executions;
  out.steps = before.steps + after.steps;
  out.planned_executions = before.planned_executions;
  out.elapsed_seconds = before.elapsed_seconds + after.elapsed_seconds;
  // A measured cell stays measured, unless the continuation says more.
  if (before.verdict == Verdict::measured &&
      severity(after.verdict) < severity(Verdict::measured)) {
    out.verdict = Verdict::measured;
  }
  out.violations = before.violations;
  // A measured cell keeps its first evidence only; a failure adds its own.
  if (after.verdict == Verdict::fail || out.violations.empty()) {
    out.violations.insert(out.violations.end(), after.violations.begin(), after.violations.end());
  }
  out.metrics = add_metrics(before.metrics, after.metrics);
  // How far the search got is the continuation's to say.
  if (after.metrics.contains("search_complete")) {
    out.metrics["search_complete"] = after.metrics["search_complete"];
  }
  return to_json(out);
}

json merge_reports(const std::vector<ShardReport>& shards) {
  if (shards.empty()) refuse("give the shard reports to merge: syncstress merge A.json B.json ...");
  std::vector<const ShardReport*> by_index;
  std::uint32_t count = 0;
  const json settings = run_settings(shards.front().report);
  const auto build = build_of(shards.front().report);
  for (const auto& s : shards) {
    const json& shard_field = s.report.at("config").value("shard", json(nullptr));
    if (!shard_field.is_string()) {
      refuse(concat(s.path.string(), " is not a shard report (its run had no --shard)"));
    }
    const auto shard = parse_shard(shard_field.get<std::string>());
    if (!shard)
      refuse(concat(s.path.string(), ": its shard '", shard_field.dump(), "' is not K/N"));
    if (count == 0) {
      count = shard->count;
      by_index.assign(count, nullptr);
    }
    if (shard->count != count) {
      refuse(concat(s.path.string(), " is a shard of ", std::to_string(shard->count), ", ",
                    shards.front().path.string(), " of ", std::to_string(count),
                    ": not the same run"));
    }
    if (run_settings(s.report) != settings) {
      refuse(concat(s.path.string(), " and ", shards.front().path.string(),
                    " are shards of different runs (their scenarios, primitives, schedule, seed, "
                    "budgets or --set differ)"));
    }
    if (build_of(s.report) != build) {
      refuse(concat(s.path.string(), " and ", shards.front().path.string(),
                    " were made by different builds of syncstress (", build_of(s.report), ", ",
                    build, ")"));
    }
    if (by_index[shard->index] != nullptr) {
      refuse(concat("shard ", shard->describe(), " is given twice: ",
                    by_index[shard->index]->path.string(), " and ", s.path.string()));
    }
    by_index[shard->index] = &s;
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    if (by_index[i] == nullptr) {
      refuse(concat("shard ", Shard{i, count}.describe(), " is missing: merge needs all ",
                    std::to_string(count), " shard reports of the run"));
    }
  }
  const json& first_cells = by_index[0]->report.at("cells");
  for (const auto* s : by_index) {
    const json& cells = s->report.at("cells");
    bool same = cells.size() == first_cells.size();
    for (std::size_t c = 0; same && c < cells.size(); ++c) {
      same = cell_name(cells[c]) == cell_name(first_cells[c]);
    }
    if (!same) {
      refuse(concat(s->path.string(), " has other cells than ", by_index[0]->path.string(),
                    " (a shard interrupted before its last cell?): re-run that shard"));
    }
  }

  json out = by_index[0]->report;
  json cells = json::array();
  for (std::size_t c = 0; c < first_cells.size(); ++c) cells.push_back(merge_cell(by_index, c));
  out["cells"] = cells;
  recount_summary(out);
  json files = json::array();
  for (const auto* s : by_index) files.push_back(s->path.string());
  out["config"]["shard"] = nullptr;
  out["config"]["merged_from"] = files;
  return out;
}

}  // namespace syncstress::report
