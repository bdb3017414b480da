// The handlers of a supervised child (isolated.hpp): a crash of the code under test, or a hang
// without a scheduling point, ends the child with a note on the execution in flight instead of
// taking the tool down.
//
// A hang is caught by a watchdog in the child: a one-second interval timer whose handler runs
// on the stuck thread itself, so it can read the execution in flight without racing it. When
// no execution has started or ended for the stall's length, the handler writes the note and
// the child exits. On sim every execution is bounded by the runtime's step bound, so a stall can
// only be code that loops without a scheduling point (a spin on plain memory, a walk around a
// cyclic list): it burns CPU, and the timer counts the child's own CPU time, so that a child
// stopped (SIGSTOP, a debugger) or starved by a loaded machine is not a hang. Real threads can
// also hang asleep (a deadlock, a lost wake-up), which costs no CPU: there the timer counts
// wall-clock time. The parent's wall-clock deadline stays as the backstop.
//
// What is in flight comes from the sim cell through scenarios::ExecutionWatch (the loop is a
// layer below and cannot call us): handler_watch() is the implementation the handlers read.
#pragma once

#include <cstdint>
#include <string_view>

#include "scenarios/execution_watch.hpp"

namespace syncstress::supervise {

/// What the stall watchdog counts.
enum class StallClock {
  cpu,   ///< the child's CPU time: a hang is a loop that makes no progress (sim)
  wall,  ///< wall-clock time: a hang may also be threads asleep (real threads)
};

/// How long a child may go without starting or ending an execution, and by which clock.
struct Stall {
  double seconds = 5;
  StallClock clock = StallClock::cpu;
};

/// Installs, in this (child) process, handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT
/// and a watchdog that ticks every second of `stall.clock` and fires after `stall.seconds`
/// without progress. Each writes "CRASH <note>" or "HANG <note>" to `fd` and ends the process;
/// the note is a JSON object ("signal" or "stalled_seconds", and what handler_watch()'s note
/// adds).
void install_handlers(int fd, Stall stall);

/// Stops the watchdog's timer (before the child writes its result).
void stop_watchdog();

/// The watch a supervised sim cell reports to: what the handlers read.
scenarios::ExecutionWatch& handler_watch();

/// How long a sim child may go without starting or ending an execution before it is a hang: 5 s
/// of its CPU time, plus 1 µs per step the runtime allows an execution (so a generous max_steps
/// never reads as a hang even at sanitizer speed).
Stall sim_stall(std::uint64_t max_steps);

/// Writes all of `data` to `fd`, retrying short writes; gives up silently on an error.
void write_all(int fd, std::string_view data);

}  // namespace syncstress::supervise
