// One of N deterministic parts of a cell's work (`--shard K/N`), so that N processes on a batch
// engine cover a search exactly once between them and `syncstress merge` adds their reports up.
//
// - Seeded strategies (portfolio, random, pct; relacy-random): execution i of a run is a pure
//   function of the seed and i, so shard K of N runs the K-th of N contiguous ranges of the
//   planned executions.
// - The exhaustive searches: a prefix partition of the choice tree. Every shard walks the same
//   top of the tree (the choices up to the kShardPrefixThreadChoices-th thread choice: each path
//   through it is a prefix, numbered in depth-first order); the search below prefix j belongs to
//   the shard with j % N == K - 1. Another shard's prefix is run only up to where it ends (to
//   learn the steps the reduction's sleep sets need) and is not counted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace syncstress {

struct Shard {
  std::uint32_t index = 0;  ///< 0-based: `--shard 1/3` is index 0
  std::uint32_t count = 1;

  bool whole() const { return count == 1; }
  /// The executions [first, end) of `total` that this shard runs (seeded strategies).
  std::pair<std::uint64_t, std::uint64_t> range(std::uint64_t total) const {
    const auto bound = [&](std::uint64_t k) {
      // total * k / count without overflow for any 64-bit total.
      return total / count * k + total % count * k / count;
    };
    return {bound(index), bound(index + std::uint64_t{1})};
  }
  /// Whether the search below prefix `ordinal` (depth-first order) is this shard's.
  bool owns(std::uint64_t ordinal) const { return ordinal % count == index; }
  /// "2/3" (1-based, as the flag is written).
  std::string describe() const { return std::to_string(index + 1) + "/" + std::to_string(count); }
};

/// How deep the exhaustive searches' prefix partition cuts: the thread choices of a prefix.
/// Fixed, not derived from N, so that every N splits the same search (the reducing search
/// explores every thread at these choices, which its unsharded run does too).
inline constexpr std::uint32_t kShardPrefixThreadChoices = 3;

/// An exhaustive search's place in the prefix partition, kept by both searches: which prefix
/// the current execution is in, whether the shard owns it, and where in the path it ends.
class PrefixWalk {
 public:
  explicit PrefixWalk(Shard shard) : shard_(shard) {}

  /// A new execution: after the first, the search backtracked to path index `node`; above the
  /// end of the last execution's prefix (or anywhere in one that ended early) is the next one.
  void begin_execution(bool first, std::size_t node) {
    if (!first && (end_ == kNoEnd || node < end_)) ++ordinal_;
    owned_ = shard_.owns(ordinal_);
    end_ = kNoEnd;
    thread_choices_ = 0;
  }
  /// A thread choice is asked at path index `depth`. Returns whether it is one of the prefix's
  /// (the reducing search explores every thread there).
  bool thread_choice(std::size_t depth) {
    const bool in_prefix = thread_choices_ < kShardPrefixThreadChoices;
    if (!in_prefix && end_ == kNoEnd) end_ = depth;
    ++thread_choices_;
    return in_prefix;
  }
  /// A scheduling point at path index `depth` with `runnable` threads, before its thread
  /// choice: false when the prefix ends here and another shard owns it (end the execution).
  bool may_go_on(std::size_t runnable, std::size_t depth) {
    if (runnable < 2 || thread_choices_ != kShardPrefixThreadChoices) return true;
    if (end_ == kNoEnd) end_ = depth;
    return owned_;
  }
  /// Whether this shard owns the current execution's prefix.
  bool owned() const { return owned_; }
  /// Whether the search is split at all.
  bool sharded() const { return !shard_.whole(); }

  /// The state as [thread choices, end (-1: none), prefix number, owned], for checkpoints.
  std::array<std::int64_t, 4> state() const {
    return {thread_choices_, end_ == kNoEnd ? -1 : static_cast<std::int64_t>(end_),
            static_cast<std::int64_t>(ordinal_), owned_ ? 1 : 0};
  }
  void set_state(const std::array<std::int64_t, 4>& s) {
    thread_choices_ = static_cast<std::uint32_t>(s[0]);
    end_ = s[1] < 0 ? kNoEnd : static_cast<std::size_t>(s[1]);
    ordinal_ = static_cast<std::uint64_t>(s[2]);
    owned_ = s[3] != 0;
  }

 private:
  static constexpr std::size_t kNoEnd = static_cast<std::size_t>(-1);
  Shard shard_;
  std::uint32_t thread_choices_ = 0;  // made so far in this execution
  std::size_t end_ = kNoEnd;          // path index where this execution's prefix ended
  std::uint64_t ordinal_ = 0;         // the current prefix's number, depth first
  bool owned_ = true;
};

/// Parses "K/N" (1 <= K <= N <= 1,000,000). Returns nullopt when it does not parse.
std::optional<Shard> parse_shard(std::string_view text);

}  // namespace syncstress
