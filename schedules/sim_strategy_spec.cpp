#include "schedules/sim_strategy_spec.hpp"

#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "schedules/pct_strategy.hpp"
#include "schedules/portfolio_strategy.hpp"
#include "schedules/random_strategy.hpp"
#include "schedules/round_robin_strategy.hpp"

namespace syncstress {

std::unique_ptr<Strategy> SimStrategySpec::make(std::uint64_t seed, Shard shard,
                                                std::uint64_t executions) const {
  if (splits_by_prefix()) return make_search(shard);
  return make_from(seed, shard.range(executions).first);
}

std::unique_ptr<Strategy> SimStrategySpec::make_from(std::uint64_t seed,
                                                     std::uint64_t first) const {
  struct Make {
    const SimStrategySpec& spec;
    std::uint64_t seed;
    std::uint64_t first;
    std::unique_ptr<Strategy> operator()(const PortfolioParams& p) const {
      return std::make_unique<PortfolioStrategy>(seed, p.k.value_or(PctParams{}.k),
                                                 p.faults.value_or(true), first);
    }
    std::unique_ptr<Strategy> operator()(const RandomParams& p) const {
      return std::make_unique<RandomStrategy>(seed, p.faults, first);
    }
    std::unique_ptr<Strategy> operator()(const PctParams& p) const {
      return std::make_unique<PctStrategy>(seed, p.d, p.k, p.faults, first);
    }
    std::unique_ptr<Strategy> operator()(const RoundRobinParams&) const {
      return std::make_unique<RoundRobinStrategy>();
    }
    std::unique_ptr<Strategy> operator()(const ExhaustiveParams&) const {
      return spec.make_search();
    }
  };
  return std::visit(Make{*this, seed, first}, as);
}

std::unique_ptr<ExhaustiveSearch> SimStrategySpec::make_search(Shard shard) const {
  const auto* p = exhaustive();
  if (p == nullptr) return nullptr;
  if (p->reduce) return std::make_unique<DporStrategy>(p->preemptions, shard);
  return std::make_unique<ExhaustiveStrategy>(p->preemptions, shard);
}

std::uint64_t SimStrategySpec::shard_executions(Shard shard, std::uint64_t executions) const {
  if (splits_by_prefix()) return executions;
  const auto [first, end] = shard.range(executions);
  return end - first;
}

std::string PortfolioParams::describe() const {
  // Parameters in name order, as a preset's or the flag's map held them.
  std::string out = "portfolio";
  if (faults) {
    out += ":faults=";
    out += *faults ? "on" : "off";
  }
  if (k) {
    out += faults ? ",k=" : ":k=";
    out += std::to_string(*k);
  }
  return out;
}

std::string RandomParams::describe() const { return faults ? "random:faults=on" : "random"; }

std::string PctParams::describe() const {
  std::string out = "pct:d=";
  out += std::to_string(d);
  out += ",k=";
  out += std::to_string(k);
  if (faults) out += ",faults=on";
  return out;
}

std::string RoundRobinParams::describe() const { return "round-robin"; }

std::string ExhaustiveParams::describe() const {
  std::string out = "exhaustive";
  if (preemptions) {
    out += ":preemptions=";
    out += std::to_string(*preemptions);
  }
  if (!reduce) out += preemptions ? ",reduction=none" : ":reduction=none";
  return out;
}

std::string SimStrategySpec::describe() const {
  std::string out = std::visit([](const auto& p) { return p.describe(); }, as);
  if (memory) {
    out += out.find(':') == std::string::npos ? ":memory=" : ",memory=";
    out += *memory == MemoryModel::c11 ? "c11" : "sc";
  }
  return out;
}

bool SimStrategySpec::takes_seed() const {
  return std::holds_alternative<PortfolioParams>(as) || std::holds_alternative<RandomParams>(as) ||
         std::holds_alternative<PctParams>(as);
}

}  // namespace syncstress
