// The JSON report of a run (schema "syncstress.report/1", documented in results/SCHEMA.md)
// and the short table printed on stdout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/outcome.hpp"

namespace syncstress::report {

/// The schema tag every report carries; readers refuse any other.
inline constexpr const char* kReportSchema = "syncstress.report/1";

/// Where and how the report was made: the "context" block.
struct Context {
  std::string version;
  std::string git_revision;
  std::string date;  ///< UTC, ISO-8601, e.g. "2025-11-22T04:19:00Z"
  std::string host;
  unsigned cpus = 0;
  std::string build_type;
  std::vector<std::string> command_line;  ///< argv as given
};

/// The run as it was asked for, flags as the user gave them: the "config" block.
struct RunDescription {
  std::vector<std::string> scenarios;                ///< preset names (--scenario, --all)
  std::optional<std::filesystem::path> preset_file;  ///< --preset
  std::vector<std::string> primitives;               ///< --primitive
  std::optional<std::string> schedule;               ///< --schedule
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> executions;
  std::optional<double> time_budget_seconds;
  bool soak = false;                             ///< --soak
  std::map<std::string, std::string> overrides;  ///< --set
  std::optional<std::string> shard;              ///< --shard, resolved: "2/3"
  std::filesystem::path out;                     ///< where the report goes
};

/// The context of this process: version, revision, now, host name, CPU count, build type.
Context current_context(const std::vector<std::string>& command_line);

/// The current UTC time as ISO-8601 ("2025-11-22T04:19:00Z") and as a file-name stamp
/// ("20251122T041900Z").
std::string utc_iso8601_now();
std::string utc_file_stamp_now();

/// The whole report document.
nlohmann::json build_report(const Context& context, const RunDescription& config,
                            const RunOutcome& outcome);

/// Recounts a report's summary (cells, verdicts, violations) from its cells; keeps its
/// interrupted_by and raises cells_planned to the cells there are.
void recount_summary(nlohmann::json& report);

/// Writes `report` atomically to `path` (pretty-printed, newline at the end).
void write_report(const std::filesystem::path& path, const nlohmann::json& report);

/// Writes `report` as a new file of folder `dir`, named <UTC stamp>-<label>.json (with -2,
/// -3, ... before .json when the name is taken), never over anything that exists; sets its
/// config.out to that path and returns it. `label` must keep kSafeNameRule (util/safe_name.hpp).
std::filesystem::path write_new_report(const std::filesystem::path& dir, std::string_view label,
                                       nlohmann::json& report);

/// Reads and checks a report: valid JSON, the right schema, cells with their required fields.
/// Throws UsageError naming the file and what is wrong.
nlohmann::json read_report(const std::filesystem::path& path);

/// The checks of read_report on a parsed document (parse_json_input's result) of file `path`.
void check_report(const nlohmann::json& report, const std::filesystem::path& path);

/// The build that made `report`, as "syncstress 0.4.0 (6600e98)": its context's version and
/// git revision.
std::string build_of(const nlohmann::json& report);
/// The same for this binary.
std::string this_build();
/// build_of(report) when it is not this_build(); nothing when it is.
std::optional<std::string> other_build(const nlohmann::json& report);

/// A wall-clock figure in ns as people read it: "850 ns", "12.3 us", "4.1 ms", "2.0 s".
std::string format_ns(double ns);

/// Whether a cell's `metrics` are an exhaustive search's that did not run every schedule: its
/// pass holds for the schedules run, not for every one within its bounds (both tables say so).
bool search_incomplete(const nlohmann::json& metrics);

/// The human table: primitive | scenario | schedule | verdict | executions | time | first
/// violation, from a report document.
void print_table(std::ostream& out, const nlohmann::json& report);

}  // namespace syncstress::report
