// What stress mode's bookkeeping costs a primitive on real threads: a lock/unlock loop on
// platform_mutex and ticket_mutex with stress mode off (each Platform operation: one relaxed
// load and a branch) and on with noise off (each operation also written to the thread's ring of
// recent operations). Issue 15's target: under 5% of throughput.
//
//   build/stress_overhead_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
//
// Arg 0: stress off; arg 1: stress on, noise off, no faults. Threads(1): uncontended;
// Threads(2): two threads on one lock.
//
// main() starts and joins a thread before any benchmark runs. glibc's mutex takes a cheaper,
// non-atomic path while a process has only ever had one thread (4.3 ns a pair here against
// 13 ns once a thread has existed), and a stress trial always runs among threads; without it,
// the first benchmarks would be measured on the single-threaded path and every later one on
// the other, and the comparison would be between those two paths, not stress on and off.
#include <benchmark/benchmark.h>

#include <thread>

#include "platform/real.hpp"
#include "platform/real_stress.hpp"
#include "primitives/platform_mutex.hpp"
#include "primitives/ticket_mutex.hpp"

namespace syncstress {
namespace {

template <class Mutex>
void lock_unlock(benchmark::State& state) {
  static Mutex m;
  if (state.thread_index() == 0) {
    if (state.range(0) == 1) {
      real_stress::begin_trial({real_stress::Noise::off, false, false, 1});
    } else {
      real_stress::end_trial();
    }
  }
  for (auto _ : state) {
    m.lock();
    m.unlock();
  }
  if (state.thread_index() == 0) real_stress::end_trial();
  state.SetItemsProcessed(state.iterations());
}

void BM_PlatformMutexLockUnlock(benchmark::State& state) {
  lock_unlock<platform_mutex<Real>>(state);
}
BENCHMARK(BM_PlatformMutexLockUnlock)->Arg(0)->Arg(1)->Threads(1)->Threads(2)->UseRealTime();

void BM_TicketMutexLockUnlock(benchmark::State& state) { lock_unlock<ticket_mutex<Real>>(state); }
BENCHMARK(BM_TicketMutexLockUnlock)->Arg(0)->Arg(1)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace syncstress

int main(int argc, char** argv) {
  std::thread([] {}).join();  // from here on, the process is multi-threaded (see above)
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
