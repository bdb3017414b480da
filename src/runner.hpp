// The seam between the CLI and the scenario runner.
//
// The CLI parses and validates flags into a RunConfig (or a ReplayConfig) and calls run_matrix
// (or replay); the scenarios layer runs the matrix and answers with a RunOutcome, which the
// report layer turns into JSON and a table. Errors the user caused (an unknown --set key, a
// preset that does not parse) are thrown as UsageError and end the process with exit code 2.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "util/usage_error.hpp"

namespace syncstress {

/// How much the run prints on stdout/stderr besides errors.
enum class Verbosity { quiet, normal, verbose };

/// Everything `syncstress run` was asked to do, validated by the CLI.
struct RunConfig {
  /// Preset names to run, in order; one for --scenario, every preset for --all.
  std::vector<std::string> scenarios;
  /// A user's own preset file (--preset); when set, `scenarios` holds its name.
  std::optional<std::filesystem::path> preset_file;
  /// Primitive names (--primitive, repeatable); empty means every primitive of the kind.
  std::vector<std::string> primitives;
  /// Strategy name (--schedule); unset means the preset's default.
  std::optional<std::string> schedule;
  /// First seed (--seed); unset means the preset's default.
  std::optional<std::uint64_t> seed;
  /// Executions per cell (--executions); unset means the preset's default.
  std::optional<std::uint64_t> executions;
  /// Wall-clock budget per cell in seconds (--time-budget); unset means the preset's default.
  std::optional<double> time_budget_seconds;
  /// Parameter overrides (--set key=value), by key; the last --set of a key wins.
  std::map<std::string, std::string> overrides;
  /// Where the report goes (--out, or the default under results/runs/).
  std::filesystem::path out;
  Verbosity verbosity = Verbosity::normal;
};

/// One broken property in one execution, replayable from the fields below.
struct Violation {
  std::string property;  ///< claim name as to_string(Claim) spells it, or "deadlock", ...
  std::string message;   ///< one line for humans
  std::uint64_t seed = 0;
  std::string schedule;  ///< the schedule string that replays this execution
  /// `syncstress replay ...` that reproduces it; the report fills it when left empty.
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

struct RunOutcome {
  std::vector<CellResult> cells;
};

/// Runs every (scenario, primitive, strategy) cell of `config`. Throws UsageError for input
/// only the scenario layer can judge (unknown --set keys, bad values, a broken preset).
/// Defined by the scenarios layer.
RunOutcome run_matrix(const RunConfig& config);

/// Everything `syncstress replay` needs to re-run one execution.
struct ReplayConfig {
  std::string scenario;
  std::optional<std::filesystem::path> preset_file;
  std::string primitive;
  std::string schedule;  ///< the schedule string of the execution
  std::optional<std::uint64_t> seed;
  std::map<std::string, std::string> overrides;
  Verbosity verbosity = Verbosity::normal;
};

struct ReplayOutcome {
  /// The violation the replayed execution produced, if any.
  std::optional<Violation> violation;
  std::vector<std::string> trace;  ///< the full trace of the execution
  std::uint64_t steps = 0;
};

/// Re-runs one execution from its schedule string. Throws UsageError for a schedule string,
/// scenario or primitive that does not fit. Defined by the scenarios layer.
ReplayOutcome replay(const ReplayConfig& config);

}  // namespace syncstress
