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

}  // namespace syncstress::testing
