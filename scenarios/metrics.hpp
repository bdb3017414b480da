// A cell's metrics: numbers summed over its executions (fairness, waits in steps, bypasses,
// properties broken but not claimed), for the report's "metrics" object.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenarios/finding.hpp"
#include "scenarios/judge.hpp"

namespace syncstress::scenarios {

/// Metrics summed over a cell's executions.
class Metrics {
 public:
  /// `wait_percentiles`: keep every wait and report wait_steps; off where the waits are
  /// measured otherwise (a stress cell's wall-clock histogram), so they are not kept twice.
  explicit Metrics(bool wait_percentiles = true) : wait_percentiles_(wait_percentiles) {}

  /// Counts one execution: what the family observed and how the judge saw it.
  void add(const Observations& obs, const Judgement& judgement);

  /// jain_fairness_index, acquisitions, wait_steps {p50, p90, p99, max} (when kept), bypasses,
  /// max_bypassed_in_one_wait, fifo_violations (when actors were measured), executions_breaking
  /// (per property), and the family's own numbers.
  nlohmann::json to_json();

 private:
  std::map<std::string, std::uint64_t> broken_;
  std::map<std::string, double> numbers_;
  bool wait_percentiles_;
  std::vector<std::uint64_t> waits_;
  std::uint64_t acquisitions_ = 0;
  std::uint64_t max_bypassed_ = 0, bypasses_ = 0, fifo_violations_ = 0;
  double jain_sum_ = 0;
  std::uint64_t jain_count_ = 0;
};

}  // namespace syncstress::scenarios
