#include "schedules/strategy_factory.hpp"

#include <array>
#include <charconv>

namespace syncstress {
namespace {

constexpr std::string_view kFaultsSummary =
    "on: every execution explores spurious wake-ups and weak-CAS failures where the cell allows "
    "them";
constexpr StrategyParamInfo kMemory{
    "memory", "the preset's, else sc",
    "c11: the C++ memory model (a load may read an older store; data races on cells found); sc: "
    "every operation sequentially consistent. The *-memory-model presets default to c11"};
constexpr std::array<StrategyParamInfo, 2> kRandomParams{{
    {"faults", "off", kFaultsSummary},
    kMemory,
}};
constexpr std::array<StrategyParamInfo, 4> kPctParams{{
    {"d", "3", "bug depth aimed at: d-1 priority change points per execution (>= 1)"},
    {"k", "100000",
     "ceiling on k, the steps change points are drawn from: the first execution uses it, later "
     "ones the longest execution seen, at most this"},
    {"faults", "off", kFaultsSummary},
    kMemory,
}};
constexpr std::array<StrategyParamInfo, 3> kPortfolioParams{{
    {"k", "100000", "ceiling on the PCT members' k (measured: the longest execution seen)"},
    {"faults", "on", "on: every other round of members explores faults where the cell allows them"},
    kMemory,
}};
constexpr std::array<StrategyParamInfo, 1> kRoundRobinParams{{kMemory}};
constexpr std::array<StrategyParamInfo, 3> kExhaustiveParams{{
    {"preemptions", "none", "explore only schedules with at most this many preemptions"},
    {"reduction", "dpor",
     "dpor: one execution per class of equivalent schedules (source sets and sleep sets); none: "
     "every schedule"},
    kMemory,
}};

constexpr std::array<StrategyInfo, 5> kSimCatalog{{
    {"portfolio",
     "the presets' default: executions take turns among random and pct at d=2, 3 and 5, with "
     "faults off then on; each records the member it used",
     kPortfolioParams},
    {"random", "every choice uniform at random; each execution reproducible from its own seed",
     kRandomParams},
    {"pct",
     "probabilistic concurrency testing (Burckhardt et al. 2010): random priorities "
     "with d-1 change points",
     kPctParams},
    {"round-robin", "one deterministic execution: threads take steps in turn, no faults",
     kRoundRobinParams},
    {"exhaustive",
     "every schedule up to equivalence, depth first (optionally preemption-bounded); stops when "
     "done",
     kExhaustiveParams},
}};

std::string valid_names() {
  std::string out;
  for (const auto& info : kSimCatalog) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

const StrategyInfo* find(std::string_view name) {
  for (const auto& info : kSimCatalog) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::uint64_t number_param(const StrategyParams& params, std::string_view strategy,
                           std::string_view key, std::uint64_t fallback, std::uint64_t min,
                           std::uint64_t max) {
  const auto it = params.find(key);
  if (it == params.end()) return fallback;
  const std::string& text = it->second;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min ||
      value > max) {
    throw StrategyError(std::string(strategy) + ": parameter " + std::string(key) + "='" + text +
                        "' must be a whole number from " + std::to_string(min) + " to " +
                        std::to_string(max));
  }
  return value;
}

bool faults_param(const StrategyParams& params, std::string_view strategy, bool fallback) {
  const auto it = params.find("faults");
  if (it == params.end()) return fallback;
  if (it->second == "on") return true;
  if (it->second == "off") return false;
  throw StrategyError(std::string(strategy) + ": parameter faults='" + it->second +
                      "' must be on or off");
}

SimStrategySpec parse_strategy_params(std::string_view name, const StrategyParams& params);

}  // namespace

std::span<const StrategyInfo> strategy_catalog() { return kSimCatalog; }

SimStrategySpec parse_sim_strategy(std::string_view name, const StrategyParams& given) {
  // memory= is every sim strategy's; the others are checked against the strategy's own.
  StrategyParams params = given;
  std::optional<MemoryModel> memory;
  if (const auto it = params.find("memory"); it != params.end()) {
    if (it->second == "c11" || it->second == "sc") {
      memory = it->second == "c11" ? MemoryModel::c11 : MemoryModel::sc;
    } else {
      throw StrategyError(std::string(name) + ": parameter memory='" + it->second +
                          "' must be sc (every operation sequentially consistent) or c11 (the C++ "
                          "memory model)");
    }
    params.erase(it);
  }
  SimStrategySpec spec = parse_strategy_params(name, params);
  spec.memory = memory;
  return spec;
}

namespace {

SimStrategySpec parse_strategy_params(std::string_view name, const StrategyParams& params) {
  const StrategyInfo* info = find(name);
  if (info == nullptr) {
    if (name == "replay") {
      throw StrategyError(
          "replay is made from a schedule string, not by name: use `syncstress replay "
          "--schedule STRING`");
    }
    throw StrategyError("unknown schedule strategy '" + std::string(name) +
                        "'; valid: " + valid_names());
  }
  for (const auto& [key, value] : params) {
    bool known = false;
    std::string valid;
    for (const auto& p : info->params) {
      known = known || p.name == key;
      valid += (valid.empty() ? "" : ", ") + std::string(p.name);
    }
    if (!known) {
      throw StrategyError(std::string(name) + ": unknown parameter '" + key +
                          "'; valid: " + (valid.empty() ? "none" : valid));
    }
  }
  constexpr std::uint64_t kMaxK = std::uint64_t{1} << 40;
  if (name == "portfolio") {
    PortfolioParams p;
    if (params.contains("k")) p.k = number_param(params, name, "k", 0, 1, kMaxK);
    if (params.contains("faults")) p.faults = faults_param(params, name, true);
    return {p};
  }
  if (name == "random") return {RandomParams{faults_param(params, name, false)}};
  if (name == "pct") {
    PctParams p;
    p.d = static_cast<std::uint32_t>(number_param(params, name, "d", p.d, 1, 64));
    p.k = number_param(params, name, "k", p.k, 1, kMaxK);
    p.faults = faults_param(params, name, false);
    return {p};
  }
  if (name == "round-robin") return {RoundRobinParams{}};
  ExhaustiveParams p;  // the catalogue's last
  if (params.contains("preemptions") && params.at("preemptions") != "none") {
    p.preemptions = static_cast<std::uint32_t>(
        number_param(params, name, "preemptions", 0, 0, std::uint64_t{1} << 20));
  }
  const auto reduction = params.contains("reduction") ? params.at("reduction") : "dpor";
  if (reduction != "dpor" && reduction != "none") {
    throw StrategyError("exhaustive: reduction must be dpor or none, not '" + reduction + "'");
  }
  p.reduce = reduction == "dpor";
  return {p};
}

}  // namespace

std::unique_ptr<Strategy> make_strategy(std::string_view name, std::uint64_t seed,
                                        const StrategyParams& params, Shard shard) {
  return parse_sim_strategy(name, params).make(seed, shard);
}

std::pair<std::string, StrategyParams> parse_strategy_description(std::string_view description) {
  const std::size_t colon = description.find(':');
  std::pair<std::string, StrategyParams> out{std::string(description.substr(0, colon)), {}};
  if (colon == std::string_view::npos) return out;
  std::string_view rest = description.substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      throw StrategyError("strategy parameter '" + std::string(item) +
                          "' should be written name=value");
    }
    out.second[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

bool describes_faults(std::string_view description) {
  try {
    const auto [name, params] = parse_strategy_description(description);
    const auto it = params.find("faults");
    return it != params.end() && it->second == "on";
  } catch (const StrategyError&) {
    return false;
  }
}

MemoryModel described_memory(std::string_view description) {
  try {
    const auto [name, params] = parse_strategy_description(description);
    return parse_sim_strategy(name, params).memory_model();
  } catch (const StrategyError&) {
    return MemoryModel::sc;
  }
}

bool describes_reduced_search(std::string_view description) {
  try {
    const auto [name, params] = parse_strategy_description(description);
    const SimStrategySpec spec = parse_sim_strategy(name, params);
    const ExhaustiveParams* exhaustive = spec.exhaustive();
    return exhaustive != nullptr && exhaustive->reduce;
  } catch (const StrategyError&) {
    return false;
  }
}

std::unique_ptr<Strategy> make_strategy_from_description(std::string_view description,
                                                         std::uint64_t seed) {
  const auto [name, params] = parse_strategy_description(description);
  return make_strategy(name, seed, params);
}

}  // namespace syncstress
