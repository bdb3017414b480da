// The Strategy: who chooses the next step of an execution on the deterministic runtime.
//
// As small as Shuttle's Scheduler: start an execution, pick the next thread, draw a number. All
// randomness in the tool flows through here; the runtime records every answer (the schedule)
// so the replay strategy can give the same answers again. What an execution is (its seed,
// whether it explores faults, who watches its steps) is the value new_execution returns; what a
// search adds (depth, preemptions, checkpoint, resume, reduction) is ExhaustiveSearch's
// (exhaustive_search.hpp); what a reducing search sees of each step is StepObserver's
// (step_observer.hpp); how a strategy prints is its parameters' (sim_strategy_spec.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "schedules/rng.hpp"
#include "schedules/schedule.hpp"
#include "schedules/sim_strategy_spec.hpp"

namespace syncstress {

/// A simulated thread's id: 0 is the execution's main thread, then in spawn order.
using ThreadId = std::uint32_t;

class StepObserver;

/// The generator every answer of an execution is drawn from, and the record each answer is
/// appended to (null: none); see Execution::draws.
struct UniformDraws {
  Xoshiro256* rng = nullptr;
  std::vector<Choice>* record = nullptr;
};

/// An execution a strategy has started, as Strategy::new_execution returns it: what the
/// runtime and the cell need to know of it, fixed until the next new_execution().
struct Execution {
  /// Who chose its answers, as a schedule string names it ("pct:d=3,k=57", a portfolio's
  /// member, never the portfolio): running that strategy seeded `seed` regenerates this
  /// execution as its first one. None where a schedule names it already (a replay) or where
  /// nothing could regenerate it (the tests' fixed policies).
  std::optional<SimStrategySpec> producer{};
  /// The seed it draws from; 0 for strategies that draw nothing at random.
  std::uint64_t seed = 0;
  /// Whether it explores faults: spurious wake-ups of platform waits and spurious failures of
  /// compare_exchange_weak, where the cell allows them (sim::Options::offer_*). Part of the
  /// producer's description (",faults=on"), so a replay asks the same questions.
  bool faults = false;
  /// Whether it runs under the reducing search's rules for what the runtime offers: a spurious
  /// wake-up or a timeout as a step of the waiting thread (next_thread), and only where it can
  /// lead somewhere new (sim's Engine::offers_spurious). Part of the
  /// producer's description (exhaustive with its reduction), so a replay or a shrink asks the
  /// same questions.
  bool reduced = false;
  /// The memory model its atomics follow (SimStrategySpec::memory): under c11 a load asks
  /// next_u64 which store it reads when it may read more than one. Part of the producer's
  /// description (",memory=c11"), so a replay asks the same questions.
  MemoryModel memory = MemoryModel::sc;
  /// False for an execution that another shard owns: an exhaustive search runs it only to walk
  /// the top of its tree (schedules/shard.hpp); the cell neither counts nor judges it.
  bool counts = true;
  /// The runtime's fast path for a strategy fixed for a whole execution: when every answer is
  /// a uniform draw from one generator (next_thread answering rng.below(runnable.size()),
  /// next_u64 rng.below(bound)) and nothing else happens per answer, that generator, plus where
  /// a recorder keeps the answers ({kThread|kNumber, value, bound} each). The runtime then
  /// draws and records the same answers itself, without virtual calls per scheduling decision.
  /// No generator: ask next_thread and next_u64.
  UniformDraws draws{};
  /// Told of every step and the objects it touched (a reducing search; a shard of a search,
  /// which cuts another shard's prefix where it ends); null: nobody, and the runtime does not
  /// collect them.
  StepObserver* steps = nullptr;
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  /// Starts the next execution and says what it is. Nothing when the strategy has nothing
  /// left to try (an exhaustive search is complete, a replay was used once); random strategies
  /// never stop.
  virtual std::optional<Execution> new_execution() = 0;

  /// Picks the thread that runs the next step. `runnable` is sorted ascending and never empty;
  /// in a reducing search's executions (Execution::reduced) it also holds the blocked threads
  /// whose wait may end now (spuriously or by its timeout), and choosing one ends that wait.
  /// `current` is the thread that just took a step (it may or may not be runnable), and
  /// `current_yielded` is true when that step was a yield (a spin loop asking others to run) or
  /// left the thread blocked. Returns an index into `runnable`.
  virtual std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                  bool current_yielded) = 0;

  /// A number in [0, bound), bound >= 2: which waiter a wake releases, whether a fault is
  /// injected, which queued work item a pool worker takes.
  virtual std::uint64_t next_u64(std::uint64_t bound) = 0;
};

}  // namespace syncstress
