// What the CLI asks the supervisor to do, in resolved values: presets loaded, primitives found
// in the catalogue, --schedule parsed. The CLI checks every name and flag once, at its edge;
// nothing below it sees a flag's text.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "primitives/catalog.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/shard.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress::supervise {

/// How much the run prints on stderr besides errors.
enum class Verbosity { quiet, normal, verbose };

/// A cell as a report names it: a run has one cell of each.
struct CellName {
  std::string primitive;
  std::string scenario;
  std::string schedule;  ///< its schedule column (describe() of its strategy)
  auto operator<=>(const CellName&) const = default;
};

/// Everything `syncstress run` was asked to do.
struct RunConfig {
  /// The presets to run, in order: one for --scenario or --preset, every one for --all.
  std::vector<scenarios::Preset> presets;
  /// The primitives named by --primitive; empty means every primitive that fits each preset.
  /// With one preset each must fit it; with several, each preset runs those that fit.
  std::vector<const PrimitiveInfo*> primitives;
  /// --schedule; unset means each preset's own.
  std::optional<StrategySpec> strategy;
  /// --all: with no --schedule, each preset's cross_check schedule runs too, as cells of its own
  /// after the preset's.
  bool cross_checks = false;
  std::optional<std::uint64_t> seed;        ///< --seed; unset: the preset's
  std::optional<std::uint64_t> executions;  ///< --executions per cell; unset: the preset's
  /// Wall-clock budget per cell in seconds (--time-budget); unset: the preset's.
  std::optional<double> time_budget_seconds;
  /// --soak: the time budget is the plan, for every preset (else each preset's own "soak").
  bool soak = false;
  /// Parameter overrides (--set key=value), by key; checked against each family's specs when
  /// its cells are resolved.
  std::map<std::string, std::string> overrides;
  /// --shard K/N: this process's part of every cell's work.
  Shard shard;
  /// --resume: the cells of the earlier run by name. A cell with a position
  /// goes on from it (once the position agrees with the cell's plan); one with none was
  /// finished and is not run again; a cell not listed (the earlier run was interrupted before
  /// it) runs from its start.
  std::map<CellName, std::optional<scenarios::ResumePoint>> resume;
  /// The report `resume` was read from, for messages.
  std::string resume_from;
  /// Shrink each sim violation before reporting it (--no-shrink turns it off), for at most
  /// `shrink_seconds` each (--shrink-budget).
  bool shrink = true;
  double shrink_seconds = 5;
  Verbosity verbosity = Verbosity::normal;
};

/// Everything `syncstress replay` needs to re-run one execution.
struct ReplayConfig {
  scenarios::Preset preset;
  const PrimitiveInfo* primitive = nullptr;
  std::string schedule;       ///< the schedule string, as given
  RecordedSchedule recorded;  ///< the same, decoded
  std::map<std::string, std::string> overrides;
  Verbosity verbosity = Verbosity::normal;
};

}  // namespace syncstress::supervise
