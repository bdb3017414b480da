// The strategy that runs on real OS threads instead of a simulated scheduler: `stress`. Nothing
// chooses the interleavings; the kernel and the hardware do, widened by seeded noise at every
// Platform operation (a pause spin, sched_yield, a short sleep). A trial is not replayable step
// by step: a finding names the trial's seed (its noise) and the sim command to try next.
//
// Like the Relacy searches it is not a Strategy object; strategy_spec.hpp tells its name from the
// others and the stress backend (supervise/) runs it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "schedules/strategy_factory.hpp"

namespace syncstress {

/// How much noise the stress trials add at each Platform operation.
enum class StressNoise : std::uint8_t { off, low, high };

/// "off", "low", "high".
std::string_view to_string(StressNoise noise);

/// What a stress run needs to know: how many threads, how much noise, whether to inject the
/// faults the standard allows (spurious wake-ups, weak-CAS failures), how the families' repeat
/// counts scale up, and the two wall-clock bounds of its judgement.
struct StressSearch {
  std::uint64_t threads = 0;  ///< actors per trial; 0: the machine's cores times two
  StressNoise noise = StressNoise::low;
  bool faults = true;
  std::uint64_t scale = 50;  ///< the families' repeat counts (rounds, items...) times this
  /// A sync waiter counts as queued this long after it arrived (the doorway it may be
  /// preempted in is invisible from outside the primitive): FIFO and bypass judgements.
  std::uint64_t settle_ms = 20;
  /// A claimed starvation freedom fails when one wait of a victim lasts longer than this.
  std::uint64_t max_wait_ms = 2000;
  /// No trial started or ended for this long: the cell is a hang.
  std::uint64_t stall_seconds = 10;
  /// history=ring: each thread keeps its last 16 operations for crash and hang reports, where
  /// by default it keeps its last one (one store per operation instead of three).
  bool ring = false;

  /// How a cell's schedule column spells it: "stress:threads=4,noise=low,faults=on" (threads
  /// as resolved when `resolved_threads` is not 0).
  std::string describe(std::uint64_t resolved_threads = 0) const;
  /// Its trials' noise is drawn from the seed.
  bool takes_seed() const { return true; }
};

/// The one entry, `stress`, for `list schedules`.
std::span<const StrategyInfo> stress_strategy_catalog();

/// Whether `name` is `stress`.
bool is_stress_strategy(std::string_view name);

/// The stress run `params` ask for. Throws StrategyError for an unknown parameter or a value
/// out of range, naming the valid ones.
StressSearch make_stress_search(const StrategyParams& params);

/// The default thread count: the machine's cores times two (at least 2).
std::uint64_t default_stress_threads();

}  // namespace syncstress
