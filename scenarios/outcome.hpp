// What a cell and a replay come to, whichever backend ran them: the verdict, the violations
// with their schedules and traces, the metrics. The backends produce these; the report writes
// them.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncstress {

/// What shrinking (src/backends/sim/shrink.hpp) did with a violation, or why it did not.
struct ShrinkNote {
  std::string skipped{};  ///< why it was not shrunk ("--no-shrink", a Relacy schedule, ...)
  std::uint64_t executions = 0;
  double seconds = 0;
  std::string stopped_by{};  ///< "done", "executions", "time" or "interrupted"
  /// Why its trials ran in child processes (a crash, a misused coroutine frame, a trial that
  /// took the cell's process down); set in the cell's child, the supervisor shrinks it there.
  std::string in_children{};
  std::string not_reported{};  ///< why a shrunk schedule was found but not reported
};

/// One broken property in one execution, replayable from the fields below.
struct Violation {
  std::string property;  ///< claim name as to_string(Claim) spells it, or "deadlock", ...
  std::string message;   ///< one line for humans
  std::uint64_t seed = 0;
  std::string schedule;  ///< the schedule string that replays this execution
  /// `syncstress replay ...` that reproduces it (scenarios/replay_command.hpp); empty when
  /// there is no schedule to replay (a crash before any execution started).
  std::string replay_command;
  std::vector<std::string> trace;  ///< one step per line
  /// Found by an exhaustive search: the preemptions in `schedule`, the fewest among the
  /// violations of this property that the search and its bounded re-searches found.
  std::optional<std::uint32_t> preemptions{};
  /// When a bounded re-search found one with fewer preemptions: the schedule the search found
  /// first, and its preemptions.
  std::string first_found_schedule{};
  std::uint32_t first_found_preemptions = 0;
  /// Steps of `schedule`'s execution (sim; 0 when not measured).
  std::uint64_t steps = 0;
  /// Shrunk (src/backends/sim/shrink.hpp): the schedule as the search found it, its steps and
  /// preemptions, and its replay command; `schedule`, `steps` and `preemptions` are the shrunk
  /// one's. Empty when nothing was shrunk.
  std::string original_schedule{};
  std::uint64_t original_steps = 0;
  std::uint32_t original_preemptions = 0;
  std::string original_replay_command{};
  /// The --set values `schedule` runs with when shrinking lowered a parameter (the run's
  /// otherwise, and then empty here).
  std::map<std::string, std::string> overrides{};
  /// What shrinking did, or why it did not; none when the backend does not say.
  std::optional<ShrinkNote> shrink{};
};

/// The result of a (primitive, scenario, schedule) cell.
///  - pass: every execution planned ran and kept the claimed properties;
///  - fail: a claimed property broke (or the primitive crashed or hung);
///  - measured: the primitive does not claim the family's property, or only unclaimed ones broke;
///  - inconclusive: the time budget ended the search before its planned executions, with
///    nothing broken: a faster machine might have found what this one did not reach;
///  - interrupted: SIGINT or SIGTERM stopped the cell;
///  - error: the tool or the child running the cell failed.
enum class Verdict { pass, fail, measured, inconclusive, interrupted, error };

/// "pass", "fail", "measured", "inconclusive", "interrupted", "error".
std::string_view to_string(Verdict verdict);
/// The inverse of to_string; nullopt for anything else.
std::optional<Verdict> verdict_from_string(std::string_view text);

/// How much a verdict says, lowest first: pass, measured, inconclusive, interrupted, fail,
/// error. Cells merged from shards, or joined across a resume, take the highest of theirs.
int severity(Verdict verdict);

/// Why a cell's search ended.
enum class StopReason {
  executions,   ///< it ran every execution planned
  exhausted,    ///< the strategy had nothing left to try (a complete bounded search)
  violation,    ///< a claimed property broke, or the primitive crashed or hung
  time_budget,  ///< the wall-clock budget ran out first
  interrupted,  ///< SIGINT or SIGTERM
  error,        ///< the tool failed
};

/// "executions", "exhausted", "violation", "time_budget", "interrupted", "error".
std::string_view to_string(StopReason reason);
/// The inverse of to_string; nullopt for anything else.
std::optional<StopReason> stop_reason_from_string(std::string_view text);

/// The same order for stop reasons: exhausted, executions, time_budget, interrupted, violation,
/// error. Shards all exhausted make an exhausted cell; one that ran out of executions, or was
/// cut short, says more.
int severity(StopReason reason);

struct CellResult {
  std::string primitive;
  std::string scenario;
  std::string schedule;  ///< strategy as its spec describes it, e.g. "pct:d=3,k=100000"
  Verdict verdict = Verdict::error;
  std::uint64_t executions = 0;
  /// The executions planned (--executions or the preset's); `executions` may be fewer.
  std::uint64_t planned_executions = 0;
  StopReason stopped_by = StopReason::error;
  std::uint64_t steps = 0;  ///< summed over all executions
  double elapsed_seconds = 0;
  /// Parameters the cell actually ran with (preset defaults merged with --set).
  std::map<std::string, std::string> parameters;
  nlohmann::json metrics = nlohmann::json::object();  ///< family-specific numbers
  std::vector<Violation> violations;
  std::string error;  ///< for Verdict::error: what went wrong in the tool or the primitive
  /// Where a cell stopped by its time budget or a signal can go on (`run --resume`): for a
  /// strategy that splits by execution number {"next_execution", "executions_left"}, for an
  /// exhaustive search {"search": its checkpoint, "executions_left"}; with "cell", the cell it
  /// belongs to (position_owner), and "shard" when the run was split; null otherwise.
  nlohmann::json position{};
};

/// The cell a position belongs to, as its "cell" field names it: primitive, scenario, schedule
/// and every parameter ("ticket_mutex x mutex-safety (exhaustive) actors=3,rounds=1,...").
std::string position_owner(const CellResult& cell);

/// The verdict a cell's search earns from how it stopped: one cut short by its time budget is
/// inconclusive where it would have passed or measured, unless `soak` (the time budget is the
/// plan); one interrupted is interrupted unless it failed. Applied once, by the supervisor,
/// to whatever a backend returns.
void settle_verdict(CellResult& cell, bool soak);

/// Every cell of a run, in the order they ran.
struct RunOutcome {
  std::vector<CellResult> cells;
  std::size_t cells_planned = 0;  ///< more than cells.size() when the run was interrupted
  int interrupted_by = 0;         ///< SIGINT or SIGTERM when the run was interrupted, else 0
};

/// What re-running one execution from its schedule string showed.
struct ReplayOutcome {
  /// The violation the replayed execution produced, if any.
  std::optional<Violation> violation;
  std::vector<std::string> trace;  ///< the full trace of the execution
  std::uint64_t steps = 0;
};

}  // namespace syncstress
