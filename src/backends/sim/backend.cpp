// The sim backend: a cell's executions on the deterministic runtime (src/backends/sim/cell.hpp),
// and a replay of one (src/backends/sim/replay.hpp), each in a supervised child process
// (isolated.hpp) so that a crash or a hang of the primitive is a finding.
#include "backends/backend.hpp"

#include <variant>

#include "backends/sim/cell.hpp"
#include "backends/sim/replay.hpp"
#include "backends/sim/shrink_isolated.hpp"
#include "schedules/schedule_codec.hpp"
#include "supervise/isolated.hpp"
#include "supervise/watchdog.hpp"

namespace syncstress::supervise {
namespace {

/// How long a trial of a shrink in children may run (one takes milliseconds; one that runs this
/// long loops in freed state and does not count).
constexpr double kTrialSeconds = 0.2;

/// How long the cell's child may go without progress before it is a hang.
Stall stall_of(const scenarios::Cell& cell) {
  return sim_stall(static_cast<std::uint64_t>(cell.params.integer("max_steps")));
}

class SimBackend final : public Backend {
 public:
  // Every primitive is instantiated on Sim (src/backends/sim/bind.cpp).
  bool runs(const PrimitiveInfo&, scenarios::Family) const override { return true; }
  std::string_view platform() const override { return "sim"; }
  std::string_view catalogue() const override { return "syncstress list primitives"; }

  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override {
    const auto& sim = std::get<SimStrategySpec>(strategy);
    if (!isolation_enabled()) {
      auto result = run_sim_cell(cell, sim, plan, scenarios::no_watch());
      for (auto& v : result.violations) {
        if (shrinks_in_children(v)) {
          v.shrink = ShrinkNote{.skipped = "shrunk only in child processes (SYNCSTRESS_NO_FORK=1)"};
        }
      }
      return result;
    }
    CellResult identity = cell.identity();
    identity.schedule = describe(strategy);
    const Stall stall = stall_of(cell);
    auto result = run_isolated(
        [&](scenarios::ExecutionWatch& watch) { return run_sim_cell(cell, sim, plan, watch); },
        identity, 2 * plan.time_budget_seconds + 60 + stall.seconds, stall);
    for (auto& v : result.violations) {
      // A crash or hang note carries only the schedule string: the rest follows from it.
      if (v.replay_command.empty() && !v.schedule.empty()) {
        v.replay_command = cell.replay_command(v.schedule);
        try {
          v.seed = decode(v.schedule).seed;
        } catch (const ScheduleFormatError&) {
          // A note written by a dying process may be cut short; the replay will say so.
        }
      }
      // A crash is shrunk here, each trial in a child of its own (the cell's child is gone); so
      // is a violation whose shrink in the cell's child took the child down.
      if (plan.shrink && shrinks_in_children(v)) {
        scenarios::ShrinkLimits limits;
        limits.seconds = plan.shrink_seconds;
        shrink_in_children(v, cell, limits, kTrialSeconds);
      } else if (!plan.shrink && v.property == "crash") {
        v.shrink = ShrinkNote{.skipped = "--no-shrink"};
      }
    }
    return result;
  }

  ReplayOutcome replay(const scenarios::Cell& cell, const RecordedSchedule& schedule,
                       const std::string& text) const override {
    const auto& recorded = std::get<Schedule>(schedule);
    if (!isolation_enabled()) {
      return replay_sim_execution(cell, recorded, text, scenarios::no_watch());
    }
    Violation identity;
    identity.seed = recorded.seed;
    identity.schedule = text;
    identity.replay_command = cell.replay_command(text);
    const Stall stall = stall_of(cell);
    return replay_isolated(
        [&](scenarios::ExecutionWatch& watch) {
          return replay_sim_execution(cell, recorded, text, watch);
        },
        identity, 60 + 2 * stall.seconds, stall);
  }
};

}  // namespace

const Backend& sim_backend() {
  static const SimBackend backend;
  return backend;
}

}  // namespace syncstress::supervise
