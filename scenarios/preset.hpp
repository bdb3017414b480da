// A preset: a named, configured scenario (scenarios/*.json).
//
//   {
//     "name": "shared-mutex-starvation",
//     "description": "one line",
//     "family": "starvation",            // safety, fairness, starvation, cancellation,
//                                        // spurious-wakeups, progress
//     "kind": "shared_mutex",            // mutex, shared_mutex, semaphore, event, work_queue
//     "parameters": { "readers": 3 },    // the family's and the runtime's, see `list scenarios`
//     "schedule": { "strategy": "random", "params": { }, "seed": 1,
//                   "executions": 500, "time_budget": 20 }
//   }
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "primitives/catalog.hpp"
#include "scenarios/family.hpp"

namespace syncstress::scenarios {

struct Preset {
  std::string name;
  std::string description;
  Family family = Family::safety;
  Kind kind = Kind::mutex;
  nlohmann::json parameters = nlohmann::json::object();
  std::string strategy = "random";
  std::map<std::string, std::string, std::less<>> strategy_params;
  std::uint64_t seed = 1;
  std::uint64_t executions = 1000;
  /// A safety net: a cell it ends before `executions` is inconclusive, unless `soak`.
  double time_budget_seconds = 30;
  /// The time budget is the plan (a soak test): a cell it ends with nothing broken passes.
  bool soak = false;
  std::filesystem::path file;
};

/// Throws UsageError naming `file` unless `name` keeps kSafeNameRule (util/safe_name.hpp): a
/// preset's name becomes part of the default report's file name.
void check_preset_name(const std::string& name, const std::filesystem::path& file);

/// Reads and validates a preset file. Throws UsageError naming the file and the field.
Preset load_preset(const std::filesystem::path& file);

/// Validates the parsed contents of preset file `file` (parse_json_input's result).
Preset parse_preset(const nlohmann::json& doc, const std::filesystem::path& file);

}  // namespace syncstress::scenarios
