#include "schedules/random_strategy.hpp"

namespace syncstress {

std::optional<Execution> RandomStrategy::new_execution() {
  return begin_execution(derive_execution_seed(run_seed_, executions_++));
}

Execution RandomStrategy::begin_execution(std::uint64_t seed) {
  rng_.reseed(seed);
  Execution e;
  e.producer = SimStrategySpec{RandomParams{faults_}};
  e.seed = seed;
  e.faults = faults_;
  e.draws = UniformDraws{&rng_, nullptr};
  return e;
}

std::size_t RandomStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId, bool) {
  return static_cast<std::size_t>(rng_.below(runnable.size()));
}

std::uint64_t RandomStrategy::next_u64(std::uint64_t bound) { return rng_.below(bound); }

}  // namespace syncstress
