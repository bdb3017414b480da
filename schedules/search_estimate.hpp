// How many executions a depth-first search will run in all, estimated while it runs.
//
// The searches explore a tree whose leaves are executions, one branch at a time. When a node
// moves to its next alternative, the subtree below the one it leaves is complete and its
// leaves are known: a sample of the subtree size at that depth and rank among its siblings. The
// estimate is the leaves run so far plus, for each node on the current path, the expected size
// of each of its untried alternatives (see remaining()). A reduction's nodes learn of
// alternatives as the search below them finds races, so they are expected to end with as many
// as the finished nodes at their depth. It is refined at every execution and exact once the
// search is complete: no node has an untried alternative then. The idea is the
// weighted-backtrack family of estimators for tree search (Kilby, Slaney, Thiébaux and Walsh,
// AAAI 2006), which, unlike Knuth's random probes, needs no execution run only to estimate.
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
    grow(depth);
    const std::size_t rank = std::min<std::uint64_t>(sibling, kSiblings - 1);
    Sample& s = samples_[depth][rank];
    s.sum += leaves;
    ++s.count;
    if (sibling == 0) first_[depth] = leaves;
    below_valid_ = false;
  }

  /// The thread choice at `depth` has run all its `alternatives`. A reduction adds alternatives
  /// to a node as the search below it finds races, so a node on the current path has more to
  /// come than it knows of: as many as the finished nodes at its depth had, on average.
  void node_done(std::size_t depth, std::uint64_t alternatives) {
    grow(depth);
    alternatives_[depth].sum += alternatives;
    ++alternatives_[depth].count;
    first_[depth] = 0;
  }

  /// What the node at `depth` has still to run besides its current subtree: its `untried`
  /// alternatives, the first of which is its `next_sibling`-th, and when it `may_grow` (a thread
  /// choice of a reduction) those it is expected to learn of (node_done). Each is taken to be
  /// as big as the completed subtrees of that rank at that depth; without any, as those of that
  /// rank below it, all together; without any, as the node's first subtree (or, while that
  /// runs, `current_leaves` so far).
  double remaining(std::size_t depth, std::uint64_t next_sibling, std::uint64_t untried,
                   std::uint64_t current_leaves, bool may_grow = false) const {
    double more = static_cast<double>(untried);
    if (may_grow && depth < alternatives_.size() && alternatives_[depth].count != 0) {
      const double expected = static_cast<double>(alternatives_[depth].sum) /
                              static_cast<double>(alternatives_[depth].count);
      more = std::max(more, expected - static_cast<double>(next_sibling));
    }
    // Ranks from kSiblings - 1 on share one sample, so at most kSiblings terms: the last one
    // weighs every alternative left (however many a number choice has).
    double total = 0;
    for (std::uint64_t k = 0; more > 0; ++k) {
      const std::uint64_t sibling = next_sibling + k;
      const double weight = sibling >= kSiblings - 1 ? more : std::min(more, 1.0);
      total += weight * size(depth, sibling, current_leaves);
      more -= weight;
    }
    return total;
  }

  /// Forgets the samples (a search resumed from a checkpoint starts its estimate afresh).
  void clear() {
    samples_.clear();
    alternatives_.clear();
    first_.clear();
    below_valid_ = false;
  }

 private:
  static constexpr std::size_t kSiblings = 8;  // ranks kept apart; later ones share the last
  struct Sample {
    std::uint64_t sum = 0;
    std::uint64_t count = 0;
  };

  void grow(std::size_t depth) {
    if (samples_.size() > depth) return;
    samples_.resize(depth + 1);
    alternatives_.resize(depth + 1);
    first_.resize(depth + 1);
    below_valid_ = false;
  }

  double size(std::size_t depth, std::uint64_t sibling, std::uint64_t current_leaves) const {
    const std::size_t rank = std::min<std::uint64_t>(sibling, kSiblings - 1);
    if (depth < samples_.size() && samples_[depth][rank].count != 0) {
      const Sample& s = samples_[depth][rank];
      return static_cast<double>(s.sum) / static_cast<double>(s.count);
    }
    // The subtrees of this rank below this depth, all together: near the top of a reduced
    // search the later alternatives mostly reorder the set-up, and sleep sets end them soon.
    if (depth < samples_.size()) {
      const Sample& below = samples_below(depth)[rank];
      if (below.count != 0) {
        return static_cast<double>(below.sum) / static_cast<double>(below.count);
      }
    }
    const std::uint64_t first =
        depth < first_.size() && first_[depth] != 0 ? first_[depth] : current_leaves;
    return static_cast<double>(std::max<std::uint64_t>(first, 1));
  }

  /// The samples of every depth below `depth` (< samples_.size()), per rank: sums kept from
  /// the deepest up and rebuilt only after a new sample, so that an estimate over a path of
  /// any depth costs time linear in it (a spinning execution's path runs to tens of thousands).
  const std::array<Sample, kSiblings>& samples_below(std::size_t depth) const {
    if (!below_valid_) {
      below_.assign(samples_.size(), {});
      std::array<Sample, kSiblings> running{};
      for (std::size_t d = samples_.size(); d-- > 0;) {
        below_[d] = running;
        for (std::size_t r = 0; r < kSiblings; ++r) {
          running[r].sum += samples_[d][r].sum;
          running[r].count += samples_[d][r].count;
        }
      }
      below_valid_ = true;
    }
    return below_[depth];
  }

  std::vector<std::array<Sample, kSiblings>> samples_;  // [depth][rank]: subtree sizes
  std::vector<Sample> alternatives_;                    // [depth]: of the finished nodes
  std::vector<std::uint64_t> first_;  // [depth]: the current node's first subtree (0: running)
  mutable std::vector<std::array<Sample, kSiblings>> below_;  // samples_below()'s sums
  mutable bool below_valid_ = false;
};

}  // namespace syncstress
