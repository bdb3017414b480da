#include "scenarios/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace syncstress::scenarios {
namespace {

/// The nearest-rank percentile's 0-based rank among `n` > 0 values.
std::uint64_t rank_of(double q, std::uint64_t n) {
  return static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n))) - 1;
}

/// Every metric a cell's "metrics" object holds, with its rule. A pattern's keys are separated
/// by '.'; '*' stands for any one key. The first pattern that matches decides.
struct MetricRule {
  std::string_view pattern;
  MetricMerge rule;
};
constexpr MetricRule kMetricRules[] = {
    // Every cell: the cell loop's.
    {"search_complete", MetricMerge::all},
    {"claims_headline", MetricMerge::same},
    // Metrics::to_json: the families' observations over the executions.
    {"jain_fairness_index", MetricMerge::not_merged},
    {"acquisitions", MetricMerge::sum},
    {"wait_steps.max", MetricMerge::max},
    {"wait_steps.*", MetricMerge::not_merged},  // p50, p90, p99
    {"bypasses", MetricMerge::sum},
    {"max_bypassed_in_one_wait", MetricMerge::max},
    {"fifo_violations", MetricMerge::sum},
    {"executions_breaking.*", MetricMerge::sum},
    // The families' own numbers (Observations::numbers).
    {"items_processed", MetricMerge::sum},
    {"cancelled", MetricMerge::sum},
    {"cancel_refused", MetricMerge::sum},
    // An exhaustive search's (the sim backend).
    {"exhaustive.reduction", MetricMerge::same},
    {"exhaustive.executions_pruned", MetricMerge::sum},
    {"exhaustive.distinct_traces", MetricMerge::sum},
    {"exhaustive.distinct_traces_capped", MetricMerge::any},
    {"exhaustive.executions_by_preemptions", MetricMerge::sum_each},
    {"exhaustive.fewer_preemptions_executions", MetricMerge::sum},
    // Written by an unsharded search only: no shard knows the others' part.
    {"exhaustive.estimated_executions", MetricMerge::not_merged},
    // Relacy's.
    {"platform", MetricMerge::same},
    {"relacy_scheduler", MetricMerge::same},
    {"execution_depth_limit", MetricMerge::same},
    // Stress trials' (real threads).
    {"stress.threads", MetricMerge::same},
    {"stress.noise", MetricMerge::same},
    {"stress.spurious_wakeups", MetricMerge::same},
    {"stress.spurious_cas_failures", MetricMerge::same},
    {"stress.first_trial_seed", MetricMerge::same},
    {"stress.trial_seed_rule", MetricMerge::same},
    {"stress.replayable", MetricMerge::same},
    {"stress.trial_seconds", MetricMerge::sum},
    {"stress.acquisitions_per_second", MetricMerge::not_merged},
    {"stress.items_per_second", MetricMerge::not_merged},
    {"stress.jain_fairness_index", MetricMerge::not_merged},
    {"stress.acquisitions_per_actor", MetricMerge::sum_each},
    {"stress.*.count", MetricMerge::sum},  // wait_ns and the victims' and others' waits
    {"stress.*.max", MetricMerge::max},
    {"stress.*.buckets", MetricMerge::histogram},
    {"stress.*.*", MetricMerge::not_merged},  // p50, p99, p999
};

bool matches(std::string_view pattern, std::span<const std::string> path) {
  for (const auto& key : path) {
    const auto dot = pattern.find('.');
    const std::string_view head = pattern.substr(0, dot);
    if (head != "*" && head != key) return false;
    if (dot == std::string_view::npos) return &key == &path.back();
    pattern.remove_prefix(dot + 1);
  }
  return false;  // the pattern is longer than the path
}

}  // namespace

std::optional<MetricMerge> metric_merge_rule(std::span<const std::string> path) {
  if (path.empty()) return std::nullopt;
  for (const auto& r : kMetricRules) {
    if (matches(r.pattern, path)) return r.rule;
  }
  return std::nullopt;
}

std::uint64_t Metrics::wait_at_rank(std::uint64_t rank) const {
  std::uint64_t below = 0;  // waits shorter than the one looked at
  for (std::uint64_t steps = 0; steps < wait_counts_.size(); ++steps) {
    below += wait_counts_[steps];
    if (rank < below) return steps;
  }
  for (const auto& [steps, count] : long_waits_) {
    below += count;
    if (rank < below) return steps;
  }
  return 0;  // rank >= waits_counted_: not asked
}

void Metrics::add(const Observations& obs, const ExecutionVerdict& verdict) {
  if (verdict.broken) ++broken_[verdict.property];
  for (const auto& [k, v] : obs.unclaimed) broken_[k] += v;
  for (const auto& [k, v] : obs.numbers) numbers_[k] += v;
  if (obs.actors.empty()) return;
  double sum = 0, sum_sq = 0;
  for (const auto& a : obs.actors) {
    const auto x = static_cast<double>(a.acquisitions);
    sum += x;
    sum_sq += x * x;
    acquisitions_ += a.waits.size();
    if (wait_percentiles_) {
      for (const std::uint64_t steps : a.waits) {
        if (steps < kDenseWaits) {
          if (wait_counts_.size() <= steps) wait_counts_.resize(steps + 1);
          ++wait_counts_[steps];
        } else {
          ++long_waits_[steps];
        }
      }
      waits_counted_ += a.waits.size();
    }
    max_bypassed_ = std::max(max_bypassed_, a.max_bypassed);
    bypasses_ += a.bypassed;
  }
  if (sum_sq > 0) {
    jain_sum_ += sum * sum / (static_cast<double>(obs.actors.size()) * sum_sq);
    ++jain_count_;
  }
  fifo_violations_ += obs.fifo_violations;
}

nlohmann::json Metrics::to_json() {
  nlohmann::json m = nlohmann::json::object();
  if (jain_count_ > 0) {
    m["jain_fairness_index"] = jain_sum_ / static_cast<double>(jain_count_);
    m["acquisitions"] = acquisitions_;
    if (wait_percentiles_) {
      const auto at = [&](double q) {
        return waits_counted_ == 0 ? 0.0
                                   : static_cast<double>(wait_at_rank(rank_of(q, waits_counted_)));
      };
      m["wait_steps"] = {{"p50", at(0.50)}, {"p90", at(0.90)}, {"p99", at(0.99)}, {"max", at(1.0)}};
    }
    m["bypasses"] = bypasses_;
    m["max_bypassed_in_one_wait"] = max_bypassed_;
    m["fifo_violations"] = fifo_violations_;
  }
  nlohmann::json broken = nlohmann::json::object();
  for (const auto& [k, v] : broken_) broken[k] = v;
  m["executions_breaking"] = broken;
  for (const auto& [k, v] : numbers_) m[k] = v;
  return m;
}

}  // namespace syncstress::scenarios
