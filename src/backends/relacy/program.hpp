// The protocol with syncstress-relacy, the program that runs cells on Relacy.
//
// Relacy replaces malloc, operator new and assert for its whole program, so it lives in its own
// executable (src/backends/relacy/child/). The Relacy backend starts it as a child process with the
// cell's family, kind, primitive, search and parameters, and reads back one JSON cell: a verdict,
// the iterations run, metrics, and for a failure Relacy's state string (the schedule) with the
// history of the failing iteration (the trace). Relacy re-runs a failing iteration with its
// history on before it answers, and stops if the re-run does not fail the same way, so the
// counterexample has been replayed once before it is reported, as on sim.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "scenarios/family.hpp"
#include "scenarios/outcome.hpp"
#include "schedules/relacy_strategies.hpp"

namespace syncstress::supervise::relacy {

/// One cell for syncstress-relacy.
struct CellSpec {
  std::string family;     ///< "safety", "progress"
  std::string kind;       ///< "mutex", ...
  std::string primitive;  ///< a name from `syncstress-relacy list`
  RelacySearch search;
  std::uint64_t iterations = 1000;
  /// First iteration (the random scheduler seeds iteration i with i); the random search's
  /// only: the bound and full searches start at their first schedule and ignore it.
  std::uint64_t start = 0;
  /// No iteration begins after it (the cell's --time-budget); 0: none.
  double time_budget_seconds = 0;
  /// The parameters syncstress-relacy takes for the family, as text.
  std::map<std::string, std::string> params;
  /// The backstop: the child is killed after it, should it not stop at its time budget.
  double timeout_seconds = 600;
};

/// The executable: $SYNCSTRESS_RELACY if set, else NAME-relacy beside this executable NAME
/// (syncstress-relacy beside syncstress).
std::filesystem::path executable();

/// The families each primitive runs under on Relacy, by primitive name, as
/// `syncstress-relacy list` says. Throws UsageError (exit 2) naming the build command when the
/// executable is missing or does not answer.
const std::map<std::string, std::set<std::string>>& supported();

/// The parameter names syncstress-relacy takes for `family`: the backend passes only these. A
/// tool's own family takes all of its own.
std::set<std::string> parameter_names(scenarios::Family family);

/// Checks that syncstress-relacy takes the cell as `spec` gives it (its parameters, its first
/// iteration) without running it. Throws UsageError with the child's message when it does not.
void check_cell(const CellSpec& spec);

/// Runs one cell: the child says how many iterations it ran and why it stopped (stopped_by),
/// and planned_executions is `spec.iterations`. The result's primitive, scenario and parameters
/// are left for the caller.
/// Bad parameters for Relacy (exit 2 of the child) throw UsageError with its message; a child
/// that dies or overruns its deadline is an error verdict that says so.
CellResult run_cell(const CellSpec& spec);

/// Re-runs the failing iteration `schedule` (printed as `text`) with its history; the search
/// of `spec` is ignored (the schedule names its scheduler).
ReplayOutcome replay(const CellSpec& spec, const RelacySchedule& schedule, const std::string& text);

}  // namespace syncstress::supervise::relacy
