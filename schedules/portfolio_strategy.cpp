#include "schedules/portfolio_strategy.hpp"

#include <algorithm>

#include "schedules/rng.hpp"

namespace syncstress {

PortfolioStrategy::PortfolioStrategy(std::uint64_t seed, std::uint64_t k_ceiling, bool faults)
    : run_seed_(seed),
      faults_(faults),
      random_{RandomStrategy(seed, false), RandomStrategy(seed, true)},
      pct_{PctStrategy(seed, kPctDepths[0], k_ceiling, false),
           PctStrategy(seed, kPctDepths[1], k_ceiling, false),
           PctStrategy(seed, kPctDepths[2], k_ceiling, false),
           PctStrategy(seed, kPctDepths[0], k_ceiling, true),
           PctStrategy(seed, kPctDepths[1], k_ceiling, true),
           PctStrategy(seed, kPctDepths[2], k_ceiling, true)},
      member_(&random_[0]) {}

bool PortfolioStrategy::new_execution() {
  longest_ = std::max(longest_, steps_);
  steps_ = 0;
  const std::uint64_t i = executions_++;
  const std::uint64_t seed = derive_execution_seed(run_seed_, i);
  const auto which = static_cast<std::size_t>(i % kMembers);
  const bool with_faults = faults_ && (i / kMembers) % 2 == 1;
  if (which == 0) {
    auto& random = random_[with_faults ? 1 : 0];
    random.begin_execution(seed);
    member_ = &random;
  } else {
    auto& pct = pct_[(with_faults ? kPctDepths.size() : 0) + which - 1];
    pct.begin_execution(seed, longest_);
    member_ = &pct;
  }
  return true;
}

std::size_t PortfolioStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                           bool current_yielded) {
  ++steps_;
  return member_->next_thread(runnable, current, current_yielded);
}

std::uint64_t PortfolioStrategy::next_u64(std::uint64_t bound) { return member_->next_u64(bound); }

std::string PortfolioStrategy::describe() const { return member_->describe(); }

std::uint64_t PortfolioStrategy::execution_seed() const { return member_->execution_seed(); }

bool PortfolioStrategy::explore_faults() const { return member_->explore_faults(); }

}  // namespace syncstress
