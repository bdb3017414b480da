// A log-bucketed histogram of wait times (ns): eight buckets per power of two, so a percentile
// read from it is within 12.5% of the true value, in a fixed 512-counter array whatever the
// number of samples. Used by stress mode, where a cell records millions of waits.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace syncstress::scenarios {

class WaitHistogram {
 public:
  void add(std::uint64_t ns) {
    ++counts_[bucket_of(ns)];
    ++count_;
    max_ = std::max(max_, ns);
  }
  void merge(const WaitHistogram& other) {
    for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    max_ = std::max(max_, other.max_);
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t max() const { return max_; }

  /// The upper bound of the bucket holding the q-quantile (0 < q <= 1), capped at the maximum;
  /// 0 when empty.
  std::uint64_t quantile(double q) const {
    if (count_ == 0) return 0;
    const auto rank = static_cast<std::uint64_t>(q * static_cast<double>(count_ - 1)) + 1;
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::min(upper_bound(i), max_);
    }
    return max_;
  }

  /// {"count", "p50", "p99", "p999", "max", "buckets": [[lower ns, count], ...]} (non-empty
  /// buckets only, in increasing order).
  nlohmann::json to_json() const {
    nlohmann::json buckets = nlohmann::json::array();
    for (std::size_t i = 0; i < kBuckets; ++i) {
      if (counts_[i] != 0) buckets.push_back({lower_bound(i), counts_[i]});
    }
    return {{"count", count_},         {"p50", quantile(0.50)}, {"p99", quantile(0.99)},
            {"p999", quantile(0.999)}, {"max", max_},           {"buckets", buckets}};
  }

  static std::size_t bucket_of(std::uint64_t ns) {
    if (ns < 8) return static_cast<std::size_t>(ns);
    const auto top = static_cast<std::size_t>(std::bit_width(ns)) - 1;  // >= 3
    const auto sub = static_cast<std::size_t>((ns >> (top - 3)) & 7);
    return (top - 2) * 8 + sub;
  }
  static std::uint64_t lower_bound(std::size_t bucket) {
    if (bucket < 8) return bucket;
    const std::size_t top = bucket / 8 + 2;
    return (std::uint64_t{8} + bucket % 8) << (top - 3);
  }
  static std::uint64_t upper_bound(std::size_t bucket) {
    return bucket + 1 < kBuckets ? lower_bound(bucket + 1) - 1 : ~std::uint64_t{0};
  }

 private:
  static constexpr std::size_t kBuckets = 512;  // 62 powers of two past 8, eight buckets each
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t max_ = 0;
};

}  // namespace syncstress::scenarios
