// Model-checking sessions as a user runs them (issue 28's performance targets): the syncstress
// program this build made, run with `--schedule exhaustive` on every preset at its
// model-checking size and on one search of 30 s, each with `--jobs 1` (unsharded) and
// `--jobs 2` (split into shards, which run extra executions that end at once). Each run is one
// iteration, timed by the wall clock.
//
//   build/model_checking_bench                                     # everything, about 3 minutes
//   build/model_checking_bench --benchmark_filter=ModelCheckingSize
//   build/model_checking_bench --benchmark_filter=Jobs
//   build/model_checking_bench --benchmark_filter=MemoryModel
//   build/model_checking_bench --benchmark_filter=AgainstRelacy
//
// Counters: executions, classes (distinct Mazurkiewicz traces), per_class (executions /
// classes), complete (1 when the search ran out of schedules), estimate_at_half (the search's
// own estimate of its total when cut at half of it, over the total: ModelCheckingSize only).
// The speed-up of --jobs 2 is Jobs/2's executions per second over Jobs/1's. MemoryModel runs a
// preset at its model-checking size sequentially consistent (memory:0) and under the C++ memory
// model (memory:1, `exhaustive:memory=c11`), on one core: what the model costs. AgainstRelacy
// runs a `*-memory-model` preset with a correct primitive on sim under the model and under Relacy,
// 60 s at most each: engine:0 `exhaustive:memory=c11` against engine:1 `relacy-full` (does each
// search end, in how many executions), and engine:2 `random:memory=c11` against engine:3
// `relacy-random` on 200,000 executions (executions_per_s; fewer would measure mostly the start of
// the cell's process). Both at the preset's model-checking size.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/run_benchmarks.hpp"
#include "supervise/program.hpp"

