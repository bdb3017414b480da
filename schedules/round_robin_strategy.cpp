#include "schedules/round_robin_strategy.hpp"

#include <algorithm>

namespace syncstress {

std::optional<Execution> RoundRobinStrategy::new_execution() {
  if (started_) return std::nullopt;
  started_ = true;
  Execution e;
  e.producer = SimStrategySpec{RoundRobinParams{}};
  return e;
}

std::size_t RoundRobinStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                            bool) {
  // runnable is sorted: the first id above current, or wrap to the smallest.
  const auto it = std::upper_bound(runnable.begin(), runnable.end(), current);
  return it == runnable.end() ? 0 : static_cast<std::size_t>(it - runnable.begin());
}

std::uint64_t RoundRobinStrategy::next_u64(std::uint64_t) { return 0; }

}  // namespace syncstress
