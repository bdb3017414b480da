// The exhaustive search's partial-order reduction (issue 16): executions to exhaust a model
// with the reduction (`exhaustive`, DporStrategy) and without it (`exhaustive:reduction=none`),
// measured in one program, each search timed as one iteration.
//
//   build-bench/exhaustive_reduction_bench
//   SYNCSTRESS_BENCH_PLAIN_CAP=1000000000 build-bench/exhaustive_reduction_bench   # no cap
//
// Models: the mutex-safety preset for platform_mutex, mutex_part7 and ticket_mutex at actors x
// rounds 2x1, 2x2 and 3x1, and shared-mutex-safety for shared_mutex_part9 with two actors.
// Counters: executions, complete (1 when the search ran out of schedules before its cap),
// pruned and traces (reduced search: executions ended as redundant, classes of equivalent
// schedules reached). The plain search stops at SYNCSTRESS_BENCH_PLAIN_CAP executions (default
// 3,000,000, a few seconds); the reduction factor is plain / reduced where both completed.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "backends/bind.hpp"
#include "backends/sim/execution.hpp"
#include "bench/run_benchmarks.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress {
namespace {

struct Model {
  const char* preset;
  const char* primitive;
  int actors;
  int rounds;
};

constexpr Model kModels[] = {
    {"mutex-safety", "platform_mutex", 2, 1},
    {"mutex-safety", "platform_mutex", 2, 2},
    {"mutex-safety", "platform_mutex", 3, 1},
    {"mutex-safety", "mutex_part7", 2, 1},
    {"mutex-safety", "mutex_part7", 2, 2},
    {"mutex-safety", "mutex_part7", 3, 1},
    {"mutex-safety", "ticket_mutex", 2, 1},
    {"mutex-safety", "ticket_mutex", 2, 2},
    {"mutex-safety", "ticket_mutex", 3, 1},
    {"shared-mutex-safety", "shared_mutex_part9", 2, 1},
    {"shared-mutex-safety", "shared_mutex_part9", 2, 2},
};

std::uint64_t plain_cap() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once, before any benchmark runs.
  const char* text = std::getenv("SYNCSTRESS_BENCH_PLAIN_CAP");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 3'000'000;
}

scenarios::Cell cell_of(const Model& m) {
  const auto preset =
      scenarios::load_preset(scenarios::scenarios_dir() / (std::string(m.preset) + ".json"));
  for (const auto& info : all_primitives()) {
    if (info.name == m.primitive) {
      return scenarios::make_cell(
          preset, info,
          {{"actors", std::to_string(m.actors)}, {"rounds", std::to_string(m.rounds)}});
    }
  }
  throw std::runtime_error(std::string("no primitive ") + m.primitive);
}

void search(benchmark::State& state, const Model& m, bool reduce) {
  const auto cell = cell_of(m);
  sim::Runtime runtime(scenarios::cell_runtime_options(cell, /*trace=*/false));
  const std::uint64_t cap = reduce ? 1'000'000'000 : plain_cap();
  std::uint64_t executions = 0;
  bool complete = false;
  std::unique_ptr<DporStrategy> reduced;
  for (auto _ : state) {
    std::unique_ptr<Strategy> strategy;
    if (reduce) {
      reduced = std::make_unique<DporStrategy>();
    } else {
      strategy = std::make_unique<ExhaustiveStrategy>();
    }
    Strategy& s = reduce ? static_cast<Strategy&>(*reduced) : *strategy;
    executions = 0;
    complete = true;
    while (const auto execution = s.new_execution()) {
      if (executions == cap) {
        complete = false;
        break;
      }
      ++executions;
      scenarios::Observations obs;
      auto r = runtime.run(s, *execution, [&] { cell.body(obs, cell.params); });
      runtime.recycle(std::move(r));
    }
  }
  state.counters["executions"] = static_cast<double>(executions);
  state.counters["complete"] = complete ? 1 : 0;
  if (reduced) {
    state.counters["pruned"] = static_cast<double>(reduced->executions_pruned());
    state.counters["traces"] = static_cast<double>(reduced->distinct_traces());
  }
}

void register_all() {
  for (const Model& m : kModels) {
    const std::string name = std::string(m.preset) + "/" + m.primitive + "/" +
                             std::to_string(m.actors) + "x" + std::to_string(m.rounds);
    for (const bool reduce : {true, false}) {
      benchmark::RegisterBenchmark((name + (reduce ? "/dpor" : "/none")).c_str(),
                                   [m, reduce](benchmark::State& s) { search(s, m, reduce); })
          ->Iterations(1)
          ->Unit(benchmark::kSecond);
    }
  }
}

}  // namespace
}  // namespace syncstress

int main(int argc, char** argv) {
  syncstress::register_all();
  return syncstress::run_benchmarks(argc, argv);
}
