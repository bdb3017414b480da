#include "schedules/strategy_factory.hpp"

#include <array>
#include <charconv>

#include "schedules/exhaustive_strategy.hpp"
#include "schedules/pct_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/round_robin_strategy.hpp"

namespace syncstress {
namespace {

constexpr std::array<StrategyParamInfo, 2> kPctParams{{
    {"d", "3", "bug depth aimed at: d-1 priority change points per execution (>= 1)"},
    {"k", "1000", "scheduling steps of the first execution; later ones use the longest seen"},
}};
constexpr std::array<StrategyParamInfo, 1> kExhaustiveParams{{
    {"preemptions", "none", "explore only schedules with at most this many preemptions"},
}};

constexpr std::array<StrategyInfo, 4> kCatalog{{
    {"random", "every choice uniform at random; each execution reproducible from its own seed", {}},
    {"pct",
     "probabilistic concurrency testing (Burckhardt et al. 2010): random priorities "
     "with d-1 change points",
     kPctParams},
    {"round-robin", "one deterministic execution: threads take steps in turn, no faults", {}},
    {"exhaustive", "every schedule, depth first (optionally preemption-bounded); stops when done",
     kExhaustiveParams},
}};

std::string valid_names() {
  std::string out;
  for (const auto& info : kCatalog) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

const StrategyInfo* find(std::string_view name) {
  for (const auto& info : kCatalog) {
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

}  // namespace

std::span<const StrategyInfo> strategy_catalog() { return kCatalog; }

std::unique_ptr<Strategy> make_strategy(std::string_view name, std::uint64_t seed,
                                        const StrategyParams& params) {
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
  if (name == "random") return std::make_unique<RandomStrategy>(seed);
  if (name == "pct") {
    const auto d = number_param(params, name, "d", 3, 1, 64);
    const auto k = number_param(params, name, "k", 1000, 1, std::uint64_t{1} << 40);
    return std::make_unique<PctStrategy>(seed, static_cast<std::uint32_t>(d), k);
  }
  if (name == "round-robin") return std::make_unique<RoundRobinStrategy>();
  // exhaustive
  std::optional<std::uint32_t> bound;
  if (params.contains("preemptions") && params.at("preemptions") != "none") {
    bound = static_cast<std::uint32_t>(
        number_param(params, name, "preemptions", 0, 0, std::uint64_t{1} << 20));
  }
  return std::make_unique<ExhaustiveStrategy>(bound);
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

std::unique_ptr<Strategy> make_strategy_from_description(std::string_view description,
                                                         std::uint64_t seed) {
  const auto [name, params] = parse_strategy_description(description);
  return make_strategy(name, seed, params);
}

}  // namespace syncstress
