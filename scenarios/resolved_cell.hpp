// One cell of a run, resolved before anything runs: a (preset, primitive) pair with its
// parameters checked (the preset's values merged with --set) and its family body bound on Sim,
// and how much of it to run. Every backend runs cells of this shape.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "primitives/catalog.hpp"
#include "scenarios/bind_body.hpp"
#include "scenarios/outcome.hpp"
#include "scenarios/params.hpp"
#include "scenarios/preset.hpp"
#include "schedules/shard.hpp"

namespace syncstress::scenarios {

struct Cell {
  Preset preset;
  const PrimitiveInfo* primitive = nullptr;
  Params params;
  Body body;  ///< the family bound on Sim for the primitive (the sim backend runs it)
  std::map<std::string, std::string> overrides;  ///< --set as given, for replay commands

  /// `syncstress replay ...` for the execution `schedule` of this cell.
  std::string replay_command(std::string_view schedule) const;

  /// A result that names the cell (primitive, scenario, parameters) and nothing else yet.
  CellResult identity() const;

  /// Whether the primitive makes the claim the family is about (else the cell is measured).
  bool claims_headline() const;
};

/// The faults a cell's executions may be given where the strategy explores faults: the C++
/// standard lets a weak CAS fail spuriously and the platforms let a wait return spuriously,
/// in the families that judge safety and progress under contention; a primitive that does not
/// claim to tolerate spurious wake-ups (cooperative_semaphore) is spared them.
struct OfferedFaults {
  bool spurious_wakeups = false;
  bool cas_failures = false;
};
OfferedFaults offered_faults(const Cell& cell);

/// Where an earlier run stopped a cell (CellResult::position), as `run --resume` read it from
/// that run's report; the supervisor checks it against the cell's plan before anything runs.
// NOLINTNEXTLINE(bugprone-exception-escape): the members' default states allocate nothing.
struct ResumePoint {
  std::uint64_t executions_done = 0;  ///< the cell's executions so far (its "executions")
  std::uint64_t planned = 0;          ///< the cell's "planned_executions"
  std::uint64_t executions_left = 0;
  /// A search that numbers its executions (seeded ones): the next one's number.
  std::optional<std::uint64_t> next_execution;
  /// An exhaustive search: its checkpoint (the search's own codec reads it); null otherwise.
  nlohmann::json search;
  /// The shard that wrote the position ("2/3"); empty for a run that was not split.
  std::string shard;
};

/// How much of a cell to run: --seed, --executions and --time-budget, else the preset's.
struct CellPlan {
  std::uint64_t seed = 0;  ///< the first execution's (sim), the first iteration (Relacy)
  std::uint64_t executions = 0;
  double time_budget_seconds = 0;
  /// The time budget is the plan (a soak): a cell it ends with nothing broken passes, where
  /// otherwise it is inconclusive.
  bool soak = false;
  /// Tests only: the cell's clock runs `slowdown` times faster than the wall's, so its time
  /// budget and elapsed_seconds are those of a machine that much slower
  /// (SYNCSTRESS_TEST_SLOWDOWN). Sim only.
  double slowdown = 1;
  /// The part of the cell's work this process does (`--shard K/N`); whole by default.
  Shard shard{};
  /// A position from an earlier run's report: continue from there instead of starting.
  std::optional<ResumePoint> resume{};
  /// Shrinking of a sim violation (src/backends/sim/shrink.hpp): on, and its time budget per
  /// violation
  /// (--no-shrink, --shrink-budget).
  bool shrink = true;
  double shrink_seconds = 5;
};

}  // namespace syncstress::scenarios
