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
//                   "executions": 500, "time_budget": 20 },
//     "memory": "c11",                   // optional: sim schedules that name no memory model
//                                        // run under this one (sc unless given)
//     "cross_check": { "strategy": "relacy-random", ... },  // optional: `run --all` runs the
//                                        // preset under this schedule too (the shape of
//                                        // "schedule")
//     "model_checking": { "parameters": { "readers": 2 },   // optional: under `exhaustive`
//                         "executions": 10000000, "time_budget": 600 }
//   }
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "primitives/catalog.hpp"
#include "scenarios/family.hpp"
#include "schedules/sim_strategy_spec.hpp"

namespace syncstress::scenarios {

/// The size and budgets at which a model-checking session (the sim's `exhaustive` search) runs a
/// preset: the smallest at which its properties mean something and the documents' bugs show.
struct ModelChecking {
  /// Over the preset's own parameters; --set still overrides both.
  nlohmann::json parameters = nlohmann::json::object();
  std::uint64_t executions = 0;
  double time_budget_seconds = 0;
};

/// A schedule with its budgets, as a preset names it ("schedule", "cross_check").
struct PresetSchedule {
  std::string strategy = "random";
  std::map<std::string, std::string, std::less<>> strategy_params;
  std::uint64_t seed = 1;
  std::uint64_t executions = 1000;
  /// A safety net: a cell it ends before `executions` is inconclusive, unless `soak`.
  double time_budget_seconds = 30;
  /// The time budget is the plan (a soak test): a cell it ends with nothing broken passes.
  bool soak = false;
};

struct Preset {
  std::string name;
  std::string description;
  Family family = Family::safety;
  Kind kind = Kind::mutex;
  nlohmann::json parameters = nlohmann::json::object();
  /// What the preset runs under without --schedule.
  PresetSchedule schedule;
  /// The memory model of a sim schedule that names none (supervise::strategy_for applies it).
  MemoryModel memory = MemoryModel::sc;
  /// A second schedule `run --all` runs every cell of the preset under, when no --schedule is
  /// given: the memory-model presets' Relacy run beside their sim one.
  std::optional<PresetSchedule> cross_check;
  std::optional<ModelChecking> model_checking;
  std::filesystem::path file;
};

/// `preset` under its cross_check schedule (which it must have), with no cross_check of its own.
Preset cross_checked(const Preset& preset);

/// A cell's preset and --set values as a model-checking session runs them: the preset with its
/// model_checking budgets, and its model_checking parameters as --set values beneath `set` (so a
/// replay command and a report's violation name them). `preset` and `set` where it has none.
struct ModelCheckingRun {
  Preset preset;
  std::map<std::string, std::string> overrides;
};
ModelCheckingRun at_model_checking_size(const Preset& preset,
                                        const std::map<std::string, std::string>& set);

/// Throws UsageError naming `file` unless `name` keeps kSafeNameRule (util/safe_name.hpp): a
/// preset's name becomes part of the default report's file name.
void check_preset_name(const std::string& name, const std::filesystem::path& file);

/// Reads and validates a preset file. Throws UsageError naming the file and the field.
Preset load_preset(const std::filesystem::path& file);

/// Validates the parsed contents of preset file `file` (parse_json_input's result).
Preset parse_preset(const nlohmann::json& doc, const std::filesystem::path& file);

}  // namespace syncstress::scenarios
