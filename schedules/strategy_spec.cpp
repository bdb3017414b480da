#include "schedules/strategy_spec.hpp"

#include "schedules/schedule_codec.hpp"

namespace syncstress {

std::unique_ptr<Strategy> SimStrategySpec::make(std::uint64_t seed, Shard shard,
                                                std::uint64_t executions) const {
  auto out = make_strategy(name, seed, params, shard);
  if (!shard.whole() && !splits_by_prefix()) out->start_at(shard.range(executions).first);
  return out;
}

std::uint64_t SimStrategySpec::shard_executions(Shard shard, std::uint64_t executions) const {
  if (splits_by_prefix()) return executions;
  const auto [first, end] = shard.range(executions);
  return end - first;
}

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
  // Building it once is the only complete check of its parameters; seed 0 is arbitrary.
  make_strategy(name, 0, params);
  return SimStrategySpec{std::string(name), params};
}

std::string describe(const StrategySpec& spec) {
  if (const auto* search = std::get_if<RelacySearch>(&spec)) return describe(*search);
  if (const auto* stress = std::get_if<StressSearch>(&spec)) return describe(*stress);
  const auto& sim = std::get<SimStrategySpec>(spec);
  if (sim.name == "portfolio") {
    // Its strategies describe the member of their current execution; the cell names the whole.
    std::string out = sim.name;
    for (const auto& [key, value] : sim.params) {
      out += out.size() == sim.name.size() ? ':' : ',';
      out += key;
      out += '=';
      out += value;
    }
    return out;
  }
  return sim.make(0)->describe();
}

bool takes_seed(const StrategySpec& spec) {
  if (const auto* search = std::get_if<RelacySearch>(&spec)) return search->scheduler == "random";
  if (std::holds_alternative<StressSearch>(spec)) return true;
  const auto& name = std::get<SimStrategySpec>(spec).name;
  return name == "portfolio" || name == "random" || name == "pct";
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
