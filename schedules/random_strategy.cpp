#include "schedules/random_strategy.hpp"

namespace syncstress {

bool RandomStrategy::new_execution() {
  begin_execution(derive_execution_seed(run_seed_, executions_++));
  return true;
}

void RandomStrategy::begin_execution(std::uint64_t seed) {
  execution_seed_ = seed;
  rng_.reseed(seed);
}

std::size_t RandomStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId, bool) {
  return static_cast<std::size_t>(rng_.below(runnable.size()));
}

std::uint64_t RandomStrategy::next_u64(std::uint64_t bound) { return rng_.below(bound); }

}  // namespace syncstress
