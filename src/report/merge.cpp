#include "report/merge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/report.hpp"
#include "scenarios/metrics.hpp"
#include "scenarios/outcome_json.hpp"
#include "schedules/shard.hpp"
#include "schedules/strategy_spec.hpp"
#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace {

using json = nlohmann::json;
using scenarios::metric_merge_rule;
using scenarios::MetricMerge;

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

/// A metric's path as "not_merged" names it: its keys joined by '.'.
std::string dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& key : path) {
    if (!out.empty()) out += '.';
    out += key;
  }
  return out;
}

/// An integer as a count: nullopt for a negative one.
std::optional<std::uint64_t> count_of(const json& n) {
  if (n.is_number_unsigned()) return n.get<std::uint64_t>();
  if (n.is_number_integer() && n.get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(n.get<std::int64_t>());
  }
  return std::nullopt;
}

/// `a + b` for two counts: integers stay integers (nullopt past 2^64-1 or for a negative one),
/// any other pair of numbers adds as doubles.
std::optional<json> add_numbers(const json& a, const json& b) {
  if (!a.is_number() || !b.is_number()) return std::nullopt;
  if (a.is_number_integer() && b.is_number_integer()) {
    const auto x = count_of(a), y = count_of(b);
    if (!x || !y || *y > std::numeric_limits<std::uint64_t>::max() - *x) return std::nullopt;
    return json(*x + *y);
  }
  return json(a.get<double>() + b.get<double>());
}

/// A histogram's [lower bound, count] pairs by lower bound; nullopt for anything else.
std::optional<std::map<std::uint64_t, std::uint64_t>> histogram_of(const json& pairs) {
  if (!pairs.is_array()) return std::nullopt;
  std::map<std::uint64_t, std::uint64_t> out;
  for (const auto& pair : pairs) {
    if (!pair.is_array() || pair.size() != 2) return std::nullopt;
    const auto lower = count_of(pair[0]), count = count_of(pair[1]);
    if (!lower || !count) return std::nullopt;
    auto& slot = out[*lower];
    if (*count > std::numeric_limits<std::uint64_t>::max() - slot) return std::nullopt;
    slot += *count;
  }
  return out;
}

/// `into` combined with `from` by `rule`; false when they cannot be (the rule keeps no whole
/// value, the parts disagree on a setting, or a value is not of the rule's type).
bool combine(MetricMerge rule, json& into, const json& from) {
  switch (rule) {
    case MetricMerge::sum: {
      auto sum = add_numbers(into, from);
      if (!sum) return false;
      into = std::move(*sum);
      return true;
    }
    case MetricMerge::max:
      if (!into.is_number() || !from.is_number()) return false;
      if (from.get<double>() > into.get<double>()) into = from;
      return true;
    case MetricMerge::all:
    case MetricMerge::any:
      if (!into.is_boolean() || !from.is_boolean()) return false;
      into = rule == MetricMerge::all ? into.get<bool>() && from.get<bool>()
                                      : into.get<bool>() || from.get<bool>();
      return true;
    case MetricMerge::same:
      return into == from;
    case MetricMerge::sum_each: {
      if (!into.is_array() || !from.is_array()) return false;
      while (into.size() < from.size()) into.push_back(0);
      for (std::size_t i = 0; i < from.size(); ++i) {
        auto sum = add_numbers(into[i], from[i]);
        if (!sum) return false;
        into[i] = std::move(*sum);
      }
      return true;
    }
    case MetricMerge::histogram: {
      auto counts = histogram_of(into);
      const auto more = histogram_of(from);
      if (!counts || !more) return false;
      for (const auto& [lower, count] : *more) {
        if (count > std::numeric_limits<std::uint64_t>::max() - (*counts)[lower]) return false;
        (*counts)[lower] += count;
      }
      into = json::array();
      for (const auto& [lower, count] : *counts) into.push_back({lower, count});
      return true;
    }
    case MetricMerge::not_merged:
      return false;
  }
  return false;
}

/// A metric only one part has: kept as that part's, unless no whole value can be made of it.
void one_sided(std::vector<std::string>& path, const json& value, std::set<std::string>& dropped) {
  if (value.is_object()) {
    for (const auto& [key, v] : value.items()) {
      path.push_back(key);
      one_sided(path, v, dropped);
      path.pop_back();
    }
    return;
  }
  const auto rule = metric_merge_rule(path);
  if (!rule || *rule == MetricMerge::not_merged) dropped.insert(dotted(path));
}

