// Where a cell runs: one interface for every backend (sim, Relacy, stress on real threads), chosen
// once from the parsed strategy by backend_for. The factory dispatches on the StrategySpec's
// alternative, which schedules/strategy_spec.hpp chose from the name: nothing here or above matches
// strategy names.
#pragma once

#include <string>
#include <string_view>

#include "primitives/catalog.hpp"
#include "scenarios/family.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/resolved_cell.hpp"
#include "schedules/strategy_spec.hpp"

namespace syncstress::supervise {

class Backend {
 public:
  virtual ~Backend() = default;

  /// Whether `primitive` runs under `family` here. The matrix leaves the others out, or
  /// refuses them when they were named on the command line.
  virtual bool runs(const PrimitiveInfo& primitive, scenarios::Family family) const = 0;
  /// The platform's name in messages ("sim", "Relacy").
  virtual std::string_view platform() const = 0;
  /// Where the user finds what runs here ("syncstress-relacy list").
  virtual std::string_view catalogue() const = 0;

  /// Throws UsageError, before anything runs, when this backend cannot run `cell` as `plan`
  /// and its parameters ask (a value beyond what the platform takes). Nothing by default.
  virtual void check(const scenarios::Cell& /*cell*/, const StrategySpec& /*strategy*/,
                     const scenarios::CellPlan& /*plan*/) const {}

  /// Runs one cell under `strategy`, which backend_for(strategy) chose this backend for.
  virtual CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                         const scenarios::CellPlan& plan) const = 0;

  /// Re-runs the execution `schedule` (printed as `text`) of `cell`, with its trace; `schedule`
  /// is one backend_for(schedule) chose this backend for.
  virtual ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                               const std::string& text) const = 0;
};

/// The deterministic runtime's: each cell and replay in a supervised child (sim/backend.cpp).
const Backend& sim_backend();
/// Relacy's: each cell and replay in the syncstress-relacy program (relacy/backend.cpp).
const Backend& relacy_backend();
/// Real threads': each cell's trials in a supervised child (stress/backend.cpp); no replays.
const Backend& stress_backend();

/// The backend that runs `strategy`.
const Backend& backend_for(const StrategySpec& strategy);

/// The backend that replays an execution recorded as `schedule`.
const Backend& backend_for(const RecordedSchedule& schedule);

}  // namespace syncstress::supervise
