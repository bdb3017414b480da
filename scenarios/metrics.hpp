// A cell's metrics: numbers summed over its executions (fairness, waits in steps, bypasses,
// properties broken but not claimed), for the report's "metrics" object.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/execution_verdict.hpp"
#include "scenarios/finding.hpp"

namespace syncstress::scenarios {

/// Metrics summed over a cell's executions.
class Metrics {
 public:
  /// `wait_percentiles`: count every wait and report wait_steps; off where the waits are
  /// measured otherwise (a stress cell's wall-clock histogram), so they are not kept twice.
  explicit Metrics(bool wait_percentiles = true) : wait_percentiles_(wait_percentiles) {}

  /// Counts one execution: what the family observed and its verdict.
  void add(const Observations& obs, const ExecutionVerdict& verdict);

  /// jain_fairness_index, acquisitions, wait_steps {p50, p90, p99, max} (when kept), bypasses,
  /// max_bypassed_in_one_wait, fifo_violations (when actors were measured), executions_breaking
  /// (per property), and the family's own numbers.
  nlohmann::json to_json();

 private:
  std::map<std::string, std::uint64_t> broken_;
  std::map<std::string, double> numbers_;
  bool wait_percentiles_;
  /// How many waits took each number of steps: exact percentiles in memory that does not grow
  /// with the executions (a list of every wait grew 8 bytes an acquisition, gigabytes in a
  /// long exhaustive search). Waits below kDenseWaits are counted by index, longer ones in
  /// `long_waits_`.
  static constexpr std::uint64_t kDenseWaits = 4096;
  std::vector<std::uint64_t> wait_counts_;
  std::map<std::uint64_t, std::uint64_t> long_waits_;
  std::uint64_t waits_counted_ = 0;
  /// The wait at 0-based rank `rank` of all waits counted, in ascending order.
  std::uint64_t wait_at_rank(std::uint64_t rank) const;
  std::uint64_t acquisitions_ = 0;
  std::uint64_t max_bypassed_ = 0, bypasses_ = 0, fifo_violations_ = 0;
  double jain_sum_ = 0;
  std::uint64_t jain_count_ = 0;
};

/// The key of a cell's metrics that holds what a sim exhaustive search measured (its
/// reduction, counts by preemptions, estimate): present exactly on the cells such a search ran.
inline constexpr const char* kSearchMetricsKey = "exhaustive";

/// How the values two parts of one cell give a metric combine into the whole cell's: the shards
/// of a merged run, or a cell and its resumed continuation.
enum class MetricMerge {
  sum,         ///< counts: added
  max,         ///< maxima: the larger
  all,         ///< a flag true when every part's is
  any,         ///< a flag true when some part's is
  same,        ///< a setting: kept when the parts agree, left out when they differ
  sum_each,    ///< a list of counts: added element by element, the shorter padded with zeros
  histogram,   ///< [lower bound, count] pairs: the counts of equal lower bounds added
  not_merged,  ///< percentiles, ratios, rates: the parts' values cannot make the whole's
};

/// The rule for the metric at `path`, its keys from the metrics object down (e.g. {"stress",
/// "wait_ns", "p99"}): one per metric any backend writes. Nullopt for a path none writes.
std::optional<MetricMerge> metric_merge_rule(std::span<const std::string> path);

}  // namespace syncstress::scenarios
