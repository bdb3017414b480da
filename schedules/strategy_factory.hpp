// Strategies by name, for the CLI: `--schedule pct --schedule-param d=3`, and
// `syncstress list schedules`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "schedules/shard.hpp"
#include "schedules/sim_strategy_spec.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// A parameter name and its value as text, e.g. {"d", "3"}.
using StrategyParams = std::map<std::string, std::string, std::less<>>;

/// One parameter a strategy accepts.
struct StrategyParamInfo {
  std::string_view name;           ///< e.g. "d"
  std::string_view default_value;  ///< as text; "none" when absent means unbounded
  std::string_view summary;        ///< one line
};

/// One strategy make_strategy() can build.
struct StrategyInfo {
  std::string_view name;     ///< e.g. "pct"
  std::string_view summary;  ///< one line
  std::span<const StrategyParamInfo> params;
};

/// A name, parameter or value the user gave is not valid; what() lists the valid choices.
class StrategyError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The strategy `name` with `params`, checked. Throws StrategyError for an unknown name
/// (listing the valid ones), an unknown parameter (listing that strategy's), or a value that
/// does not parse or is out of range.
SimStrategySpec parse_sim_strategy(std::string_view name, const StrategyParams& params = {});

/// Every strategy make_strategy() knows, in the order `list schedules` prints them.
std::span<const StrategyInfo> strategy_catalog();

/// parse_sim_strategy(name, params).make(seed, shard).
std::unique_ptr<Strategy> make_strategy(std::string_view name, std::uint64_t seed,
                                        const StrategyParams& params = {}, Shard shard = {});

/// Splits a description as SimStrategySpec::describe() writes it ("pct:d=3,k=400", a schedule's
/// producer) into a name and parameters. Throws StrategyError when a parameter has no '='.
std::pair<std::string, StrategyParams> parse_strategy_description(std::string_view description);

/// Whether a description as SimStrategySpec::describe() writes it has the parameter faults=on
/// ("random:faults=on", "pct:d=3,k=40,faults=on"); false for one that does not parse.
bool describes_faults(std::string_view description);

/// Whether a description as SimStrategySpec::describe() writes it is the exhaustive search with
/// its reduction ("exhaustive", "exhaustive:preemptions=2"), whose executions follow
/// Execution::reduced; false for any other, or one that does not parse.
bool describes_reduced_search(std::string_view description);

/// The memory model a description as SimStrategySpec::describe() writes it names
/// ("...,memory=c11"); sc for one that names none or does not parse.
MemoryModel described_memory(std::string_view description);

/// make_strategy() from a description and seed. For random and pct this regenerates the
/// execution a schedule was recorded from (it is the new strategy's first execution) without
/// its choices; round-robin has one execution anyway; exhaustive starts its search over.
std::unique_ptr<Strategy> make_strategy_from_description(std::string_view description,
                                                         std::uint64_t seed);

}  // namespace syncstress
