// Each sim cell, and each sim replay, runs in a forked child, so a primitive that crashes (a
// wild pointer, an abort) or hangs without ever reaching a scheduling point is a finding in the
// report, not the end of the tool. The child sends its result back through a pipe; the parent
// turns a death by signal, a stall (watchdog.hpp) or a blown deadline into a failed result that
// says which execution was in flight and, when the child could still write it, the schedule
// that replays it (and, for a replay, the trace up to the crash or the hang).
#pragma once

#include <functional>

#include "scenarios/execution_watch.hpp"
#include "scenarios/outcome.hpp"
#include "supervise/watchdog.hpp"

namespace syncstress::supervise {

/// Runs `work` in a forked child, handing it the watch the child's handlers read, and returns
/// its result. `identity` names the cell (primitive, scenario, schedule) for the result made
/// when the child dies: by a signal (fail, property "crash"), by its stall watchdog (`stall`)
/// or killed after `timeout_seconds` (fail, property "hang"). A UsageError thrown by `work` is
/// rethrown here.
CellResult run_isolated(const std::function<CellResult(scenarios::ExecutionWatch&)>& work,
                        const CellResult& identity, double timeout_seconds, Stall stall);

/// Runs one replay in a forked child. When the child crashes or hangs, the outcome carries a
/// violation ("crash" or "hang") built on `identity` (schedule, seed, replay command), with the
/// trace up to that point. A UsageError thrown by `work` is rethrown here.
ReplayOutcome replay_isolated(const std::function<ReplayOutcome(scenarios::ExecutionWatch&)>& work,
                              const Violation& identity, double timeout_seconds, Stall stall);

/// Whether work runs in child processes: yes, unless SYNCSTRESS_NO_FORK=1 (for debuggers).
bool isolation_enabled();

}  // namespace syncstress::supervise
