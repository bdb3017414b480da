#include "backends/sim/execution.hpp"

#include "scenarios/runtime_options.hpp"

namespace syncstress::scenarios {

sim::Options cell_runtime_options(const Cell& cell, bool trace) {
  sim::Options o = runtime_options(cell.params, trace);
  // Explored by strategies that explore faults (the portfolio's odd rounds).
  const auto offered = offered_faults(cell);
  o.offer_spurious_cas_failures = offered.cas_failures;
  o.offer_spurious_wakeups = offered.spurious_wakeups;
  return o;
}

std::unique_ptr<sim::Runtime> make_runtime(const Cell& cell, bool trace) {
  return std::make_unique<sim::Runtime>(cell_runtime_options(cell, trace));
}

sim::Runtime& RuntimeForCells::operator()(const Cell& cell) {
  const auto options = cell_runtime_options(cell, /*trace=*/false);
  if (runtime_ == nullptr || !(options == options_)) {
    runtime_ = std::make_unique<sim::Runtime>(options);
    options_ = options;
  }
  return *runtime_;
}

sim::ExecutionResult execute(const Cell& cell, sim::Runtime& runtime, Strategy& strategy,
                             const Execution& execution, Observations& obs, ExecutionWatch& watch) {
  watch.progress();
  auto result = runtime.run(strategy, execution, [&] { cell.body(obs, cell.params); });
  watch.progress();
  return result;
}

}  // namespace syncstress::scenarios
