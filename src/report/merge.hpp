// Reports combined: `syncstress merge` makes the shard reports of one run (`run --shard K/N`,
// K = 1..N) the report the unsharded run would have written (executions, steps and coverage
// added up, the violations of every shard, a search complete when every shard's part of it is);
// `run --resume` makes a stopped cell and its continuation one cell.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace syncstress::report {

/// One shard report as read from its file.
struct ShardReport {
  std::filesystem::path path;
  nlohmann::json report;
};

/// Merges `shards` (any order). Throws UsageError when they are not the N shards of one run:
/// a report that is not a shard, different run settings, revisions or cells, a shard missing
/// or given twice. The merged report's config has "shard": null and "merged_from" (the files);
/// a metric that cannot be added up (percentiles, fairness indices) is left out of a merged
/// cell and named in its metrics' "not_merged".
nlohmann::json merge_reports(const std::vector<ShardReport>& shards);

/// A cell of a resumed run (`run --resume`): `before`, stopped by its time budget or a signal
/// with a position, and `after`, its continuation from there, as one cell: counts added up as
/// merge does, the continuation's verdict (a failure or a measured property of either part
/// wins), stop, coverage and position, the violations of both.
nlohmann::json continue_cell(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace syncstress::report
