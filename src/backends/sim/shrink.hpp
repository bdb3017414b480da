// Shrinking a sim counterexample before it is reported, keeping the property it breaks:
// first fewer preemptions, then fewer steps, then smaller parameters, each candidate a whole
// execution re-run on the deterministic runtime.
//
//  1. Preemptions: the exhaustive searches (reduced, then plain) with preemption bound 0, 1, ...
//     below the schedule's, for an execution breaking the same property, as CHESS's iterative
//     context bounding; then, around the schedule itself, each context switch that preempts is
//     turned into "go on" or deferred by up to four steps (to where the preempted thread
//     blocks: a free switch), and each run of one thread's decisions dropped or swapped with
//     the next.
//  2. Steps: delta debugging (Zeller's ddmin) over the schedule's decisions, chunks halving
//     down to one: a chunk is dropped, or its switches turned into "go on"; the runtime
//     completes a decision list that no longer fits deterministically (GuidedStrategy).
//  3. Parameters: the family's size parameters (actors, rounds, readers, items, ...) lowered,
//     halving then one less: the decisions kept, else a few executions of the strategy that
//     found the counterexample; a parameter that does not change the execution is left alone.
// A candidate is taken only when it breaks the same property in no more steps than the
// counterexample as found (shrinking never grows a schedule) and is smaller than the current one:
// fewer preemptions, or as many and fewer steps.
// The passes repeat until none takes anything or the budget ends. Each attempt is a fixed
// function of the current candidate, so the result depends on the budget only when it runs
// out: the budgets in executions and in steps (which long executions spend sooner) are what end
// it on any ordinary machine; the time budget is a guard.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "scenarios/execution_verdict.hpp"
#include "scenarios/execution_watch.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/guided_strategy.hpp"
#include "schedules/schedule.hpp"

namespace syncstress::scenarios {

/// How much shrinking a violation may cost.
struct ShrinkLimits {
  double seconds = 5;                 ///< --shrink-budget
  std::uint64_t executions = 20'000;  ///< per violation
  /// Per violation, the trials' steps together: a counterexample of many steps (a long spin)
  /// gets fewer trials, ended by this count rather than by the clock.
  std::uint64_t steps = 50'000'000;
  /// Whether the parameter pass runs (it re-resolves the cell from its preset and primitive:
  /// off for a cell whose body is not the catalogue's, as in tests).
  bool lower_parameters = true;
  /// Whether the first pass searches the preemption bounds below the schedule's (off where the
  /// caller has just done so: an exhaustive cell's re-search, src/backends/sim/cell.cpp).
  bool bounded_search = true;
};

/// A shrunk counterexample and what shrinking it took.
struct Shrunk {
  Schedule schedule;  ///< the shrunk schedule (the original's when nothing smaller was found)
  ExecutionVerdict verdict;  ///< what its execution broke
  std::uint64_t steps = 0;
  std::uint32_t preemptions = 0;
  std::uint64_t original_steps = 0;
  std::uint32_t original_preemptions = 0;
  /// The --set values the shrunk schedule runs with: the cell's, with any lowered parameter.
  std::map<std::string, std::string> overrides;
  bool parameters_changed = false;  ///< some parameter was lowered
  std::uint64_t executions = 0;     ///< executions shrinking ran
  double seconds = 0;
  /// "done" (no pass takes anything more), "executions", "steps" or "time" (a budget ended it),
  /// "interrupted" (SIGINT or SIGTERM).
  std::string stopped_by;
};

/// What one trial execution came to.
struct Trial {
  ExecutionVerdict verdict;
  std::uint64_t steps = 0;
  bool pruned = false;  ///< a reducing search ended it as redundant
};

/// Runs the trial executions of a shrink. The one of shrink_violation(..., watch) runs them in
/// this process; the supervisor's runs each in a forked child, for a counterexample that
/// crashes its process (src/backends/sim/shrink_isolated.hpp).
class TrialRunner {
 public:
  virtual ~TrialRunner() = default;
  /// Where the strategy given to run() must log its answers (a LoggingStrategy over it): they
  /// are read from here after the trial, whatever became of it.
  virtual AnswerLog& log() = 0;
  /// Runs one execution of `cell` under `strategy`, as `execution`, what its new_execution()
  /// returned to the caller, and judges it.
  virtual Trial run(const Cell& cell, Strategy& strategy, const Execution& execution) = 0;
  /// Whether a strategy's state carries from one trial to the next (false when each runs in a
  /// child process): the bounded search needs it.
  virtual bool keeps_strategy_state() const = 0;
};

/// Shrinks `found`, an execution of `cell` whose verdict is `broken`, running each trial in
/// this process. Returns nullopt when `found` does not break the same property again when
/// re-run (nondeterminism: the caller's confirmation reports it). A trial may crash or hang
/// the process where the search did not (a schedule no search took, into a primitive's
/// undefined behaviour): `found_violation`, the violation as it stands, goes into the watch's
/// note as "found", so that the supervisor reports it and shrinks it again with each trial in
/// a child (src/backends/sim/shrink_isolated.hpp).
std::optional<Shrunk> shrink_violation(const Cell& cell, const Schedule& found,
                                       const ExecutionVerdict& broken, const ShrinkLimits& limits,
                                       ExecutionWatch& watch,
                                       const nlohmann::json& found_violation = {});

/// What a violation's `shrink` says of a shrink: executions, seconds, why it stopped.
ShrinkNote shrink_note(const Shrunk& shrunk);

/// Whether `shrunk` is smaller than `found` (else there is nothing new to report).
bool shrank(const Shrunk& shrunk, const Schedule& found);

/// The cell the shrunk schedule runs on: `cell`, or `cell` with the lowered parameters.
Cell cell_of(const Shrunk& shrunk, const Cell& cell);

/// Makes the violation `v` report `shrunk`: its schedule, steps, preemptions and replay command
/// move to the original_* fields, the shrunk schedule (confirmed on `runs`, with `trace` and
/// `steps`) takes their place, and `overrides` names lowered parameters.
void report_shrunk(Violation& v, const Shrunk& shrunk, const Cell& runs,
                   std::vector<std::string> trace, std::uint64_t steps);

/// The same, each trial run by `runner`.
std::optional<Shrunk> shrink_violation(const Cell& cell, const Schedule& found,
                                       const ExecutionVerdict& broken, const ShrinkLimits& limits,
                                       TrialRunner& runner, ExecutionWatch& watch,
                                       const nlohmann::json& found_violation = {});

}  // namespace syncstress::scenarios
