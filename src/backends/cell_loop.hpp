// The loop every cell run in this process goes through, on sim and on real threads: trials until
// the plan's executions are spent, its time budget ends them, a signal stops them, the backend
// has nothing left to try, or a claimed property breaks; then the stop reason, the position
// `run --resume` goes on from, the metrics every cell reports, and the claimed-or-measured rule
// (a property broken but not claimed makes the cell measured, with its first evidence). The
// backend supplies only its trials: how to get the next, run it, turn a broken property into
// the violation the report gives, and where it stands.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "scenarios/execution_verdict.hpp"
#include "scenarios/execution_watch.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/resolved_cell.hpp"

namespace syncstress::scenarios {

/// One trial as the loop sees it.
struct CellTrial {
  /// False for another shard's execution, run only to walk the top of the search tree: neither
  /// counted nor judged.
  bool counts = true;
  /// False for an execution the reduction ended as redundant: counted, observed nowhere.
  bool judged = true;
  std::uint64_t steps = 0;
  Observations observations;
  ExecutionVerdict verdict;
};

/// What a backend supplies to the loop.
class TrialSource {
 public:
  virtual ~TrialSource() = default;
  /// Prepares the next trial; false when there is nothing left to try (a complete search).
  virtual bool next() = 0;
  /// Runs the prepared trial.
  virtual CellTrial run() = 0;
  /// The violation a broken property of `trial` is reported as (replayed, shrunk where the
  /// backend does), or the reason it could not be confirmed, which makes the cell an error.
  /// `within_budget` says whether the cell's time budget and signals still allow more work.
  virtual std::variant<Violation, std::string> violation(
      const CellTrial& trial, const std::function<bool()>& within_budget) = 0;
  /// A progress line's text after `executions` in `seconds`, or nothing to show.
  virtual std::optional<std::string> progress(std::uint64_t executions, double seconds) = 0;
  /// Where `run --resume` goes on after `executions` of this run, besides the executions left
  /// (the search's checkpoint or the next execution's number); nothing for a backend that does
  /// not resume.
  virtual std::optional<nlohmann::json> position(std::uint64_t executions) = 0;
  /// Adds the backend's own metrics to `metrics` once the loop has ended.
  virtual void finish(nlohmann::json& metrics) = 0;
};

/// How much the loop runs, and what it judges by.
struct LoopPlan {
  std::uint64_t executions = 0;  ///< planned (for a resumed cell: those left)
  double time_budget_seconds = 0;
  /// The cell's clock runs this many times faster than the wall's (tests only).
  double clock_scale = 1;
  /// Whether the family counts waits in steps (off on real threads, measured in time there).
  bool wait_percentiles = true;
  Family family = Family::safety;
  /// Whether the primitive claims the family's headline property.
  bool claims_headline = false;
};

/// The claimed-or-measured rule, once a cell's trials are over: a cell that passed is measured
/// when the primitive does not claim the family's headline property or some trial broke it
/// unclaimed, and then keeps `evidence`, the first such break. Records the claim in the metrics.
void settle_claims(CellResult& out, bool claims_headline, bool headline_broken_unclaimed,
                   std::optional<Violation> evidence);

/// The loop's plan for `cell` under `plan`: its executions, time budget, clock, family and
/// headline claim; a backend changes what differs for it.
LoopPlan loop_plan(const Cell& cell, const CellPlan& plan);

/// Runs `source`'s trials under `plan` into `out` (a cell's identity): verdict, stop reason,
/// executions, steps, planned executions, elapsed seconds, violations, position and metrics.
/// While it runs, `note` describes the trial in flight to `watch`.
void run_cell_loop(CellResult& out, TrialSource& source, const LoopPlan& plan,
                   ExecutionWatch& watch, const ExecutionWatch::Note& note);

}  // namespace syncstress::scenarios
