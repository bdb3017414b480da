// PCT, the probabilistic concurrency testing scheduler of Burckhardt, Kothari, Musuvathi and
// Nagarakatte, "A Randomized Scheduler with Probabilistic Guarantees of Finding Bugs"
// (ASPLOS 2010).
//
// Each thread gets a random distinct priority >= d when it first appears (a uniform random
// permutation of the threads that exist); d-1 change points are drawn uniformly from [1, k];
// the highest-priority runnable thread always runs, and at the i-th change point the thread
// about to run drops to priority d-i: below every initial priority and below every thread an
// earlier change point dropped. That last order is what a bug of depth d needs: with two
// threads A and B and the bug "A runs to a, then B to b, then A on past a'", the first change
// point drops A so B runs, the second drops B, and B must now rank below A, not above it (the
// reverse order finds no bug of depth 3 between two threads: tests/schedules_pct_power_test.cpp
// checks the one used here does). For a program with n threads and k steps, a bug of depth d
// is found in one execution with probability at least 1/(n k^(d-1)).
//
// Deviations, and why:
// - A step is one next_thread call (the runtime asks only when two or more threads can run),
//   so k counts scheduling decisions, not instructions: a smaller k, a better bound.
// - k is measured, not guessed: the parameter is a ceiling. The first execution of a run uses
//   the ceiling (nothing is known yet; change points past the end only make it a plain
//   priority schedule), every later one the longest execution seen so far in the run, capped
//   by the ceiling. A portfolio (portfolio_strategy.hpp) passes its own measurement.
// - A thread whose last step was a yield drops below every other thread (a fresh lowest
//   priority, not counted as a change point). Pure priority scheduling would otherwise run a
//   spin loop forever while the thread it waits for never gets a step.
#pragma once

#include <cstdint>
#include <vector>

#include "schedules/rng.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// The PCT scheduler; see the file comment.
class PctStrategy final : public Strategy {
 public:
  /// `depth` (d >= 1) is the bug depth aimed at; `steps` (k >= 1) the ceiling on k, and the
  /// first execution's k. Execution 0 uses `seed` itself. `faults`: every execution explores
  /// faults (Execution::faults). The first execution is the run's execution `first` (a shard's
  /// or a resumed run's first), which measures k anew.
  PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps, bool faults = false,
              std::uint64_t first = 0);

  /// Reseeds, adapts k, draws the change points; never runs out. The execution names itself
  /// "pct:d=<d>,k=<its k>", then ",faults=on" if so.
  std::optional<Execution> new_execution() override;
  /// Starts an execution drawing from `seed` with k = min(ceiling, `measured`) (the ceiling
  /// when `measured` is 0): what new_execution does with the next derived seed and the
  /// longest execution of this run; a portfolio gives its own.
  Execution begin_execution(std::uint64_t seed, std::uint64_t measured);
  /// The highest-priority runnable thread, after applying a change point or a yield.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// A uniform number in [0, bound).
  std::uint64_t next_u64(std::uint64_t bound) override;

  /// The change points of the current execution, ascending, each in [1, k].
  const std::vector<std::uint64_t>& change_points() const { return change_points_; }

 private:
  static constexpr std::int64_t kUnseen = INT64_MIN;

  void meet(ThreadId t);  // gives a newly seen thread its random initial priority
  void lower(ThreadId t, std::int64_t priority);

  std::uint64_t run_seed_;
  std::uint32_t depth_;
  std::uint64_t k_ceiling_;
  bool faults_;
  std::uint64_t executions_;   // the run's number of the next execution
  std::uint64_t longest_ = 0;  // most decisions any finished execution of this run took
  std::uint64_t k_ = 0;
  Xoshiro256 rng_;

  // Per execution.
  std::vector<std::int64_t> priority_;        // by ThreadId; kUnseen before first sight
  std::vector<ThreadId> initial_order_;       // threads still at initial priority, highest first
  std::vector<std::uint64_t> change_points_;  // ascending
  std::size_t next_change_ = 0;               // index of the next change point not yet reached
  std::uint64_t steps_ = 0;                   // next_thread calls so far
  std::int64_t next_yield_priority_ = -1;     // below every change-point priority, decreasing
};

}  // namespace syncstress