/// Combines the metrics at `path` of two parts, each by its own rule (metric_merge_rule); the
/// paths of those that cannot be combined go to `dropped`.
void merge_metric(std::vector<std::string>& path, json& into, const json& from,
                  std::set<std::string>& dropped) {
  if (into.is_object() && from.is_object()) {
    for (const auto& [key, v] : into.items()) {
      if (from.contains(key)) continue;
      path.push_back(key);
      one_sided(path, v, dropped);
      path.pop_back();
    }
    for (const auto& [key, v] : from.items()) {
      path.push_back(key);
      if (into.contains(key)) {
        merge_metric(path, into[key], v, dropped);
      } else {
        into[key] = v;
        one_sided(path, v, dropped);
      }
      path.pop_back();
    }
    return;
  }
  const auto rule = metric_merge_rule(path);
  if (!rule || !combine(*rule, into, from)) dropped.insert(dotted(path));
}

/// Removes the metric at dotted path `path`.
void erase_path(json& metrics, std::string_view path) {
  json* at = &metrics;
  for (std::size_t dot; (dot = path.find('.')) != std::string_view::npos;) {
    if (!at->is_object()) return;
    const auto it = at->find(std::string(path.substr(0, dot)));
    if (it == at->end()) return;
    at = &*it;
    path.remove_prefix(dot + 1);
  }
  if (at->is_object()) at->erase(std::string(path));
}

/// `into` plus `from`'s metrics, each by its rule, with what cannot be combined left out and
/// its path named in "not_merged" (with what either side had left out already).
json add_metrics(json into, json from) {
  std::set<std::string> dropped;
  for (json* m : {&into, &from}) {
    if (!m->contains("not_merged")) continue;
    for (const auto& k : m->at("not_merged")) {
      if (k.is_string()) dropped.insert(k.get<std::string>());
    }
    m->erase("not_merged");
  }
  std::vector<std::string> path;
  merge_metric(path, into, from, dropped);
  for (const auto& p : dropped) erase_path(into, p);
  if (!dropped.empty()) {
    into["not_merged"] = std::vector<std::string>(dropped.begin(), dropped.end());
  }
  return into;
}

/// A report's cell, read through the codec and checked for what no run writes; one that is not
/// as run writes it is refused, naming the field.
CellResult read_cell(const json& cell, const std::filesystem::path& path) {
  CellResult out;
  try {
    out = cell_result_from_json(cell);
  } catch (const json::exception&) {
    refuse(concat(path.string(), ": a cell is not as syncstress run writes it"));
  }
  const auto wrong = [&](const std::string& what) {
    refuse(concat(path.string(), ": cell ", out.primitive, " x ", out.scenario, " ", what,
                  ", which no run writes; merge the shard reports as run wrote them"));
  };
  if (out.executions > out.planned_executions) {
    wrong(concat("has executions ", std::to_string(out.executions),
                 " above its planned_executions ", std::to_string(out.planned_executions)));
  }
  // Every execution takes a step (a platform that counts none writes 0).
  if (out.steps != 0 && out.steps < out.executions) {
    wrong(concat("has steps ", std::to_string(out.steps), ", fewer than its executions ",
                 std::to_string(out.executions)));
  }
  if (!(out.elapsed_seconds >= 0) || !std::isfinite(out.elapsed_seconds)) {
    wrong("has an elapsed_seconds that is negative or not a number");
  }
  if (out.verdict == Verdict::pass && !out.violations.empty()) {
    wrong("passed with violations");
  }
  if (out.verdict == Verdict::fail && out.violations.empty()) {
    wrong("failed without a violation");
  }
  if (out.verdict == Verdict::fail && out.stopped_by != StopReason::violation) {
    wrong(concat("failed but stopped by ", to_string(out.stopped_by)));
  }
  if (out.verdict == Verdict::error && out.error.empty()) wrong("is an error without its text");
  return out;
}

