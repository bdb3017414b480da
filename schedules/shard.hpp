// One of N deterministic parts of a cell's work (`--shard K/N`), so that N processes on a batch
// engine cover a search exactly once between them and `syncstress merge` adds their reports up.
//
// - Seeded strategies (portfolio, random, pct; relacy-random): execution i of a run is a pure
//   function of the seed and i, so shard K of N runs the K-th of N contiguous ranges of the
//   planned executions.
// - The exhaustive searches: a prefix partition of the choice tree. Every shard walks the same
//   top of the tree (PrefixWalk::Cut in prefix_walk.hpp says where it ends: each path through
//   it is a prefix, numbered in depth-first order); the search below prefix j belongs to the
//   shard with j % N == K - 1. Another shard's prefix is run only up to where it ends (to learn
//   the steps the reduction's sleep sets need) and is not counted.
#pragma once

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

/// Parses "K/N" (1 <= K <= N <= 1,000,000). Returns nullopt when it does not parse.
std::optional<Shard> parse_shard(std::string_view text);

}  // namespace syncstress
