// Where an exhaustive search's execution stands in the prefix partition of its shards
// (shard.hpp): the top of the choice tree that every shard walks, and the shard that owns the
// search below each prefix.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>

#include "schedules/shard.hpp"
#include "schedules/step_observer.hpp"

namespace syncstress {

/// Where a prefix of the partition ends, counted in one of two ways.
///
/// - The plain search explores every thread at every choice, so its prefix is its first
///   kShardPrefixThreadChoices thread choices: each path through them is alive.
/// - The reducing search counts contended steps: a step chosen at a thread choice that touches
///   an object another thread touched before it (one of the two writing). Its prefix explores
///   every thread at each of its choices, and its sleep sets end at once the branches that only
///   reorder independent steps (the set-up before the threads meet), so a prefix counted in
///   thread choices would leave one live prefix and one shard with all the work. A prefix ends
///   after kShardPrefixContendedSteps contended steps; its other threads' alternatives reorder
///   steps that meet, and most of them start classes of their own.
///
/// Both lengths are fixed, not derived from N, so that every N >= 2 splits the same search. An
/// unsharded search has no prefix: the reducing one then runs fewer executions than its shards
/// together, the same classes and the same executions that run to their end.
inline constexpr std::uint32_t kShardPrefixThreadChoices = 3;
inline constexpr std::uint32_t kShardPrefixContendedSteps = 6;

/// An exhaustive search's place in the prefix partition, kept by both searches: which prefix
/// the current execution is in, whether the shard owns it, and where in the path it ends.
class PrefixWalk {
 public:
  enum class Cut { thread_choices, contended_steps };

  PrefixWalk(Shard shard, Cut cut) : shard_(shard), cut_(cut) {}

  /// A new execution: after the first, the search backtracked to path index `node`; above the
  /// end of the last execution's prefix (or anywhere in one that ended early) is the next one.
  void begin_execution(bool first, std::size_t node) {
    if (!first && (end_ == kNoEnd || node < end_)) ++ordinal_;
    owned_ = shard_.owns(ordinal_);
    end_ = kNoEnd;
    counted_ = 0;
    touched_.clear();
  }
  /// A thread choice is asked at path index `depth`. Returns whether it is one of the prefix's
  /// (the search explores every thread there).
  bool thread_choice(std::size_t depth) {
    const bool in_prefix = counted_ < length();
    if (!in_prefix && end_ == kNoEnd) end_ = depth;
    if (cut_ == Cut::thread_choices) ++counted_;
    return in_prefix;
  }
  /// The step `thread` took and what it touched (Cut::contended_steps); `chosen` when a thread
  /// choice picked it.
  void step(ThreadId thread, std::span<const Access> accesses, bool chosen);
  /// A scheduling point at path index `depth` with `runnable` threads, before its thread
  /// choice: false when the prefix ends here and another shard owns it (end the execution).
  bool may_go_on(std::size_t runnable, std::size_t depth) {
    if (runnable < 2 || counted_ < length()) return true;
    if (end_ == kNoEnd) end_ = depth;
    return owned_;
  }
  /// Whether this shard owns the current execution's prefix.
  bool owned() const { return owned_; }
  /// Whether the search is split at all.
  bool sharded() const { return !shard_.whole(); }

  /// The state as [steps counted, end (-1: none), prefix number, owned], for checkpoints
  /// (taken between executions, when what the last one touched is no longer needed).
  std::array<std::int64_t, 4> state() const {
    return {counted_, end_ == kNoEnd ? -1 : static_cast<std::int64_t>(end_),
            static_cast<std::int64_t>(ordinal_), owned_ ? 1 : 0};
  }
  void set_state(const std::array<std::int64_t, 4>& s) {
    counted_ = static_cast<std::uint32_t>(s[0]);
    end_ = s[1] < 0 ? kNoEnd : static_cast<std::size_t>(s[1]);
    ordinal_ = static_cast<std::uint64_t>(s[2]);
    owned_ = s[3] != 0;
    touched_.clear();
  }

 private:
  static constexpr std::size_t kNoEnd = static_cast<std::size_t>(-1);
  /// The prefix's length; none when the search is not split, so that an unsharded search
  /// reduces at every choice.
  std::uint32_t length() const {
    if (!sharded()) return 0;
    return cut_ == Cut::thread_choices ? kShardPrefixThreadChoices : kShardPrefixContendedSteps;
  }
  /// The threads that read and that wrote an object in this execution, one bit per thread
  /// (threads from 63 on share the last bit, and do not see each other's touches).
  struct Touched {
    std::uint64_t readers = 0, writers = 0;
  };
  Shard shard_;
  Cut cut_;
  std::uint32_t counted_ = 0;  // thread choices or contended steps so far in this execution
  std::size_t end_ = kNoEnd;   // path index where this execution's prefix ended
  std::uint64_t ordinal_ = 0;  // the current prefix's number, depth first
  bool owned_ = true;
  std::unordered_map<std::uint64_t, Touched> touched_;  // until the prefix ends
};

}  // namespace syncstress
