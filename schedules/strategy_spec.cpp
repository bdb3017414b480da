#include "schedules/strategy_spec.hpp"

#include "schedules/schedule_codec.hpp"

namespace syncstress {

std::vector<StrategyInfo> all_strategies() {
  std::vector<StrategyInfo> out;
  for (const auto& catalog :
       {strategy_catalog(), relacy_strategy_catalog(), stress_strategy_catalog()}) {
    out.insert(out.end(), catalog.begin(), catalog.end());
  }
  return out;
}

StrategySpec parse_strategy_spec(std::string_view description) {
  const auto [name, params] = parse_strategy_description(description);
  return make_strategy_spec(name, params);
}

StrategySpec make_strategy_spec(std::string_view name, const StrategyParams& params) {
  if (is_relacy_strategy(name)) return make_relacy_search(name, params);
  if (is_stress_strategy(name)) return make_stress_search(params);
  return parse_sim_strategy(name, params);
}

std::string describe(const StrategySpec& spec) {
  return std::visit([](const auto& s) { return s.describe(); }, spec);
}

bool takes_seed(const StrategySpec& spec) {
  return std::visit([](const auto& s) { return s.takes_seed(); }, spec);
}

Splitting splitting_of(const StrategySpec& spec) {
  if (const auto* sim = std::get_if<SimStrategySpec>(&spec)) {
    return sim->splits_by_prefix() ? Splitting::by_prefix : Splitting::by_number;
  }
  if (const auto* relacy = std::get_if<RelacySearch>(&spec); relacy && relacy->takes_seed()) {
    return Splitting::by_number;
  }
  return Splitting::none;
}

bool splits_by_prefix(const StrategySpec& spec) {
  return splitting_of(spec) == Splitting::by_prefix;
}

bool split_repeats_work(const StrategySpec& spec) {
  const auto* sim = std::get_if<SimStrategySpec>(&spec);
  const ExhaustiveParams* exhaustive = sim != nullptr ? sim->exhaustive() : nullptr;
  return exhaustive != nullptr && exhaustive->split_repeats_work();
}

std::uint64_t shard_executions(const StrategySpec& spec, Shard shard, std::uint64_t executions) {
  if (const auto* sim = std::get_if<SimStrategySpec>(&spec)) {
    return sim->shard_executions(shard, executions);
  }
  const auto [first, end] = shard.range(executions);
  return end - first;
}

std::string shardable_strategy_names() {
  std::string out;
  for (const auto& info : all_strategies()) {
    if (splitting_of(make_strategy_spec(info.name, {})) == Splitting::none) continue;
    out += out.empty() ? "" : ", ";
    out += info.name;
  }
  return out;
}

std::string seeded_strategy_names() {
  std::string out;
  for (const auto& info : all_strategies()) {
    if (!takes_seed(make_strategy_spec(info.name, {}))) continue;
    out += out.empty() ? "" : ", ";
    out += info.name;
  }
  return out;
}

RecordedSchedule parse_schedule_string(std::string_view text) {
  if (is_relacy_schedule_string(text)) {
    try {
      return parse_relacy_schedule_string(text);
    } catch (const StrategyError& e) {
      throw ScheduleFormatError(e.what());
    }
  }
  return decode(text);
}

}  // namespace syncstress
