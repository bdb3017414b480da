// What a sim cell tells whoever supervises it about the execution in flight.
//
// A crash or a stall of the code under test is caught by the handlers of the process
// supervisor (supervise/, a layer above this one), and the finding must say which execution
// was in flight and how to replay it. The sim cell loop may not include the supervisor, so the
// dependency is inverted: the loop reports to this interface, defined here, and the supervisor
// implements it with its handlers. A loop that nobody supervises reports to no_watch().
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

namespace syncstress::scenarios {

class ExecutionWatch {
 public:
  /// Writes what is known about the execution in flight into a note: "execution" (counted
  /// from 1), "schedule" (the choices so far, encoded), "thread" and "step", "trace" (so far),
  /// each when known.
  using Note = std::function<void(nlohmann::json& note)>;

  virtual ~ExecutionWatch() = default;

  /// From now on, and until the next call, `note` describes the execution in flight (nullptr:
  /// none). The supervisor calls it from a crash or stall handler on the loop's own thread,
  /// so it is best effort: after a crash, even encoding a schedule may fail.
  virtual void in_flight(const Note* note) = 0;

  /// An execution starts or ends: what a stall watchdog watches. Lock-free.
  virtual void progress() noexcept = 0;

  /// Whether the run was asked to stop (SIGINT, SIGTERM): the loop checks it between
  /// executions and ends the cell as interrupted. Lock-free.
  /// By default: whether this process received SIGINT or SIGTERM (util/interrupt.hpp).
  virtual bool stop_requested() const noexcept;
};

/// The watch of a loop that nobody supervises: ignores everything.
ExecutionWatch& no_watch();

/// Adds the simulated thread and step in flight to `note`, when an execution is running.
void note_position(nlohmann::json& note);

}  // namespace syncstress::scenarios
