// The Strategy: who chooses the next step of an execution on the deterministic runtime.
//
// Kept as small as Shuttle's: start an execution, pick the next thread, draw a number. All
// randomness in the tool flows through here; the runtime records every answer (the schedule)
// so the replay strategy can give the same answers again.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace syncstress {

/// A simulated thread's id: 0 is the execution's main thread, then in spawn order.
using ThreadId = std::uint32_t;

class Strategy {
 public:
  virtual ~Strategy() = default;

  /// Prepares the next execution. Returns false when the strategy has nothing left to try
  /// (an exhaustive search is complete, a replay was used once); random strategies never stop.
  virtual bool new_execution() = 0;

  /// Picks the thread that runs the next step. `runnable` is sorted ascending and never empty;
  /// `current` is the thread that just took a step (it may or may not be runnable), and
  /// `current_yielded` is true when that step was a yield (a spin loop asking others to run).
  /// Returns an index into `runnable`.
  virtual std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                  bool current_yielded) = 0;

  /// A number in [0, bound), bound >= 2: which waiter a wake releases, whether a fault is
  /// injected, which queued work item a pool worker takes.
  virtual std::uint64_t next_u64(std::uint64_t bound) = 0;

  /// The strategy's name and parameters as the schedule codec writes them, e.g.
  /// "pct:d=3,k=400" or "random"; the seed is kept separately. Only lower-case letters,
  /// digits and `-:=,` so the codec can carry it without quoting.
  virtual std::string describe() const = 0;

  /// The seed of the current execution: running the strategy named by describe() with this
  /// seed regenerates this execution as its first one. 0 for strategies that draw nothing
  /// at random (round-robin, exhaustive). Added after the first four members; not pure so
  /// deterministic strategies need not override it.
  virtual std::uint64_t execution_seed() const { return 0; }

  /// Whether the current execution explores faults: spurious wake-ups of platform waits and
  /// spurious failures of compare_exchange_weak, where the cell allows them
  /// (sim::Options::offer_faults). Part of describe() (",faults=on") so a replay asks the same
  /// questions. Not pure, for the same reason as execution_seed().
  virtual bool explore_faults() const { return false; }
};

}  // namespace syncstress
