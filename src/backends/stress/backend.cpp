// The stress backend: a cell's trials on real OS threads (src/backends/stress/cell.hpp) in a
// supervised child process (isolated.hpp), so a primitive that crashes (a use-after-free, an
// abort) or hangs (a lost wake-up leaves every thread asleep) is a finding, with the trial's
// seed and each thread's last operations, and the run goes on to the next cell.
#include "backends/backend.hpp"

#include <stdexcept>

#include "backends/bind.hpp"
#include "backends/stress/cell.hpp"
#include "scenarios/replay_command.hpp"
#include "supervise/isolated.hpp"
#include "util/lines.hpp"

namespace syncstress::supervise {
namespace {

class StressBackend final : public Backend {
 public:
  bool runs(const PrimitiveInfo& primitive, scenarios::Family family) const override {
    return scenarios::bind_real(family, primitive.name, primitive.claims).has_value();
  }
  std::string_view platform() const override { return "real threads"; }
  std::string_view catalogue() const override { return "syncstress list primitives"; }

  CellResult run(const scenarios::Cell& cell, const StrategySpec& strategy,
                 const scenarios::CellPlan& plan) const override {
    const auto& stress = std::get<StressSearch>(strategy);
    if (!isolation_enabled()) {
      return scenarios::run_stress_cell(cell, stress, plan, scenarios::no_watch());
    }
    CellResult identity = cell.identity();
    identity.schedule =
        stress.describe(stress.threads != 0 ? stress.threads : default_stress_threads());
    const Stall stall{static_cast<double>(stress.stall_seconds), StallClock::wall};
    auto result = run_isolated(
        [&](scenarios::ExecutionWatch& watch) {
          return scenarios::run_stress_cell(cell, stress, plan, watch);
        },
        identity, 2 * plan.time_budget_seconds + 60 + stall.seconds, stall);
    for (auto& v : result.violations) {
      // A crash or hang note: the sim search is the next thing to try.
      if (v.replay_command.empty()) {
        v.replay_command =
            scenarios::run_command(cell.preset, cell.primitive->name, cell.overrides, "portfolio");
        v.trace.push_back("next: search for it on the deterministic runtime: " + v.replay_command);
      }
    }
    return result;
  }

  ReplayOutcome replay(const scenarios::Cell&, const RecordedSchedule&,
                       const std::string& text) const override {
    // backend_for(RecordedSchedule) never chooses this backend: no schedule string names a
    // trial on real threads.
    throw std::logic_error("a trial on real threads has no schedule to replay: " + text);
  }
};

}  // namespace

const Backend& stress_backend() {
  static const StressBackend backend;
  return backend;
}

}  // namespace syncstress::supervise
