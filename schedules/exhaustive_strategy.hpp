// The exhaustive strategy without reduction (`exhaustive:reduction=none`): depth-first
// enumeration of every choice sequence of a program. The default exhaustive search reduces
// (schedules/dpor_strategy.hpp); this one is kept to compare against, and as the reference the
// reduction is tested against.
//
// Thread choices and number choices are nodes of one tree; each execution follows one path.
// The first execution takes answer 0 everywhere; each later one backtracks to the deepest
// node with an untried answer, replays the path down to it, takes that answer, and continues
// with 0s. The program must be deterministic given the answers (the sim runtime is): if a
// re-run asks a different question on the replayed path, ScheduleDivergence is thrown.
//
// An optional preemption bound (Musuvathi and Qadeer's context bounding, as in CHESS) prunes
// paths that switch away from a thread that could have continued more than `p` times; a switch
// away from a thread that yielded, blocked or finished is not a preemption.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "schedules/exhaustive_search.hpp"
#include "schedules/prefix_walk.hpp"
#include "schedules/schedule.hpp"
#include "schedules/search_estimate.hpp"
#include "schedules/step_observer.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// Depth-first enumeration; see the file comment.
class ExhaustiveStrategy final : public ExhaustiveSearch, private StepObserver {
 public:
  /// Enumerates every sequence, or only those with at most `preemption_bound` preemptions.
  /// As shard `shard` of the search (schedules/shard.hpp): only the prefixes it owns.
  explicit ExhaustiveStrategy(std::optional<std::uint32_t> preemption_bound = std::nullopt,
                              Shard shard = {})
      : preemption_bound_(preemption_bound), prefix_(shard, PrefixWalk::Cut::thread_choices) {}

  /// Moves to the next unexplored path; nothing once the whole tree has been explored. A
  /// shard's execution counts when the shard owns its prefix, and has its steps watched, to cut
  /// another shard's prefix where it ends.
  std::optional<Execution> new_execution() override;
  /// The path's answer at this depth, or the first allowed one on a new node.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// The path's answer at this depth, or 0 on a new node.
  std::uint64_t next_u64(std::uint64_t bound) override;

  /// Executions started so far (each a distinct path of the tree).
  std::uint64_t executions_explored() const override { return explored_; }
  /// True once new_execution() has returned false.
  bool complete() const { return complete_; }
  std::uint64_t depth() const override { return path_.size(); }
  std::uint32_t preemptions() const override {
    return depth_ == 0 ? 0 : preemptions_through(path_[depth_ - 1]);
  }
  bool bounded() const override { return preemption_bound_.has_value(); }
  std::optional<Reduction> reduction() const override { return std::nullopt; }
  double estimated_executions() const override;

  /// The path of the last execution, from which the next backtracks.
  nlohmann::json checkpoint() const override;
  void resume(const nlohmann::json& position) override;

 private:
  struct Node {
    bool is_thread;
    std::uint64_t bound;
    std::uint64_t chosen;
    // For thread nodes under a preemption bound: the index of the thread that could have
    // continued (bound when none could), and the preemptions on the path above this node.
    std::uint64_t continuing;
    std::uint32_t preemptions_before;
    std::uint64_t branch_start = 0;  // explored_ before the first execution of the current choice
  };

  /// A shard's walk of the prefixes: false where another shard's prefix ends.
  bool step_taken(ThreadId thread, std::span<const Access> accesses,
                  std::span<const ThreadId> runnable) override;
  void last_step(ThreadId, std::span<const Access>, std::span<const ThreadId>) override {}

  bool allowed(const Node& node, std::uint64_t answer) const;
  std::uint32_t preemptions_through(const Node& node) const;
  [[noreturn]] void diverged(const Node& node, bool is_thread, std::uint64_t bound) const;

  std::optional<std::uint32_t> preemption_bound_;
  std::vector<Node> path_;
  std::size_t depth_ = 0;  // position in path_ of the next question
  // The prefix partition: thread choices made so far in this execution, the index in path_
  // where the last execution's prefix ended (npos: it ended inside its prefix), the current
  // prefix's number in depth-first order, and whether this shard owns it.
  PrefixWalk prefix_;
  std::uint64_t explored_ = 0;
  SearchEstimate estimate_;
  bool complete_ = false;
};

}  // namespace syncstress
