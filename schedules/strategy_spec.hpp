// Where a strategy runs, decided once: `--schedule` (or a preset's schedule) parsed and checked
// into a typed value whose alternative says where it runs, and a recorded schedule string
// decoded into one that says where it replays. This file and the two catalogues it reads
// (strategy_factory.hpp for the sim runtime, relacy_strategies.hpp for syncstress-relacy) are
// the only code that knows which names run where: everything above dispatches on the variant.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "schedules/relacy_strategies.hpp"
#include "schedules/schedule.hpp"
#include "schedules/shard.hpp"
#include "schedules/strategy.hpp"
#include "schedules/strategy_factory.hpp"
#include "schedules/stress_strategy.hpp"

namespace syncstress {

/// A strategy, parsed once: on the sim runtime, a search in syncstress-relacy, or trials on
/// real threads.
using StrategySpec = std::variant<SimStrategySpec, RelacySearch, StressSearch>;

/// Every strategy a StrategySpec can name: the sim ones, then Relacy's, then stress, in the order
/// `list schedules` prints them.
std::vector<StrategyInfo> all_strategies();

/// Parses "pct" or "pct:d=3,k=400" and checks the name and every parameter. Throws
/// StrategyError (its what() lists the valid choices).
StrategySpec parse_strategy_spec(std::string_view description);

/// The same from a name and its parameters, as a preset's "schedule" object gives them.
StrategySpec make_strategy_spec(std::string_view name, const StrategyParams& params);

/// How the schedule column of a report spells `spec` ("pct:d=3,k=1000", "relacy-random").
std::string describe(const StrategySpec& spec);

/// Whether `spec` takes a seed: portfolio, random and pct (the first execution's),
/// relacy-random (its first iteration), stress (its trials' noise). The searches (exhaustive,
/// relacy-bound, relacy-full) and round-robin run the same executions whatever the seed.
bool takes_seed(const StrategySpec& spec);

/// How a strategy's executions divide between shards (schedules/shard.hpp), which is also how a
/// cell cut short goes on (`run --resume`): by prefix of one search tree (exhaustive: every
/// shard plans the run's whole cap, a position is the search's checkpoint), by execution number
/// (the seeded and round-robin sim strategies, relacy-random: a position is the next execution's
/// number), or not at all (Relacy's tree searches, stress trials).
enum class Splitting { by_prefix, by_number, none };
Splitting splitting_of(const StrategySpec& spec);
/// Whether `spec` splits by prefix.
bool splits_by_prefix(const StrategySpec& spec);
/// Whether `spec`'s shards together repeat work its whole run does once
/// (ExhaustiveParams::split_repeats_work).
bool split_repeats_work(const StrategySpec& spec);
/// The executions shard `shard` of a run planning `executions` plans under `spec`.
std::uint64_t shard_executions(const StrategySpec& spec, Shard shard, std::uint64_t executions);
/// The strategies that split into shards, comma-separated in catalogue order.
std::string shardable_strategy_names();

/// The strategies that take a seed, comma-separated in catalogue order: "random, pct, ...".
std::string seeded_strategy_names();

/// The schedule string of one recorded execution, decoded: a sim schedule (ss1....) or a
/// Relacy state (rl1....).
using RecordedSchedule = std::variant<Schedule, RelacySchedule>;

/// Decodes `text`. Throws ScheduleFormatError saying what is wrong with it.
RecordedSchedule parse_schedule_string(std::string_view text);

}  // namespace syncstress
