// The random strategy: every choice uniform, from a seeded xoshiro256**.
#pragma once

#include <cstdint>

#include "schedules/rng.hpp"
#include "schedules/sim_strategy_spec.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// Picks uniformly among runnable threads and numbers. Execution i of a run seeded S draws
/// from derive_execution_seed(S, i), so each execution stands alone given its own seed.
class RandomStrategy final : public Strategy {
 public:
  /// A run whose first execution uses `seed` itself; `faults`: every execution explores
  /// faults (Execution::faults). The first execution is the run's execution `first` (a
  /// shard's or a resumed run's first).
  explicit RandomStrategy(std::uint64_t seed, bool faults = false, std::uint64_t first = 0)
      : run_seed_(seed), faults_(faults), executions_(first), rng_(seed) {}

  /// Reseeds for the next execution; never runs out. Its answers are uniform draws from the
  /// execution's generator (Execution::draws).
  std::optional<Execution> new_execution() override;
  /// Starts an execution drawing from `seed` (what new_execution does with the next derived
  /// seed; a portfolio gives its own).
  Execution begin_execution(std::uint64_t seed);
  /// A uniform index into `runnable`.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// A uniform number in [0, bound).
  std::uint64_t next_u64(std::uint64_t bound) override;

 private:
  std::uint64_t run_seed_;
  bool faults_;
  std::uint64_t executions_;  // the run's number of the next execution
  Xoshiro256 rng_;
};

}  // namespace syncstress