namespace syncstress {
namespace {

struct Model {
  const char* preset;
  const char* primitive;
};

// One correct primitive per preset, as in docs/model-checking.md's table of model-checking sizes.
constexpr Model kPresets[] = {
    {"mutex-safety", "ticket_mutex"},
    {"mutex-fairness", "ticket_mutex"},
    {"mutex-spurious-wakeups", "ticket_mutex"},
    {"cancellation-during-resume", "mutex_part7_cancel_handoff"},
    {"event-safety", "auto_reset_event_part5"},
    {"semaphore-safety", "wait_on_address_semaphore"},
    {"semaphore-fairness", "wait_on_address_semaphore"},
    {"semaphore-spurious-wakeups", "wait_on_address_semaphore"},
    {"semaphore-cancellation", "semaphore_part6_cancel_handoff"},
    {"shared-mutex-cancellation", "shared_mutex_part9_cancel_handoff"},
    {"shared-mutex-safety", "shared_mutex_part9"},
    {"shared-mutex-starvation", "shared_mutex_part9"},
    {"work-queue-progress", "work_queue_wait_on_address"},
    {"work-queue-spurious-wakeups", "work_queue_wait_on_address"},
    // Under the C++ memory model (the presets' "memory": "c11").
    {"mutex-memory-model", "ticket_mutex"},
    {"event-memory-model", "auto_reset_event_part5"},
    {"semaphore-memory-model", "wait_on_address_semaphore"},
    {"shared-mutex-memory-model", "shared_mutex_part9"},
    {"work-queue-memory-model", "work_queue_wait_on_address"},
};

/// The one cell of a report `syncstress run` wrote to `out` with `args`.
nlohmann::json run_cell(std::vector<std::string> args, const std::filesystem::path& out) {
  args.insert(args.begin(), SYNCSTRESS_BINARY_PATH);
  args.insert(args.end(), {"--quiet", "--out", out.string()});
  const auto finished = supervise::run_program(args, 3600);
  // Exit 0: every cell passed; 4: a cell is `measured` (semaphore-fairness claims no order).
  if (finished.exit_code != 0 && finished.exit_code != 4) {
    throw std::runtime_error("syncstress exited " + std::to_string(finished.exit_code) + ": " +
                             finished.err);
  }
  std::ifstream in(out);
  return nlohmann::json::parse(in).at("cells").at(0);
}

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("syncstress-bench-" + name + ".json");
}

void count(benchmark::State& state, const nlohmann::json& cell) {
  const auto& m = cell.at("metrics");
  const double executions = cell.at("executions").get<double>();
  const double classes = m.at("exhaustive").at("distinct_traces").get<double>();
  state.counters["executions"] = executions;
  state.counters["classes"] = classes;
  state.counters["per_class"] = classes > 0 ? executions / classes : 0;
  state.counters["complete"] = m.value("search_complete", false) ? 1 : 0;
}

void model_checking_size(benchmark::State& state, const Model& m) {
  const std::vector<std::string> args = {
      "run",         "--scenario", m.preset,
      "--primitive", m.primitive,  "--schedule",
      "exhaustive",  "--jobs",     std::to_string(state.range(0))};
  nlohmann::json cell;
  for (auto _ : state) cell = run_cell(args, scratch("size"));
  count(state, cell);
  if (state.range(0) != 1) return;
  // The estimate, cut at half the total (one core; not timed).
  const auto total = cell.at("executions").get<std::uint64_t>();
  std::vector<std::string> half = {"run",         "--scenario",   m.preset,
                                   "--primitive", m.primitive,    "--schedule",
                                   "exhaustive",  "--executions", std::to_string(total / 2 + 1)};
  const nlohmann::json cut = run_cell(half, scratch("half"));
  state.counters["estimate_at_half"] =
      cut.at("metrics").at("exhaustive").value("estimated_executions", 0.0) /
      static_cast<double>(total);
}

void jobs(benchmark::State& state) {
  // 4,963,150 executions (measured with the build of f3502e9); 16 hold steps (yields that touch
  // nothing) per critical section make each longer, so that the search takes over 30 s on one
  // core, without more of them.
  const std::vector<std::string> args = {"run",
                                         "--scenario",
                                         "mutex-fairness",
                                         "--primitive",
                                         "ticket_mutex",
                                         "--schedule",
                                         "exhaustive",
                                         "--set",
                                         "acquisitions=7",
                                         "--set",
                                         "hold_steps=16",
                                         "--jobs",
                                         std::to_string(state.range(0))};
  nlohmann::json cell;
  for (auto _ : state) cell = run_cell(args, scratch("jobs"));
  count(state, cell);
  state.counters["executions_per_s"] = benchmark::Counter(
      cell.at("executions").get<double>(), benchmark::Counter::kIsIterationInvariantRate);
}

// Correct primitives whose every order the C++ model can judge, at the presets' model-checking
// sizes.
constexpr Model kMemoryModels[] = {
    {"mutex-safety", "ticket_mutex"},
    {"mutex-memory-model", "ticket_mutex"},
    {"event-safety", "auto_reset_event_part5"},
    {"semaphore-safety", "wait_on_address_semaphore"},
    {"shared-mutex-safety", "shared_mutex_part9"},
    {"shared-mutex-memory-model", "shared_mutex_part9"},
    {"work-queue-progress", "work_queue_wait_on_address"},
};

void memory_model(benchmark::State& state, const Model& m) {
  const std::vector<std::string> args = {
      "run",
      "--scenario",
      m.preset,
      "--primitive",
      m.primitive,
      "--schedule",
      state.range(0) == 0 ? "exhaustive:memory=sc" : "exhaustive:memory=c11"};
  nlohmann::json cell;
  for (auto _ : state) cell = run_cell(args, scratch("memory"));
  count(state, cell);
}

/// A memory-model preset with a correct primitive, and its model-checking size as --set values:
/// Relacy runs it at that size too (only sim's exhaustive search takes the size by itself).
struct SizedModel {
  const char* preset;
  const char* primitive;
  std::vector<std::string> size;
};

const SizedModel kAgainstRelacy[] = {
    {"mutex-memory-model", "ticket_mutex", {}},
    {"shared-mutex-memory-model", "shared_mutex_part9", {}},
    {"event-memory-model", "auto_reset_event_part5_cancel_fixed", {}},
    {"semaphore-memory-model", "wait_on_address_semaphore", {"actors=3", "rounds=1"}},
    {"work-queue-memory-model", "work_queue_wait_on_address", {"producers=2", "items=1"}},
};

void against_relacy(benchmark::State& state, const SizedModel& m) {
  constexpr const char* kSchedules[] = {"exhaustive:memory=c11", "relacy-full", "random:memory=c11",
                                        "relacy-random"};
  const bool sampled = state.range(0) >= 2;
  std::vector<std::string> args = {"run",
                                   "--scenario",
                                   m.preset,
                                   "--primitive",
                                   m.primitive,
                                   "--schedule",
                                   kSchedules[state.range(0)],
                                   "--executions",
                                   sampled ? "200000" : "100000000",
                                   "--time-budget",
                                   "60"};
  for (const auto& set : m.size) args.insert(args.end(), {"--set", set});
  nlohmann::json cell;
  for (auto _ : state) cell = run_cell(args, scratch("relacy"));
  const double executions = cell.at("executions").get<double>();
  state.counters["executions"] = executions;
  state.counters["complete"] = cell.at("metrics").value("search_complete", false) ? 1 : 0;
  state.counters["executions_per_s"] =
      benchmark::Counter(executions, benchmark::Counter::kIsIterationInvariantRate);
}

/// Each run once, timed by the wall clock, with --jobs 1 and --jobs 2.
void with_jobs_1_and_2(benchmark::internal::Benchmark* b) {
  b->ArgName("jobs")->Arg(1)->Arg(2)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);
}

void register_all() {
  for (const Model& m : kPresets) {
    with_jobs_1_and_2(benchmark::RegisterBenchmark(
        (std::string("ModelCheckingSize/") + m.preset + "/" + m.primitive).c_str(),
        [m](benchmark::State& s) { model_checking_size(s, m); }));
  }
  with_jobs_1_and_2(benchmark::RegisterBenchmark(
      "Jobs/mutex-fairness/ticket_mutex/acquisitions=7,hold_steps=16", jobs));
  for (const Model& m : kMemoryModels) {
    benchmark::RegisterBenchmark(
        (std::string("MemoryModel/") + m.preset + "/" + m.primitive).c_str(),
        [m](benchmark::State& s) { memory_model(s, m); })
        ->ArgName("memory")
        ->Arg(0)
        ->Arg(1)
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kSecond);
  }
  for (const SizedModel& m : kAgainstRelacy) {
    benchmark::RegisterBenchmark(
        (std::string("AgainstRelacy/") + m.preset + "/" + m.primitive).c_str(),
        [m](benchmark::State& s) { against_relacy(s, m); })
        ->ArgName("engine")
        ->DenseRange(0, 3)
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kSecond);
  }
}

}  // namespace
}  // namespace syncstress

int main(int argc, char** argv) {
  syncstress::register_all();
  return syncstress::run_benchmarks(argc, argv);
}
