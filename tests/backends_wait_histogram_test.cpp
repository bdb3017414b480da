// The stress cells' wait histogram: log buckets, eight per power of two, so each percentile it
// reports is within 12.5% above the true one and never above the maximum.
#include <gtest/gtest.h>

#include <cstdint>

#include "backends/stress/wait_histogram.hpp"

namespace syncstress::scenarios {
namespace backends_wait_histogram_test {
namespace {

TEST(ScenariosWaitHistogram, BucketsCoverEveryValueInOrder) {
  std::size_t last = 0;
  for (std::uint64_t v :
       {0ULL, 1ULL, 7ULL, 8ULL, 9ULL, 15ULL, 16ULL, 100ULL, 1000ULL, 123456789ULL, ~0ULL}) {
    const auto b = WaitHistogram::bucket_of(v);
    EXPECT_GE(b, last) << v;
    last = b;
    EXPECT_LE(WaitHistogram::lower_bound(b), v) << v;
    EXPECT_GE(WaitHistogram::upper_bound(b), v) << v;
  }
}

TEST(ScenariosWaitHistogram, PercentilesAreWithinABucketOfTheTruth) {
  WaitHistogram h;
  for (std::uint64_t v = 1; v <= 10000; ++v) h.add(v * 100);  // 100 ns .. 1 ms, uniform
  EXPECT_EQ(h.count(), 10000u);
  EXPECT_EQ(h.max(), 1'000'000u);
  const auto p50 = h.quantile(0.50), p99 = h.quantile(0.99);
  EXPECT_GE(p50, 500'000u);
  EXPECT_LE(p50, 500'000u * 9 / 8);
  EXPECT_GE(p99, 990'000u);
  EXPECT_LE(p99, 1'000'000u);  // capped at the maximum
  const auto j = h.to_json();
  EXPECT_EQ(j["count"], 10000u);
  EXPECT_EQ(j["p999"], h.quantile(0.999));
  std::uint64_t summed = 0;
  for (const auto& b : j["buckets"]) summed += b[1].get<std::uint64_t>();
  EXPECT_EQ(summed, 10000u);
  WaitHistogram other;
  other.add(5'000'000);
  h.merge(other);
  EXPECT_EQ(h.max(), 5'000'000u);
  EXPECT_EQ(WaitHistogram().quantile(0.5), 0u);
}

}  // namespace
}  // namespace backends_wait_histogram_test
}  // namespace syncstress::scenarios
