#include "schedules/portfolio_strategy.hpp"

#include <algorithm>

#include "schedules/rng.hpp"

namespace syncstress {

PortfolioStrategy::PortfolioStrategy(std::uint64_t seed, std::uint64_t k_ceiling, bool faults,
                                     std::uint64_t first)
    : run_seed_(seed),
      faults_(faults),
      executions_(first),
      random_{RandomStrategy(seed, false), RandomStrategy(seed, true)},
      pct_{PctStrategy(seed, kPctDepths[0], k_ceiling, false),
           PctStrategy(seed, kPctDepths[1], k_ceiling, false),
           PctStrategy(seed, kPctDepths[2], k_ceiling, false),
           PctStrategy(seed, kPctDepths[0], k_ceiling, true),
           PctStrategy(seed, kPctDepths[1], k_ceiling, true),
           PctStrategy(seed, kPctDepths[2], k_ceiling, true)},
      member_(&random_[0]) {}

std::optional<Execution> PortfolioStrategy::new_execution() {
  longest_ = std::max(longest_, steps_);
  steps_ = 0;
  const std::uint64_t i = executions_++;
  const std::uint64_t seed = derive_execution_seed(run_seed_, i);
  const auto which = static_cast<std::size_t>(i % kMembers);
  const bool with_faults = faults_ && (i / kMembers) % 2 == 1;
  Execution e;
  if (which == 0) {
    auto& random = random_[with_faults ? 1 : 0];
    e = random.begin_execution(seed);
    member_ = &random;
  } else {
    auto& pct = pct_[(with_faults ? kPctDepths.size() : 0) + which - 1];
    e = pct.begin_execution(seed, longest_);
    member_ = &pct;
  }
  // Every answer comes through next_thread, which counts the decisions k is measured in.
  e.draws = {};
  return e;
}

std::size_t PortfolioStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                           bool current_yielded) {
  ++steps_;
  return member_->next_thread(runnable, current, current_yielded);
}

std::uint64_t PortfolioStrategy::next_u64(std::uint64_t bound) { return member_->next_u64(bound); }

}  // namespace syncstress
