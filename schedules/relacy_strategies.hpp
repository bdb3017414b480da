// The strategies that run on Relacy instead of the deterministic runtime: `relacy-random`,
// `relacy-bound` and `relacy-full` choose the scheduler of the separate syncstress-relacy
// executable, which explores interleavings *and* the C++ memory model (a relaxed load may
// return an older value), where the sim strategies explore interleavings only.
//
// They are not Strategy objects: Relacy owns its scheduler. The Relacy backend hands a cell
// with one of these names to syncstress-relacy in a child process (supervise/relacy_backend.hpp);
// strategy_spec.hpp tells these names from the sim ones.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "schedules/strategy_factory.hpp"

namespace syncstress {

/// What syncstress-relacy needs to know about the search.
struct RelacySearch {
  std::string scheduler;            ///< "random", "bound" or "full" (Relacy's three)
  std::uint64_t context_bound = 1;  ///< bound: preemptions explored per execution
};

/// relacy-random, relacy-bound, relacy-full, in the order `list schedules` prints them.
std::span<const StrategyInfo> relacy_strategy_catalog();

/// Whether `name` is one of them.
bool is_relacy_strategy(std::string_view name);

/// The search `name` with `params` asks for. Throws StrategyError for an unknown name or
/// parameter, or a value out of range, naming the valid ones.
RelacySearch make_relacy_search(std::string_view name, const StrategyParams& params);

/// How a cell's schedule column spells a Relacy search: "relacy-bound:bound=2".
std::string describe(const RelacySearch& search);

/// One failing Relacy execution: what syncstress-relacy's replay needs.
struct RelacySchedule {
  std::string scheduler;  ///< "random", "bound" or "full"
  std::string state;      ///< Relacy's own state string, "<iteration> <scheduler state> "
};

/// A failing Relacy execution as a schedule string, and back. Relacy's own state string
/// ("<iteration> <scheduler state>") is kept whole, its spaces as '_':
/// rl1.<scheduler>.<state>. parse throws StrategyError for anything else.
std::string relacy_schedule_string(const std::string& scheduler, const std::string& state);
bool is_relacy_schedule_string(std::string_view text);
RelacySchedule parse_relacy_schedule_string(std::string_view text);

}  // namespace syncstress
