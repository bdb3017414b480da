#include "backends/sim/replay.hpp"

#include "backends/sim/execution.hpp"
#include "scenarios/execution_verdict.hpp"
#include "schedules/replay_strategy.hpp"
#include "util/concat.hpp"
#include "util/lines.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {

ReplayOutcome replay_sim_execution(const Cell& cell, const Schedule& schedule,
                                   const std::string& text, ExecutionWatch& watch) {
  ReplayStrategy strategy(schedule);
  const Execution execution = *strategy.new_execution();
  // For the supervisor's handlers: the trace up to a crash or a hang.
  const ExecutionWatch::Note note = [](nlohmann::json& n) {
    note_position(n);
    n["trace"] = sim::trace_so_far();
  };
  watch.in_flight(&note);
  struct Clear {
    ExecutionWatch& watch;
    ~Clear() { watch.in_flight(nullptr); }
  } clear{watch};
  auto diverged = [&](const std::string& what) {
    return UsageError(concat("--schedule does not fit scenario '", cell.preset.name,
                             "' on primitive '", cell.primitive->name, "': ", what,
                             " (same scenario, primitive and --set values as the recorded run?)"));
  };
  Observations obs;
  sim::ExecutionResult r;
  try {
    r = execute(cell, *make_runtime(cell, /*trace=*/true), strategy, execution, obs, watch);
    strategy.finish();
  } catch (const ScheduleDivergence& e) {
    throw diverged(e.what());
  }
  // The runtime turns a strategy's exception inside an execution into an outcome.
  if (r.outcome == sim::Outcome::exception && strategy.diverged()) {
    throw diverged(r.message);
  }
  ReplayOutcome out;
  out.steps = r.steps;
  out.trace = split_lines(r.format_trace());
  const auto j = sim_execution_verdict(r, obs, cell.preset.family, cell.primitive->claims);
  if (j.broken) {
    Violation v;
    v.property = j.property;
    v.message = j.message;
    v.seed = schedule.seed;
    v.schedule = text;
    v.replay_command = cell.replay_command(text);
    v.trace = out.trace;
    out.violation = std::move(v);
  }
  return out;
}

}  // namespace syncstress::scenarios
