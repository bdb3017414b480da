#include "scenarios/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace syncstress::scenarios {
namespace {

double percentile(std::vector<std::uint64_t>& v, double q) {
  if (v.empty()) return 0;
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return static_cast<double>(v[i]);
}

}  // namespace

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
    if (wait_percentiles_) waits_.insert(waits_.end(), a.waits.begin(), a.waits.end());
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
      m["wait_steps"] = {{"p50", percentile(waits_, 0.50)},
                         {"p90", percentile(waits_, 0.90)},
                         {"p99", percentile(waits_, 0.99)},
                         {"max", waits_.empty() ? 0.0
                                                : static_cast<double>(*std::max_element(
                                                      waits_.begin(), waits_.end()))}};
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
