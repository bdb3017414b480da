// The JSON report of a run (schema "syncstress.report/1", documented in results/SCHEMA.md)
// and the short table printed on stdout.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner.hpp"

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

/// The context of this process: version, revision, now, host name, CPU count, build type.
Context current_context(const std::vector<std::string>& command_line);

/// The current UTC time as ISO-8601 ("2025-11-22T04:19:00Z") and as a file-name stamp
/// ("20251122T041900Z").
std::string utc_iso8601_now();
std::string utc_file_stamp_now();

/// The whole report document.
nlohmann::json build_report(const Context& context, const RunConfig& config,
                            const RunOutcome& outcome);

/// Writes build_report(...) atomically to config.out (pretty-printed, newline at the end).
void write_report(const std::filesystem::path& path, const nlohmann::json& report);

/// Reads and checks a report: valid JSON, the right schema, cells with their required fields.
/// Throws UsageError naming the file and what is wrong.
nlohmann::json read_report(const std::filesystem::path& path);

/// The human table: primitive | scenario | schedule | verdict | executions | time | first
/// violation, from a report document.
void print_table(std::ostream& out, const nlohmann::json& report);

}  // namespace syncstress::report
