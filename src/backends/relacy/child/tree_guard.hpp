// The guard on the path a bound or full search follows through Relacy's search tree.
//
// Relacy's tree-search schedulers (rl::tree_search_scheduler, under the bound and the full
// search) record each execution as a path through the tree of its choices: per choice, how
// many options there were, which one was taken and of what kind (a thread to run, a value for a
// relaxed load, ...). A replay hands that path back as the state string, and Relacy, built
// without its internal asserts, trusts it: a path recorded with another primitive or other
// parameters, or edited by hand, makes it take option 7 of 2 and index past its list of
// runnable threads (SIGSEGV). So syncstress-relacy replaces the two members that read the path
// (explicit specializations for the schedulers of its two tests, defined in search.cpp): a node
// that does not fit the choice at hand ends the path there, the execution goes on as a fresh
// search would (option 0 from then on), and the divergence is recorded for search() to report.
// Nothing here allocates through operator new: Relacy's nodes live in its own raw-malloc vector.
// An execution that ends before the path does is a divergence too.
#pragma once

#include <cstddef>
#include <string>

// Included by registry.hpp after the Relacy headers.

namespace syncstress::relacy_main {

/// Where the latest search left the path it was given; reset by search() before each one. Plain
/// numbers: it is filled in during an execution, where Relacy owns operator new.
struct TreeDivergence {
  bool diverged = false;
  bool ended_early = false;  ///< the execution ended before the path did
  std::size_t choice = 0;    ///< the first choice that did not fit (from 1), or the choices made
  unsigned options = 0;      ///< what the execution asked for at that choice...
  unsigned kind = 0;
  std::size_t recorded = 0;  ///< ...and what the path has there (or, ended early, its length)
  unsigned recorded_kind = 0;

  /// "choice 3 picks among 2 (of kind 0), the schedule's node there among 5 (of kind 0)".
  std::string describe() const {
    if (ended_early) {
      return "the execution ended after " + std::to_string(choice) + " choices, the schedule has " +
             std::to_string(recorded);
    }
    return "choice " + std::to_string(choice) + " picks among " + std::to_string(options) +
           " (of kind " + std::to_string(kind) + "), the schedule's node there among " +
           std::to_string(recorded) + " (of kind " + std::to_string(recorded_kind) + ")";
  }
};
inline TreeDivergence& tree_divergence() {
  static TreeDivergence divergence;
  return divergence;
}

/// rand_impl of a tree search: the option the path gives for the choice at `depth` among
/// `limit` options of kind `kind`, if it fits; else (or past the path's end) option 0 of a new
/// node. `Tree` is Relacy's vector of nodes {count_, index_, type_, pad_}.
template <class Tree>
unsigned follow_search_tree(Tree& tree, std::size_t& depth, unsigned limit, rl::sched_type kind) {
  if (depth < tree.size()) {
    const auto& node = tree[depth];
    if (node.type_ == kind && node.count_ == limit && node.index_ < node.count_) {
      ++depth;
      return node.index_;
    }
    auto& divergence = tree_divergence();
    if (!divergence.diverged) {
      divergence = {true,
                    false,
                    depth + 1,
                    limit,
                    static_cast<unsigned>(kind),
                    node.count_,
                    static_cast<unsigned>(node.type_)};
    }
    tree.resize(depth);
  }
  tree.push_back({limit, 0, kind, 0});
  ++depth;
  return 0;
}

/// iteration_end_impl of a tree search: flags a path longer than the execution, then moves to
/// the next path as Relacy does (the deepest node with an option left takes its next one, the
/// nodes below it go); true when none is left, which ends the search.
template <class Tree>
bool end_search_tree_iteration(Tree& tree, std::size_t depth) {
  if (depth != tree.size()) {
    auto& divergence = tree_divergence();
    if (!divergence.diverged) divergence = {true, true, depth, 0, 0, tree.size(), 0};
  }
  for (std::size_t i = tree.size(); i > 0; --i) {
    auto& node = tree[i - 1];
    if (node.index_ + 1 < node.count_) {
      tree.resize(i);
      ++node.index_;
      return false;
    }
  }
  return true;
}

}  // namespace syncstress::relacy_main
