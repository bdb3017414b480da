#include "report/merge.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "report/report.hpp"
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

/// How a merged cell stopped: the most telling of its shards' reasons.
std::string merged_stop(const std::vector<std::string>& reasons) {
  for (const char* reason : {"error", "violation", "interrupted", "time_budget"}) {
    if (std::find(reasons.begin(), reasons.end(), reason) != reasons.end()) return reason;
  }
  if (std::all_of(reasons.begin(), reasons.end(),
                  [](const std::string& r) { return r == "exhausted"; })) {
    return "exhausted";
  }
  return "executions";
}

std::string merged_verdict(const std::vector<std::string>& verdicts) {
  for (const char* v : {"error", "fail", "interrupted", "inconclusive", "measured"}) {
    if (std::find(verdicts.begin(), verdicts.end(), v) != verdicts.end()) return v;
  }
  return "pass";
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

json merge_cell(const std::vector<const json*>& parts) {
  json out = *parts.front();
  std::uint64_t executions = 0, planned = 0, planned_max = 0, steps = 0;
  double elapsed = 0;
  std::vector<std::string> verdicts, reasons;
  json violations = json::array();
  std::string error;
  for (const json* cell : parts) {
    executions += cell->at("executions").get<std::uint64_t>();
    steps += cell->value("steps", std::uint64_t{0});
    planned += cell->value("planned_executions", std::uint64_t{0});
    planned_max = std::max(planned_max, cell->value("planned_executions", std::uint64_t{0}));
    elapsed = std::max(elapsed, cell->value("elapsed_seconds", 0.0));
    verdicts.push_back(cell->at("verdict").get<std::string>());
    reasons.push_back(cell->value("stopped_by", std::string("executions")));
    for (const auto& v : cell->at("violations")) violations.push_back(v);
    const auto e = cell->value("error", std::string());
    if (!e.empty() && error.empty()) error = e;
  }
  json metrics = out.value("metrics", json::object());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    metrics = add_metrics(std::move(metrics), parts[i]->value("metrics", json::object()));
  }
  // An exhaustive search plans the same cap in every shard; a seeded one its own range.
  const bool exhaustive = metrics.contains("exhaustive");
  out["executions"] = executions;
  out["steps"] = steps;
  out["planned_executions"] = exhaustive ? planned_max : planned;
  out["elapsed_seconds"] = elapsed;
  out["verdict"] = merged_verdict(verdicts);
  out["stopped_by"] = merged_stop(reasons);
  out["violations"] = violations;
  out["error"] = error;
  out["metrics"] = metrics;
  // Each shard stopped at its own position: resume the shard reports, then merge them.
  out["position"] = nullptr;
  return out;
}

}  // namespace

json continue_cell(const json& before, const json& after) {
  json out = after;
  out["executions"] =
      before.at("executions").get<std::uint64_t>() + after.at("executions").get<std::uint64_t>();
  out["steps"] = before.value("steps", std::uint64_t{0}) + after.value("steps", std::uint64_t{0});
  out["planned_executions"] = before.at("planned_executions");
  out["elapsed_seconds"] =
      before.value("elapsed_seconds", 0.0) + after.value("elapsed_seconds", 0.0);
  const auto v_before = before.at("verdict").get<std::string>();
  const auto v_after = after.at("verdict").get<std::string>();
  if (v_before == "measured" && (v_after == "pass" || v_after == "measured" ||
                                 v_after == "inconclusive" || v_after == "interrupted")) {
    out["verdict"] = v_after == "pass" ? "measured" : v_after;
  }
  json violations = before.at("violations");
  // A measured cell keeps its first evidence only; a failure adds its own.
  if (v_after == "fail" || violations.empty()) {
    for (const auto& v : after.at("violations")) violations.push_back(v);
  }
  out["violations"] = violations;
  json metrics =
      add_metrics(before.value("metrics", json::object()), after.value("metrics", json::object()));
  // How far the search got is the continuation's to say.
  if (after.contains("metrics") && after["metrics"].contains("search_complete")) {
    metrics["search_complete"] = after["metrics"]["search_complete"];
  }
  out["metrics"] = metrics;
  return out;
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
  for (std::size_t c = 0; c < first_cells.size(); ++c) {
    std::vector<const json*> parts;
    parts.reserve(by_index.size());
    for (const auto* s : by_index) parts.push_back(&s->report.at("cells")[c]);
    cells.push_back(merge_cell(parts));
  }
  out["cells"] = cells;
  recount_summary(out);
  json files = json::array();
  for (const auto* s : by_index) files.push_back(s->path.string());
  out["config"]["shard"] = nullptr;
  out["config"]["merged_from"] = files;
  return out;
}

}  // namespace syncstress::report
