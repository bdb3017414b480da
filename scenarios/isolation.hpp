// Each cell, and each replay, runs in a child process, so a primitive that crashes (a wild
// pointer, an abort) or hangs without ever reaching a scheduling point is a finding in the
// report, not the end of the tool. The child sends its result back through a pipe; the parent
// turns a death by signal, a stall or a blown deadline into a failed result that says which
// execution was in flight and, when the child could still write it, the schedule that replays
// it (and, for a replay, the trace up to the crash or the hang).
//
// A hang is caught by a watchdog in the child: a one-second interval timer whose handler runs
// on the stuck thread itself, so it can read the execution in flight without racing it. When
// no execution has started or ended for `stall_seconds`, the handler writes the note and the
// child exits. Every execution is bounded by the runtime's step bound, so a stall can only be
// code that loops without a scheduling point (a spin on plain memory, a walk around a cyclic
// list). The parent's wall-clock deadline stays as the backstop.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runner.hpp"

namespace syncstress::scenarios {

/// What the crash and stall handlers report about the execution in flight: set by the runner
/// before its loop, read only from the child's signal handlers on the same thread (best
/// effort: after a crash even encoding a schedule may fail, and then the note lacks it).
struct InFlight {
  std::function<std::string()> schedule;  ///< the encoded schedule so far
  const std::uint64_t* executions = nullptr;
  bool trace = false;  ///< whether to add the trace so far (the runtime records one)
};

/// Registers `in_flight` for the handlers of this process (nullptr to clear).
void set_in_flight(const InFlight* in_flight);

/// Marks the start or end of an execution: what the stall watchdog watches. Lock-free.
void note_progress() noexcept;

/// How long a child may go without starting or ending an execution before it is a hang: 5 s,
/// plus 1 µs per step the runtime allows an execution (so a generous max_steps never reads as
/// a hang even at sanitizer speed).
double stall_seconds(std::uint64_t max_steps);

/// Runs `work` in a forked child and returns its result. `identity` names the cell (primitive,
/// scenario, schedule) for the result made when the child dies: by a signal (fail, property
/// "crash"), by its stall watchdog or killed after `timeout_seconds` (fail, property "hang").
/// A UsageError thrown by `work` is rethrown here.
CellResult run_isolated(const std::function<CellResult()>& work, const CellResult& identity,
                        double timeout_seconds, double stall);

/// Runs one replay in a forked child. When the child crashes or hangs, the outcome carries a
/// violation ("crash" or "hang") built on `identity` (schedule, seed, replay command), with the
/// trace up to that point. A UsageError thrown by `work` is rethrown here.
ReplayOutcome replay_isolated(const std::function<ReplayOutcome()>& work, const Violation& identity,
                              double timeout_seconds, double stall);

/// Whether work runs in child processes: yes, unless SYNCSTRESS_NO_FORK=1 (for debuggers).
bool isolation_enabled();

}  // namespace syncstress::scenarios
