#include "schedules/pct_strategy.hpp"

#include <algorithm>
#include <cassert>

namespace syncstress {

PctStrategy::PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps, bool faults,
                         std::uint64_t first)
    : run_seed_(seed),
      depth_(depth),
      k_ceiling_(steps),
      faults_(faults),
      executions_(first),
      k_(steps),
      rng_(seed) {
  assert(depth >= 1 && steps >= 1);  // the factory rejects bad user input before this
}

std::optional<Execution> PctStrategy::new_execution() {
  longest_ = std::max(longest_, steps_);
  // Once an execution has been seen, its measured length is the estimate, lower or higher
  // than the first guess up to the ceiling (a k far above the real length would put most
  // change points after the end). Before, longest_ is 0: the ceiling.
  return begin_execution(derive_execution_seed(run_seed_, executions_++), longest_);
}

Execution PctStrategy::begin_execution(std::uint64_t seed, std::uint64_t measured) {
  k_ = measured == 0 ? k_ceiling_ : std::min(k_ceiling_, measured);
  rng_.reseed(seed);

  priority_.clear();
  initial_order_.clear();
  next_change_ = 0;
  steps_ = 0;
  next_yield_priority_ = -1;

  // d-1 distinct change points, uniform in [1, k]; all of them if k is that small.
  change_points_.clear();
  const std::uint64_t wanted = std::min<std::uint64_t>(depth_ - 1, k_);
  while (change_points_.size() < wanted) {
    const std::uint64_t c = 1 + rng_.below(k_);
    const auto it = std::lower_bound(change_points_.begin(), change_points_.end(), c);
    if (it == change_points_.end() || *it != c) change_points_.insert(it, c);
  }
  Execution e;
  e.producer = SimStrategySpec{PctParams{depth_, k_, faults_}};
  e.seed = seed;
  e.faults = faults_;
  return e;
}

void PctStrategy::meet(ThreadId t) {
  if (t >= priority_.size()) priority_.resize(t + 1, kUnseen);
  if (priority_[t] != kUnseen) return;
  // A uniform insertion position among the threads seen so far makes the initial priorities
  // a uniform random permutation, however many threads turn up later.
  const auto pos = static_cast<std::ptrdiff_t>(rng_.below(initial_order_.size() + 1));
  initial_order_.insert(initial_order_.begin() + pos, t);
  const auto n = static_cast<std::int64_t>(initial_order_.size());
  for (std::int64_t i = 0; i < n; ++i) {
    priority_[initial_order_[static_cast<std::size_t>(i)]] = depth_ + (n - 1 - i);
  }
}

void PctStrategy::lower(ThreadId t, std::int64_t priority) {
  priority_[t] = priority;
  const auto it = std::find(initial_order_.begin(), initial_order_.end(), t);
  if (it != initial_order_.end()) initial_order_.erase(it);
}

std::size_t PctStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                     bool current_yielded) {
  ++steps_;
  meet(current);
  for (ThreadId t : runnable) meet(t);
  if (current_yielded) lower(current, next_yield_priority_--);

  auto highest = [&] {
    std::size_t best = 0;
    for (std::size_t i = 1; i < runnable.size(); ++i) {
      if (priority_[runnable[i]] > priority_[runnable[best]]) best = i;
    }
    return best;
  };
  std::size_t pick = highest();
  if (next_change_ < change_points_.size() && change_points_[next_change_] == steps_) {
    // The i-th change point (i = next_change_ + 1) drops the thread about to run to d-i:
    // below every initial priority and below every thread an earlier change point dropped.
    lower(runnable[pick],
          static_cast<std::int64_t>(depth_) - 1 - static_cast<std::int64_t>(next_change_));
    ++next_change_;
    pick = highest();
  }
  return pick;
}

std::uint64_t PctStrategy::next_u64(std::uint64_t bound) { return rng_.below(bound); }

}  // namespace syncstress
