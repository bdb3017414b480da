// The body of every benchmark program's main(): Google Benchmark's own, run after the program
// has registered its benchmarks (several register them at run time, from tables).
#pragma once

#include <benchmark/benchmark.h>

namespace syncstress {

inline int run_benchmarks(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace syncstress
