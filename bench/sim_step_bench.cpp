// Cost of one scheduling step of the sim runtime, per step (time_per_step), in
//   (a) a two-thread atomic ping-pong (every step a switch when the turn passes), and
//   (b) a four-thread mutex hand-off (lock, blocked lock, unlock, wake, retry),
// with and without trace recording, and with the spin-loop reduction on or off (its bookkeeping
// is paid on every step; in the ping-pong it also runs each wait for the turn as one step, so
// there the steps differ and executions_per_second is the figure to compare). Each iteration is
// one whole execution (thread start, teardown included), so the figure is what a search pays
// per step.
#include <benchmark/benchmark.h>

#include "platform/sim.hpp"
#include "schedules/random_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace {

constexpr int kRounds = 1000;

void ping_pong() {
  Sim::atomic<int> turn{0};
  auto player = [&](int me) {
    for (int i = 0; i < kRounds; ++i) {
      while (turn.load(std::memory_order_acquire) != me) Sim::yield();
      turn.store(1 - me, std::memory_order_release);
    }
  };
  Sim::thread a([&] { player(0); });
  Sim::thread b([&] { player(1); });
}

void mutex_handoff() {
  Sim::mutex m;
  Sim::atomic<int> counter{0};
  auto worker = [&] {
    for (int i = 0; i < kRounds / 4; ++i) {
      m.lock();
      counter.fetch_add(1, std::memory_order_relaxed);
      m.unlock();
    }
  };
  Sim::thread t1(worker);
  Sim::thread t2(worker);
  Sim::thread t3(worker);
  Sim::thread t4(worker);
}

template <void (*Scenario)()>
void run_steps(benchmark::State& state) {
  sim::Options options;
  options.record_trace = state.range(0) != 0;
  options.spin_reduction = state.range(1) != 0;
  options.max_steps = 10'000'000;
  sim::Runtime rt(options);
  RandomStrategy strategy(42);
  std::uint64_t steps = 0;
  for (auto _ : state) {
    const Execution execution = *strategy.new_execution();
    sim::ExecutionResult r = rt.run(strategy, execution, Scenario);
    if (r.outcome != sim::Outcome::completed) state.SkipWithError(r.message.c_str());
    steps += r.steps;
    benchmark::DoNotOptimize(r.steps);
    rt.recycle(std::move(r));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(steps));
  state.counters["executions_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["time_per_step"] = benchmark::Counter(
      static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_AtomicPingPong(benchmark::State& state) { run_steps<ping_pong>(state); }
void BM_MutexHandoff4(benchmark::State& state) { run_steps<mutex_handoff>(state); }

BENCHMARK(BM_AtomicPingPong)->ArgNames({"trace", "spin"})->ArgsProduct({{0, 1}, {0, 1}});
BENCHMARK(BM_MutexHandoff4)->ArgNames({"trace", "spin"})->ArgsProduct({{0, 1}, {0, 1}});

}  // namespace
}  // namespace syncstress

BENCHMARK_MAIN();
