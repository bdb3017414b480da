// Strategies by name, for the CLI: `--schedule pct --schedule-param d=3`, and
// `syncstress list schedules`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "schedules/exhaustive_search.hpp"
#include "schedules/shard.hpp"
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

/// The sim strategies, parsed: one parameter struct each. What a strategy can do (take a seed,
/// split by prefix, print itself) is a member of SimStrategySpec, never a name compared.
struct PortfolioParams {
  /// As given (printed back as given): the PCT members' ceiling on k, and whether odd rounds
  /// explore faults; unset means the defaults, 100000 and on.
  std::optional<std::uint64_t> k;
  std::optional<bool> faults;
  /// "portfolio", then the parameters given: "portfolio:faults=off,k=400".
  std::string describe() const;
};
struct RandomParams {
  bool faults = false;
  std::string describe() const;  ///< "random" or "random:faults=on"
};
struct PctParams {
  std::uint32_t d = 3;
  std::uint64_t k = 100000;
  bool faults = false;
  std::string describe() const;  ///< "pct:d=3,k=400", ",faults=on" when on
};
struct RoundRobinParams {
  std::string describe() const;  ///< "round-robin"
};
struct ExhaustiveParams {
  std::optional<std::uint32_t> preemptions;  ///< unset: unbounded
  bool reduce = true;                        ///< reduction=dpor (else none)
  /// "exhaustive", then preemptions=<p> when bounded and reduction=none without the reduction.
  std::string describe() const;
};

/// One sim strategy with its checked parameters.
struct SimStrategySpec {
  std::variant<PortfolioParams, RandomParams, PctParams, RoundRobinParams, ExhaustiveParams> as;

  /// A fresh strategy seeded with `seed` (ignored by the deterministic ones). For a shard of
  /// `executions` planned executions: an exhaustive search takes its prefixes; any other
  /// strategy starts at the shard's first execution (see shard_executions).
  std::unique_ptr<Strategy> make(std::uint64_t seed, Shard shard = {},
                                 std::uint64_t executions = 0) const;
  /// The exhaustive search, as shard `shard`; null for a strategy that is not one.
  std::unique_ptr<ExhaustiveSearch> make_search(Shard shard = {}) const;
  /// The executions a shard plans of `executions`: its range for a strategy that splits by
  /// execution number, all of them (a cap) for an exhaustive search.
  std::uint64_t shard_executions(Shard shard, std::uint64_t executions) const;
  /// How a report's schedule column spells it (the alternative's describe()).
  std::string describe() const;
  /// portfolio, random and pct draw their executions from the seed.
  bool takes_seed() const;
  /// The exhaustive searches split their choice tree by prefix, the others by execution number.
  bool splits_by_prefix() const { return exhaustive() != nullptr; }
  /// The exhaustive search's parameters, or null.
  const ExhaustiveParams* exhaustive() const { return std::get_if<ExhaustiveParams>(&as); }
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

/// Splits a description as Strategy::describe() writes it ("pct:d=3,k=400") into a name and
/// parameters. Throws StrategyError when a parameter has no '='.
std::pair<std::string, StrategyParams> parse_strategy_description(std::string_view description);

/// Whether a description as Strategy::describe() writes it has the parameter faults=on
/// ("random:faults=on", "pct:d=3,k=40,faults=on"); false for one that does not parse.
bool describes_faults(std::string_view description);

/// make_strategy() from a description and seed. For random and pct this regenerates the
/// execution a schedule was recorded from (it is the new strategy's first execution) without
/// its choices; round-robin has one execution anyway; exhaustive starts its search over.
std::unique_ptr<Strategy> make_strategy_from_description(std::string_view description,
                                                         std::uint64_t seed);

}  // namespace syncstress
