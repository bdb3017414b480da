// What a combined report (shards merged, a run resumed) must count as the one uninterrupted,
// unsharded run does, for the CLI tests of merge and --resume.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace syncstress::testing {

inline nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_file(path));
}

/// A cell's identity, counts, verdict, stop, violations and coverage.
inline nlohmann::json cell_totals(const nlohmann::json& cell) {
  nlohmann::json e = {{"primitive", cell.at("primitive")},
                      {"scenario", cell.at("scenario")},
                      {"executions", cell.at("executions")},
                      {"steps", cell.at("steps")},
                      {"verdict", cell.at("verdict")},
                      {"stopped_by", cell.at("stopped_by")},
                      {"violations", cell.at("violations").size()},
                      {"search_complete", cell.at("metrics").value("search_complete", false)}};
  if (cell.at("metrics").contains("exhaustive")) {
    const auto& x = cell.at("metrics").at("exhaustive");
    e["executions_pruned"] = x.value("executions_pruned", 0);
    e["distinct_traces"] = x.value("distinct_traces", 0);
    e["executions_by_preemptions"] = x.value("executions_by_preemptions", nlohmann::json::array());
  }
  return e;
}

/// What a reducing search split into shards shares with its unsharded run: the classes it
/// reached, the executions that ran to their end, verdicts and violations. A split search
/// explores every thread at its prefix's choices (schedules/prefix_walk.hpp), so it runs more
/// executions, each extra one ended at once as redundant, and more steps.
inline nlohmann::json classes_totals(const nlohmann::json& cell) {
  nlohmann::json e = cell_totals(cell);
  const auto executions = e.at("executions").get<std::int64_t>();
  e["completed"] = executions - e.value("executions_pruned", std::int64_t{0});
  e.erase("executions");
  e.erase("executions_pruned");
  e.erase("steps");
  return e;
}

}  // namespace syncstress::testing
