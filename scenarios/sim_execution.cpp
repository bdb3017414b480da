#include "scenarios/sim_execution.hpp"

#include "scenarios/runtime_options.hpp"

namespace syncstress::scenarios {

std::unique_ptr<sim::Runtime> make_runtime(const Cell& cell, bool trace) {
  return std::make_unique<sim::Runtime>(runtime_options(cell.params, trace));
}

sim::ExecutionResult execute(const Cell& cell, sim::Runtime& runtime, Strategy& strategy,
                             Observations& obs, ExecutionWatch& watch) {
  watch.progress();
  auto result = runtime.run(strategy, [&] { cell.body(obs, cell.params); });
  watch.progress();
  return result;
}

}  // namespace syncstress::scenarios
