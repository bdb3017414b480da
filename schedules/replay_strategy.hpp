// The replay strategy: gives back the answers of a recorded schedule, once.
#pragma once

#include <cstddef>
#include <memory>

#include "schedules/schedule.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// Answers each question with the next recorded choice. Throws ScheduleDivergence when the
/// program asks a different kind of question, with a different bound, or more questions than
/// were recorded; finish() reports choices left unused.
class ReplayStrategy final : public Strategy {
 public:
  /// Replays `schedule`.
  explicit ReplayStrategy(Schedule schedule);

  /// One execution, then nothing. It has the recorded producer's seed, and explores faults
  /// when the producer did (its description says ",faults=on"), so it asks the same questions.
  std::optional<Execution> new_execution() override;
  /// The next recorded thread choice.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// The next recorded number choice.
  std::uint64_t next_u64(std::uint64_t bound) override;

  /// Choices answered so far in this execution.
  std::size_t position() const { return position_; }
  /// Whether a question did not fit the schedule (next_thread or next_u64 threw
  /// ScheduleDivergence; the runtime ends such an execution with Outcome::exception).
  bool diverged() const { return diverged_; }
  /// Throws ScheduleDivergence if the execution ended before using every recorded choice.
  void finish() const;

 private:
  const Choice& take(ChoiceKind kind, std::uint64_t bound);

  Schedule schedule_;
  bool faults_;         // the producer explored faults
  bool reduced_;        // the producer followed Execution::reduced
  MemoryModel memory_;  // the producer's memory model
  std::size_t position_ = 0;
  bool started_ = false;
  bool diverged_ = false;
};

/// A replay strategy for `schedule`.
std::unique_ptr<ReplayStrategy> make_replay_strategy(const Schedule& schedule);

}  // namespace syncstress
