// Each cell runs in a child process, so a primitive that crashes (a wild pointer, an abort) or
// hangs without ever reaching a scheduling point is a finding in the report, not the end of
// the tool. The child sends its CellResult back through a pipe; the parent turns a death by
// signal or a blown deadline into a failed cell that says which execution was in flight and,
// when the child could still write it, the schedule that replays it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "runner.hpp"

namespace syncstress::scenarios {

/// What the crash handler reports about the execution in flight: set by the runner before
/// its loop, read only from the child's signal handler (best effort: after a crash even
/// encoding a schedule may fail, and then the note is simply missing).
struct InFlight {
  std::function<std::string()> schedule;  ///< the encoded schedule so far
  const std::uint64_t* executions = nullptr;
};

/// Registers `in_flight` for the crash handler of this process (nullptr to clear).
void set_in_flight(const InFlight* in_flight);

/// Runs `work` in a forked child and returns its result. `identity` names the cell (primitive,
/// scenario, schedule) for the result made when the child dies: by a signal (fail, property
/// "crash"), or killed after `timeout_seconds` (fail, property "hang"). A UsageError thrown
/// by `work` is rethrown here.
CellResult run_isolated(const std::function<CellResult()>& work, const CellResult& identity,
                        double timeout_seconds);

/// Whether cells run in child processes: yes, unless SYNCSTRESS_NO_FORK=1 (for debuggers).
bool isolation_enabled();

}  // namespace syncstress::scenarios