/// The strategy a cell's schedule column names; a cell whose column names none is refused.
StrategySpec schedule_of(const CellResult& cell, const std::filesystem::path& path) {
  try {
    return parse_strategy_spec(cell.schedule);
  } catch (const StrategyError&) {
    refuse(concat(path.string(), ": cell ", cell.primitive, " x ", cell.scenario,
                  " names no strategy in its schedule column"));
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
  // A search split by prefix plans the same cap in every shard; a seeded one its own range.
  if (splits_by_prefix(schedule_of(out, shards.front()->path))) {
    out.planned_executions = planned_max;
  }
  out.metrics = std::move(metrics);
  // Each shard stopped at its own position: resume the shard reports, then merge them.
  out.position = nullptr;
  return to_json(out);
}

/// The shard report `s` is of; a report whose run had no --shard, or whose shard is not K/N, is
/// refused.
Shard shard_of(const ShardReport& s) {
  const json& shard_field = s.report.at("config").value("shard", json(nullptr));
  if (!shard_field.is_string()) {
    refuse(concat(s.path.string(), " is not a shard report (its run had no --shard)"));
  }
  const auto shard = parse_shard(shard_field.get<std::string>());
  if (!shard) refuse(concat(s.path.string(), ": its shard '", shard_field.dump(), "' is not K/N"));
  return *shard;
}

/// What the shards of one run share, as its first shard report has them.
struct RunOfShards {
  const ShardReport& first;
  std::uint32_t count;  ///< N of K/N
  json settings;        ///< as run_settings gives them
  std::string build;    ///< as build_of gives it
};

/// Refuses `s`, shard `shard`, unless it is a shard of `run` made by the same build.
void check_same_run(const ShardReport& s, const Shard& shard, const RunOfShards& run) {
  if (shard.count != run.count) {
    refuse(concat(s.path.string(), " is a shard of ", std::to_string(shard.count), ", ",
                  run.first.path.string(), " of ", std::to_string(run.count),
                  ": not the same run"));
  }
  if (run_settings(s.report) != run.settings) {
    refuse(concat(s.path.string(), " and ", run.first.path.string(),
                  " are shards of different runs (their scenarios, primitives, schedule, seed, "
                  "budgets or --set differ)"));
  }
  if (build_of(s.report) != run.build) {
    refuse(concat(s.path.string(), " and ", run.first.path.string(),
                  " were made by different builds of syncstress (", build_of(s.report), ", ",
                  run.build, ")"));
  }
}

/// `shards` in shard order, each checked to be a shard of the run the first is of; a shard
/// given twice or missing is refused.
std::vector<const ShardReport*> shards_by_index(const std::vector<ShardReport>& shards) {
  json settings = run_settings(shards.front().report);
  std::string build = build_of(shards.front().report);
  const RunOfShards run{shards.front(), shard_of(shards.front()).count, std::move(settings),
                        std::move(build)};
  std::vector<const ShardReport*> by_index(run.count, nullptr);
  for (const auto& s : shards) {
    const Shard shard = shard_of(s);
    check_same_run(s, shard, run);
    if (by_index[shard.index] != nullptr) {
      refuse(concat("shard ", shard.describe(), " is given twice: ",
                    by_index[shard.index]->path.string(), " and ", s.path.string()));
    }
    by_index[shard.index] = &s;
  }
  for (std::uint32_t i = 0; i < run.count; ++i) {
    if (by_index[i] == nullptr) {
      refuse(concat("shard ", Shard{i, run.count}.describe(), " is missing: merge needs all ",
                    std::to_string(run.count), " shard reports of the run"));
    }
  }
  return by_index;
}

/// Refuses shards that do not have the same cells (by name, in order) as the first.
void check_same_cells(const std::vector<const ShardReport*>& by_index) {
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
  const std::vector<const ShardReport*> by_index = shards_by_index(shards);
  check_same_cells(by_index);
  json out = by_index[0]->report;
  json cells = json::array();
  const std::size_t cell_count = by_index[0]->report.at("cells").size();
  for (std::size_t c = 0; c < cell_count; ++c) cells.push_back(merge_cell(by_index, c));
  out["cells"] = cells;
  recount_summary(out);
  json files = json::array();
  for (const auto* s : by_index) files.push_back(s->path.string());
  out["config"]["shard"] = nullptr;
  out["config"]["merged_from"] = files;
  return out;
}

}  // namespace syncstress::report
