// The strategies that run on Relacy instead of the deterministic runtime: `relacy-random`,
// `relacy-bound` and `relacy-full` choose the scheduler of the separate syncstress-relacy
// executable, which explores interleavings *and* the C++ memory model (a relaxed load may
// return an older value), where the sim strategies explore interleavings only.
//
// They are not Strategy objects: Relacy owns its scheduler. The Relacy backend hands a cell
// with one of these names to syncstress-relacy in a child process
// (src/backends/relacy/backend.cpp); strategy_spec.hpp tells these names from the sim ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "schedules/strategy_factory.hpp"

namespace syncstress {

/// Relacy's three schedulers.
enum class RelacyScheduler { random, bound, full };

/// "random", "bound", "full": as syncstress-relacy's --search and schedule strings spell them.
std::string_view to_string(RelacyScheduler scheduler);

/// The scheduler `name` spells, or nothing.
std::optional<RelacyScheduler> parse_relacy_scheduler(std::string_view name);

/// What syncstress-relacy needs to know about the search.
struct RelacySearch {
  RelacyScheduler scheduler = RelacyScheduler::random;
  std::uint64_t context_bound = 1;  ///< bound: preemptions explored per execution

  /// How a cell's schedule column spells it: "relacy-bound:bound=2".
  std::string describe() const;
  /// The random scheduler seeds iteration i with i: --seed is its first iteration, and a run
  /// splits into shards and resumes by iteration number. The searches do neither.
  bool takes_seed() const { return scheduler == RelacyScheduler::random; }
};

/// relacy-random, relacy-bound, relacy-full, in the order `list schedules` prints them.
std::span<const StrategyInfo> relacy_strategy_catalog();

/// Whether `name` is one of them.
bool is_relacy_strategy(std::string_view name);

/// The search `name` with `params` asks for. Throws StrategyError for an unknown name or
/// parameter, or a value out of range, naming the valid ones.
RelacySearch make_relacy_search(std::string_view name, const StrategyParams& params);

/// One failing Relacy execution: what syncstress-relacy's replay needs.
struct RelacySchedule {
  RelacyScheduler scheduler = RelacyScheduler::random;
  std::string state;  ///< Relacy's own state string, "<iteration> <scheduler state> "
};

/// A failing Relacy execution as a schedule string, and back. Relacy's own state string
/// ("<iteration> <scheduler state>") is kept whole, its spaces as '_':
/// rl1.<scheduler>.<state>. parse throws StrategyError for anything else, including a state
/// check_relacy_state refuses.
std::string relacy_schedule_string(RelacyScheduler scheduler, const std::string& state);
bool is_relacy_schedule_string(std::string_view text);
RelacySchedule parse_relacy_schedule_string(std::string_view text);

/// Checks Relacy's state string `state` of `scheduler` whole, and
/// returns the iteration it names. Each number is followed by one space. The random scheduler's
/// state is the iteration alone (it seeds the iteration with its number); the bound and full
/// ones' adds their path through the search tree: a node count n, then n nodes of three numbers,
/// "<count> <index> <kind>" (count >= 1, index < count, kind one of Relacy's five sched_type
/// values). Relacy numbers iterations from 1 and reads the counts as 32-bit unsigned numbers.
/// A state longer than kMaxRelacyState characters is refused: it travels to syncstress-relacy as
/// one argument, which Linux caps at 128 KiB. Throws StrategyError saying what is wrong.
std::uint64_t check_relacy_state(RelacyScheduler scheduler, std::string_view state);

/// The longest Relacy state string the tool takes (see check_relacy_state).
inline constexpr std::size_t kMaxRelacyState = 100'000;

}  // namespace syncstress
