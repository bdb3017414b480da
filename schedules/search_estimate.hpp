// How many executions a depth-first search will run in all, estimated while it runs.
//
// The searches explore a tree whose leaves are executions, one branch at a time. When a node
// moves to its next alternative, the subtree below the one it leaves is complete and its
// leaves are known: a sample of the subtree size at that depth and rank among its siblings. The
// estimate is the leaves run so far plus, for each node on the current path, the expected size
// of each of its untried alternatives: the mean of the samples at its depth and rank (see
// remaining()). It is refined at every execution and exact once the search is
// complete: no node has an untried alternative then. The idea is the weighted-backtrack family
// of estimators for tree search (Kilby, Slaney, Thiébaux and Walsh, AAAI 2006), which, unlike
// Knuth's random probes, needs no execution run only to estimate.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncstress {

class SearchEstimate {
 public:
  /// The subtree of the `sibling`-th alternative (from 0) of a node at `depth` is complete,
  /// with `leaves` executions.
  void branch_done(std::size_t depth, std::uint64_t sibling, std::uint64_t leaves) {
    if (samples_.size() <= depth) samples_.resize(depth + 1);
    Sample& s = samples_[depth][std::min<std::uint64_t>(sibling, kSiblings - 1)];
    s.sum += leaves;
    ++s.count;
  }

  /// What the node at `depth` has still to run besides its current subtree: its `untried`
  /// alternatives, the first of which is its `next_sibling`-th. Each is taken to be as big as
  /// the completed subtrees of that rank at that depth, or of the nearest rank below with any
  /// (later alternatives are smaller under a reduction, whose sleep sets prune them); before
  /// any at that depth has completed, as big as the current one: `current_leaves` so far.
  double remaining(std::size_t depth, std::uint64_t next_sibling, std::uint64_t untried,
                   std::uint64_t current_leaves) const {
    double total = 0;
    for (std::uint64_t k = 0; k < untried; ++k) {
      total += mean(depth, next_sibling + k, current_leaves);
    }
    return total;
  }

  /// Forgets the samples (a search resumed from a checkpoint starts its estimate afresh).
  void clear() { samples_.clear(); }

 private:
  static constexpr std::size_t kSiblings = 8;  // ranks kept apart; later ones share the last
  struct Sample {
    std::uint64_t sum = 0;
    std::uint64_t count = 0;
  };

  double mean(std::size_t depth, std::uint64_t sibling, std::uint64_t current_leaves) const {
    if (depth < samples_.size()) {
      const auto& at = samples_[depth];
      for (std::size_t i = std::min<std::uint64_t>(sibling, kSiblings - 1) + 1; i-- > 0;) {
        if (at[i].count != 0) {
          return static_cast<double>(at[i].sum) / static_cast<double>(at[i].count);
        }
      }
    }
    return static_cast<double>(std::max<std::uint64_t>(current_leaves, 1));
  }

  std::vector<std::array<Sample, kSiblings>> samples_;
};

}  // namespace syncstress
