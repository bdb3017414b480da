// One execution of a cell's body on the sim runtime, shared by the sim cell's loop and by the
// replay of one execution.
#pragma once

#include <memory>

#include "scenarios/execution_watch.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress::scenarios {

/// A runtime with the cell's options (max_steps, spurious_wakeups, ...), recording traces when
/// `trace` is set. Reuse it across executions: it keeps its fibers' stacks.
std::unique_ptr<sim::Runtime> make_runtime(const Cell& cell, bool trace);

/// The runtime options of `cell`: its parameters' (runtime_options), and the faults a strategy
/// that explores them may inject (sim::Options::offer_*) given its family and primitive.
sim::Options cell_runtime_options(const Cell& cell, bool trace);

/// A runtime, traces off, for cells run one after another (shrinking tries cells whose size
/// parameters differ): made anew only when a cell's runtime options differ from the last's.
class RuntimeForCells {
 public:
  sim::Runtime& operator()(const Cell& cell);

 private:
  std::unique_ptr<sim::Runtime> runtime_;
  sim::Options options_;
};

/// Runs the cell's body once under `strategy`, as the execution its new_execution() returned,
/// filling `obs`; tells `watch` when it starts and ends.
sim::ExecutionResult execute(const Cell& cell, sim::Runtime& runtime, Strategy& strategy,
                             const Execution& execution, Observations& obs, ExecutionWatch& watch);

}  // namespace syncstress::scenarios
