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

#include "scenarios/outcome.hpp"
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

/// Re-runs one execution from its schedule string. Throws UsageError for a schedule string,
/// scenario or primitive that does not fit. Defined by the scenarios layer.
ReplayOutcome replay(const ReplayConfig& config);

}  // namespace syncstress
