#include "schedules/exhaustive_strategy.hpp"

#include <algorithm>

namespace syncstress {

bool ExhaustiveStrategy::allowed(const Node& node, std::uint64_t answer) const {
  if (!node.is_thread || !preemption_bound_) return true;
  const bool preempts = node.continuing != node.bound && answer != node.continuing;
  return node.preemptions_before + (preempts ? 1u : 0u) <= *preemption_bound_;
}

std::uint32_t ExhaustiveStrategy::preemptions_through(const Node& node) const {
  const bool preempts =
      node.is_thread && node.continuing != node.bound && node.chosen != node.continuing;
  return node.preemptions_before + (preempts ? 1u : 0u);
}

std::optional<Execution> ExhaustiveStrategy::new_execution() {
  if (complete_) return std::nullopt;
  if (explored_ > 0) {
    // Nodes below depth_ were not reached by the last execution (it ended earlier than a
    // previous one); their subtrees do not exist on this path.
    path_.resize(std::min(path_.size(), depth_));
    while (!path_.empty()) {
      Node& node = path_.back();
      estimate_.branch_done(path_.size() - 1, node.chosen, explored_ - node.branch_start);
      node.branch_start = explored_;
      std::uint64_t next = node.chosen + 1;
      while (next < node.bound && !allowed(node, next)) ++next;
      if (next < node.bound) {
        node.chosen = next;
        break;
      }
      path_.pop_back();
    }
    if (path_.empty()) {
      complete_ = true;
      return std::nullopt;
    }
  }
  prefix_.begin_execution(explored_ == 0, path_.empty() ? 0 : path_.size() - 1);
  depth_ = 0;
  ++explored_;
  Execution e;
  e.producer = SimStrategySpec{ExhaustiveParams{preemption_bound_, /*reduce=*/false}};
  e.counts = prefix_.owned();
  if (prefix_.sharded()) e.steps = this;
  return e;
}

double ExhaustiveStrategy::estimated_executions() const {
  double total = static_cast<double>(explored_);
  for (std::size_t d = 0; d < path_.size(); ++d) {
    const Node& node = path_[d];
    std::uint64_t untried = 0;
    for (std::uint64_t next = node.chosen + 1; next < node.bound; ++next) {
      if (allowed(node, next)) ++untried;
    }
    total += estimate_.remaining(d, node.chosen + 1, untried, explored_ - node.branch_start);
  }
  return total;
}

bool ExhaustiveStrategy::step_taken(ThreadId /*thread*/, std::span<const Access> /*accesses*/,
                                    std::span<const ThreadId> runnable) {
  return prefix_.may_go_on(runnable.size(), depth_);
}

void ExhaustiveStrategy::diverged(const Node& node, bool is_thread, std::uint64_t bound) const {
  auto say = [](bool thread, std::uint64_t b) {
    return thread ? "a thread choice among " + std::to_string(b) + " runnable"
                  : "a number below " + std::to_string(b);
  };
  const std::string where =
      "at choice #" + std::to_string(depth_) + " it asked " + say(is_thread, bound);
  note_divergence(explored_, where + ", where the path holds " + say(node.is_thread, node.bound));
  throw ScheduleDivergence(depth_, "exhaustive: the program is not deterministic: " + where +
                                       ", but on the same path before it asked " +
                                       say(node.is_thread, node.bound));
}

std::size_t ExhaustiveStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                            bool current_yielded) {
  const std::uint64_t bound = runnable.size();
  prefix_.thread_choice(depth_);
  if (depth_ < path_.size()) {
    const Node& node = path_[depth_];
    if (!node.is_thread || node.bound != bound) diverged(node, true, bound);
    ++depth_;
    return static_cast<std::size_t>(node.chosen);
  }
  Node node{true, bound, 0, bound, 0, explored_ - 1};
  // Preemptions are counted with or without a bound (a violation reports its own).
  const auto it = std::lower_bound(runnable.begin(), runnable.end(), current);
  if (!current_yielded && it != runnable.end() && *it == current) {
    node.continuing = static_cast<std::uint64_t>(it - runnable.begin());
  }
  node.preemptions_before = path_.empty() ? 0 : preemptions_through(path_.back());
  if (preemption_bound_) {
    while (!allowed(node, node.chosen)) ++node.chosen;  // the continuing thread always is
  }
  path_.push_back(node);
  ++depth_;
  return static_cast<std::size_t>(node.chosen);
}

std::uint64_t ExhaustiveStrategy::next_u64(std::uint64_t bound) {
  if (depth_ < path_.size()) {
    const Node& node = path_[depth_];
    if (node.is_thread || node.bound != bound) diverged(node, false, bound);
    ++depth_;
    return node.chosen;
  }
  const std::uint32_t before = path_.empty() ? 0 : preemptions_through(path_.back());
  path_.push_back(Node{false, bound, 0, bound, before, explored_ - 1});
  ++depth_;
  return 0;
}

}  // namespace syncstress
