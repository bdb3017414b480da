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
#include <vector>

#include "schedules/rng.hpp"
#include "schedules/schedule.hpp"

namespace syncstress {

/// A simulated thread's id: 0 is the execution's main thread, then in spawn order.
using ThreadId = std::uint32_t;

/// A shared object a step touched, as a reducing search sees it. `object` names the same
/// object in every execution that shares the prefix which created it (the runtime numbers
/// objects by creating thread and creation order, not by address); `write` is false for an
/// access that changes nothing (a load, a failed compare-exchange, a wait that returned
/// because the value differed). Two steps of different threads are dependent when they touch
/// the same object and one of them writes.
struct Access {
  std::uint64_t object = 0;
  bool write = true;
};

/// What Strategy::uniform_draws offers: the generator every answer of the current execution is
/// drawn from, and the record each answer is appended to (null: none).
struct UniformDraws {
  Xoshiro256* rng = nullptr;
  std::vector<Choice>* record = nullptr;
};

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
  /// at random (round-robin, exhaustive). Not pure: deterministic strategies need not
  /// override it.
  virtual std::uint64_t execution_seed() const { return 0; }

  /// Whether the current execution explores faults: spurious wake-ups of platform waits and
  /// spurious failures of compare_exchange_weak, where the cell allows them
  /// (sim::Options::offer_faults). Part of describe() (",faults=on") so a replay asks the same
  /// questions. Not pure, for the same reason as execution_seed().
  virtual bool explore_faults() const { return false; }

  /// Whether the runtime reports every step through step_taken (a partial-order reduction
  /// needs them; other strategies do not pay for them). Asked once per execution.
  virtual bool observes_steps() const { return false; }

  /// Only when observes_steps(): the step `thread` just took and the objects it touched, at
  /// every scheduling point (with any number of runnable threads, before next_thread would be
  /// asked). Returns false to end the execution here, unreported (ExecutionResult's outcome
  /// `pruned`): a reduction has proven that every continuation is equivalent to one already
  /// explored.
  virtual bool step_taken(ThreadId thread, std::span<const Access> accesses,
                          std::span<const ThreadId> runnable) {
    (void)thread;
    (void)accesses;
    (void)runnable;
    return true;
  }

  /// A shard of a seeded strategy starts here: the next execution is the run's execution number
  /// `index` (0-based), as if `index` executions had come before it (schedules/shard.hpp). PCT
  /// measures its k anew from there. Strategies that draw nothing at random ignore it.
  virtual void start_at(std::uint64_t index) { (void)index; }

  /// False for an execution that another shard owns: an exhaustive search ran it only to walk
  /// the top of its tree (schedules/shard.hpp); the cell neither counts nor judges it.
  virtual bool execution_counts() const { return true; }

  /// Only when observes_steps(): the execution ends inside a step of `thread` (a failed check,
  /// an exception), whose accesses so far are `accesses`; `runnable` are the threads that could
  /// still have run. Their next steps are never seen, which a reduction must allow for.
  virtual void last_step(ThreadId thread, std::span<const Access> accesses,
                         std::span<const ThreadId> runnable) {
    (void)thread;
    (void)accesses;
    (void)runnable;
  }

  /// The runtime's fast path for a strategy fixed for a whole search: when every answer of the
  /// current execution is a uniform draw from one generator (next_thread answering
  /// rng.below(runnable.size()), next_u64 rng.below(bound)) and nothing else happens per
  /// answer, that generator, plus where a recorder keeps the answers ({kThread|kNumber, value,
  /// bound} each). The runtime then draws and records the same answers itself, without virtual
  /// calls per scheduling decision. Asked once per execution, after new_execution(); the
  /// default, no generator, means: ask next_thread and next_u64.
  virtual UniformDraws uniform_draws() { return {}; }
};

}  // namespace syncstress
