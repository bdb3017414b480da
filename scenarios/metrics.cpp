#include "scenarios/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace syncstress::scenarios {
namespace {

/// The nearest-rank percentile's 0-based rank among `n` > 0 values.
std::uint64_t rank_of(double q, std::uint64_t n) {
  return static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n))) - 1;
}

}  // namespace

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

void Metrics::add(const Observations& obs, const Judgement& judgement) {
  if (judgement.broken) ++broken_[judgement.property];
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
