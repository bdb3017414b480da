// The sim strategies, parsed: one parameter struct each, and SimStrategySpec, the closed type
// that holds one of them. What a strategy can do (take a seed, split by prefix, print itself,
// build the strategy that runs it) is a member of SimStrategySpec, never a name compared.
// parse_sim_strategy (strategy_factory.hpp) makes them from a name and its parameters.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "schedules/shard.hpp"

namespace syncstress {

class Strategy;
class ExhaustiveSearch;

struct PortfolioParams {
  /// As given (printed back as given): the PCT members' ceiling on k, and whether odd rounds
  /// explore faults; unset means the defaults, 100000 and on.
  std::optional<std::uint64_t> k{};
  std::optional<bool> faults{};
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
  std::optional<std::uint32_t> preemptions{};  ///< unset: unbounded
  bool reduce = true;                          ///< reduction=dpor (else none)
  /// "exhaustive", then preemptions=<p> when bounded and reduction=none without the reduction.
  std::string describe() const;
  /// Whether its shards together repeat work the whole search does once: the reduced search
  /// under a bound. The top of a split search explores every thread, and under a bound only
  /// the thread that could go on sleeps, and those its step blocked or ended
  /// (schedules/dpor_strategy.hpp), so the extra branches run whole instead of ending at once.
  bool split_repeats_work() const { return reduce && preemptions.has_value(); }
};

/// What sim's atomics do: every operation sequentially consistent (memory=sc, the default), or
/// the C++ memory model, where a load may read a store older than the newest and races on
/// cells are found (memory=c11; src/sim/memory.hpp). A parameter of every sim strategy.
enum class MemoryModel : std::uint8_t { sc, c11 };

/// One sim strategy with its checked parameters.
struct SimStrategySpec {
  std::variant<PortfolioParams, RandomParams, PctParams, RoundRobinParams, ExhaustiveParams> as;
  /// memory= as given; unset: the preset's "memory" (supervise::strategy_for applies it),
  /// else sc.
  std::optional<MemoryModel> memory{};

  /// The memory model its executions run under.
  MemoryModel memory_model() const { return memory.value_or(MemoryModel::sc); }

  /// A fresh strategy seeded with `seed` (ignored by the deterministic ones). For a shard of
  /// `executions` planned executions: an exhaustive search takes its prefixes; any other
  /// strategy starts at the shard's first execution (see shard_executions).
  std::unique_ptr<Strategy> make(std::uint64_t seed, Shard shard = {},
                                 std::uint64_t executions = 0) const;
  /// A fresh strategy seeded with `seed` whose first execution is the run's execution `first`
  /// (0-based), as if `first` executions had come before it: a shard's or a resumed run's first.
  /// PCT measures its k anew from there. The strategies that draw nothing at random ignore it;
  /// an exhaustive search is the whole search (make_search splits one).
  std::unique_ptr<Strategy> make_from(std::uint64_t seed, std::uint64_t first) const;
  /// The exhaustive search, as shard `shard`; null for a strategy that is not one.
  std::unique_ptr<ExhaustiveSearch> make_search(Shard shard = {}) const;
  /// The executions a shard plans of `executions`: its range for a strategy that splits by
  /// execution number, all of them (a cap) for an exhaustive search.
  std::uint64_t shard_executions(Shard shard, std::uint64_t executions) const;
  /// How a report's schedule column and a schedule string spell it: the alternative's
  /// describe(), then ",memory=<model>" (":memory=<model>" after a bare name) when one is set.
  std::string describe() const;
  /// portfolio, random and pct draw their executions from the seed.
  bool takes_seed() const;
  /// The exhaustive searches split their choice tree by prefix, the others by execution number.
  bool splits_by_prefix() const { return exhaustive() != nullptr; }
  /// The exhaustive search's parameters, or null.
  const ExhaustiveParams* exhaustive() const { return std::get_if<ExhaustiveParams>(&as); }
};

}  // namespace syncstress
