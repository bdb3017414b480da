// The portfolio: the presets' default. No single strategy finds every bug soonest: uniform
// random does well on bugs that many interleavings show, PCT on bugs that need a few switches
// at exact points of a long run, and some bugs show only when a platform wait returns
// spuriously or compare_exchange_weak fails (faults). Shuttle and Coyote answer with a
// portfolio; so does this strategy.
//
// Executions take the members in turn under one seed: execution i uses member i mod 4 of
// (random, pct:d=2, pct:d=3, pct:d=5), with faults off in even rounds of four and on in odd
// ones (when faults are on at all), and draws from derive_execution_seed(seed, i). Each
// execution describes itself as the member it used ("pct:d=3,k=57,faults=on") with that
// member's seed, so its schedule string replays and regenerates exactly as if that member had
// been chosen alone: the portfolio never appears in a schedule string. The PCT members share
// one measurement of k, the longest execution of the run so far (in scheduling decisions),
// capped by the ceiling `k`.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "schedules/pct_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// Round-robin over random and PCT at depths 2, 3 and 5, faults off then on; see the file
/// comment.
class PortfolioStrategy final : public Strategy {
 public:
  /// The PCT depths, in member order after random.
  static constexpr std::array<std::uint32_t, 3> kPctDepths{2, 3, 5};
  /// Members: random, then one PCT per depth.
  static constexpr std::uint64_t kMembers = 1 + kPctDepths.size();

  /// `k_ceiling`: the PCT members' ceiling on k. `faults`: whether odd rounds explore faults.
  /// The first execution is the run's execution `first` (a shard's or a resumed run's first).
  PortfolioStrategy(std::uint64_t seed, std::uint64_t k_ceiling, bool faults,
                    std::uint64_t first = 0);
  PortfolioStrategy(const PortfolioStrategy&) = delete;  // member_ points into this object
  PortfolioStrategy& operator=(const PortfolioStrategy&) = delete;

  /// Moves to the next member and starts its execution, which names the member (what a
  /// schedule string records) and its seed; never runs out.
  std::optional<Execution> new_execution() override;
  /// The current member's choice.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// The current member's number.
  std::uint64_t next_u64(std::uint64_t bound) override;

 private:
  std::uint64_t run_seed_;
  bool faults_;
  std::uint64_t executions_;   // the run's number of the next execution
  std::uint64_t longest_ = 0;  // scheduling decisions of the longest finished execution
  std::uint64_t steps_ = 0;    // scheduling decisions of the current one
  // Faults off, then the same members with faults on.
  std::array<RandomStrategy, 2> random_;
  std::array<PctStrategy, 2 * kPctDepths.size()> pct_;
  Strategy* member_;  // the current execution's: one of the above
};

}  // namespace syncstress
