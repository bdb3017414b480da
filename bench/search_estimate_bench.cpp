// The estimate of an exhaustive search's size (schedules/search_estimate.hpp) over a deep path:
// what DporStrategy::estimated_executions costs at the end of a cell whose executions run
// tens of thousands of steps (a spinning primitive, e.g. cooperative_semaphore under
// semaphore-spurious-wakeups at 50,000 steps). Each iteration asks remaining() once per depth
// of a path of N nodes whose depths each hold one completed first subtree, so that a later
// alternative's size comes from the depths below (the slow path the estimate has to take).
// Time per iteration should grow linearly with N (BigO below).
//
//   build/search_estimate_bench
#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench/run_benchmarks.hpp"
#include "schedules/search_estimate.hpp"

namespace syncstress {
namespace {

void BM_EstimateOverADeepPath(benchmark::State& state) {
  const auto depth = static_cast<std::size_t>(state.range(0));
  SearchEstimate estimate;
  for (std::size_t d = 0; d < depth; ++d) {
    estimate.branch_done(d, 0, 1 + d % 5);
    estimate.node_done(d, 2);
  }
  double total = 0;
  for (auto _ : state) {
    for (std::size_t d = 0; d < depth; ++d) {
      total += estimate.remaining(d, 1, 1, 10, /*may_grow=*/true);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_EstimateOverADeepPath)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 16)
    ->Unit(benchmark::kMicrosecond)
    ->Complexity(benchmark::oN);

}  // namespace
}  // namespace syncstress

int main(int argc, char** argv) { return syncstress::run_benchmarks(argc, argv); }
