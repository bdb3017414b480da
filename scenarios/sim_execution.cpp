#include "scenarios/sim_execution.hpp"

#include "scenarios/runtime_options.hpp"

namespace syncstress::scenarios {

sim::Options cell_runtime_options(const Cell& cell, bool trace) {
  sim::Options o = runtime_options(cell.params, trace);
  // Faults the C++ standard and the platforms allow, explored by strategies that explore
  // faults (the portfolio's odd rounds) in the families that judge safety and progress under
  // contention: a weak CAS may always fail spuriously; a platform wait may return spuriously,
  // which a primitive that does not claim to tolerate it (cooperative_semaphore) is spared.
  const Family f = cell.preset.family;
  const bool offered = f == Family::safety || f == Family::fairness || f == Family::progress;
  o.offer_spurious_cas_failures = offered;
  o.offer_spurious_wakeups = offered && cell.primitive != nullptr &&
                             (cell.primitive->claims & kSpuriousWakeupTolerance) != 0;
  return o;
}

std::unique_ptr<sim::Runtime> make_runtime(const Cell& cell, bool trace) {
  return std::make_unique<sim::Runtime>(cell_runtime_options(cell, trace));
}

sim::ExecutionResult execute(const Cell& cell, sim::Runtime& runtime, Strategy& strategy,
                             Observations& obs, ExecutionWatch& watch) {
  watch.progress();
  auto result = runtime.run(strategy, [&] { cell.body(obs, cell.params); });
  watch.progress();
  return result;
}

}  // namespace syncstress::scenarios
