// The random strategy: every choice uniform, from a seeded xoshiro256**.
#pragma once

#include <cstdint>

#include "schedules/rng.hpp"
#include "schedules/strategy.hpp"
#include "schedules/strategy_factory.hpp"

namespace syncstress {

/// Picks uniformly among runnable threads and numbers. Execution i of a run seeded S draws
/// from derive_execution_seed(S, i), so each execution stands alone given its own seed.
class RandomStrategy final : public Strategy {
 public:
  /// A run whose first execution uses `seed` itself; `faults`: every execution explores
  /// faults (Strategy::explore_faults).
  explicit RandomStrategy(std::uint64_t seed, bool faults = false)
      : run_seed_(seed), faults_(faults), rng_(seed) {}

  /// Reseeds for the next execution; never runs out.
  bool new_execution() override;
  /// The next execution is the run's execution `index` (a shard's first).
  void start_at(std::uint64_t index) override { executions_ = index; }
  /// Starts an execution drawing from `seed` (what new_execution does with the next derived
  /// seed; a portfolio gives its own).
  void begin_execution(std::uint64_t seed);
  /// A uniform index into `runnable`.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// A uniform number in [0, bound).
  std::uint64_t next_u64(std::uint64_t bound) override;
  /// "random", or "random:faults=on".
  std::string describe() const override { return RandomParams{faults_}.describe(); }
  /// The seed of the execution in progress.
  std::uint64_t execution_seed() const override { return execution_seed_; }
  /// As constructed.
  bool explore_faults() const override { return faults_; }
  /// Every answer is a uniform draw from the execution's generator.
  UniformDraws uniform_draws() override { return {&rng_, nullptr}; }

 private:
  std::uint64_t run_seed_;
  bool faults_;
  std::uint64_t executions_ = 0;  // executions started so far
  std::uint64_t execution_seed_ = 0;
  Xoshiro256 rng_;
};

}  // namespace syncstress
