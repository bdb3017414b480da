// A schedule: the exact answers a strategy gave during one execution, in order.
//
// With the description and seed of the strategy that produced it, it is everything needed to
// replay the execution (replay_strategy.hpp) or print it (schedule_codec.hpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace syncstress {

/// Which Strategy call an answer came from.
enum class ChoiceKind : std::uint8_t {
  kThread,  ///< next_thread: value is an index into the runnable list, bound its size.
  kNumber,  ///< next_u64: value is the number drawn, bound the exclusive upper limit.
};

/// One answer of a strategy.
struct Choice {
  ChoiceKind kind = ChoiceKind::kThread;  ///< Which call asked.
  std::uint64_t value = 0;                ///< The answer, always < bound.
  std::uint64_t bound = 1;                ///< How many answers were possible (>= 1).

  friend bool operator==(const Choice&, const Choice&) = default;
};

/// Every answer of one execution plus what produced them.
struct Schedule {
  std::string strategy;         ///< The producer's description, e.g. "pct:d=3,k=400".
  std::uint64_t seed = 0;       ///< The seed of the execution (Execution::seed).
  std::vector<Choice> choices;  ///< In the order they were asked.

  friend bool operator==(const Schedule&, const Schedule&) = default;
};

/// A replay or an exhaustive re-run asked something the recorded schedule cannot answer: the
/// program under test did not behave as when the schedule was recorded (nondeterminism
/// outside the Strategy, or a schedule from another build or scenario).
class ScheduleDivergence : public std::runtime_error {
 public:
  /// `index` is the 0-based position of the offending choice.
  ScheduleDivergence(std::size_t index, const std::string& what)
      : std::runtime_error(what), index_(index) {}

  /// Position of the choice at which the program diverged.
  std::size_t index() const { return index_; }

 private:
  std::size_t index_;
};

/// Human-readable form of a choice, e.g. "thread 1 of 3" or "number 0 of 2".
std::string to_string(const Choice& choice);

}  // namespace syncstress
