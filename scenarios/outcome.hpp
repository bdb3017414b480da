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
};

/// The result of a (primitive, scenario, schedule) cell.
enum class Verdict { pass, fail, measured, error };

/// "pass", "fail", "measured", "error".
std::string_view to_string(Verdict verdict);
/// The inverse of to_string; nullopt for anything else.
std::optional<Verdict> verdict_from_string(std::string_view text);

struct CellResult {
  std::string primitive;
  std::string scenario;
  std::string schedule;  ///< strategy as Strategy::describe() prints it, e.g. "pct:d=3"
  Verdict verdict = Verdict::error;
  std::uint64_t executions = 0;
  std::uint64_t steps = 0;  ///< summed over all executions
  double elapsed_seconds = 0;
  /// Parameters the cell actually ran with (preset defaults merged with --set).
  std::map<std::string, std::string> parameters;
  nlohmann::json metrics = nlohmann::json::object();  ///< family-specific numbers
  std::vector<Violation> violations;
  std::string error;  ///< for Verdict::error: what went wrong in the tool or the primitive
};

/// Every cell of a run, in the order they ran.
struct RunOutcome {
  std::vector<CellResult> cells;
};

/// What re-running one execution from its schedule string showed.
struct ReplayOutcome {
  /// The violation the replayed execution produced, if any.
  std::optional<Violation> violation;
  std::vector<std::string> trace;  ///< the full trace of the execution
  std::uint64_t steps = 0;
};

}  // namespace syncstress
