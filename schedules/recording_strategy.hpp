// A decorator that records every answer of the strategy it wraps, so the runner can print
// the exact schedule of a failing execution.
#pragma once

#include "schedules/forwarding_strategy.hpp"
#include "schedules/schedule.hpp"

namespace syncstress {

/// Forwards every call to `inner` and keeps each answer with its kind and bound. The record
/// restarts at each new_execution().
class RecordingStrategy final : public ForwardingStrategy {
 public:
  /// Wraps `inner`, which must outlive this object.
  explicit RecordingStrategy(Strategy& inner) : ForwardingStrategy(inner) {}

  /// Forwards, and clears the record when an execution starts.
  bool new_execution() override;
  /// Forwards and records {kThread, index, runnable.size()}.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// Forwards and records {kNumber, answer, bound}.
  std::uint64_t next_u64(std::uint64_t bound) override;
  /// The inner strategy's generator, recorded here; none when the inner one has a recorder of
  /// its own (one record per draw only).
  UniformDraws uniform_draws() override {
    const UniformDraws drawn = inner().uniform_draws();
    if (drawn.rng == nullptr || drawn.record != nullptr) return {};
    return {drawn.rng, &choices_};
  }

  /// The answers of the current (or last) execution so far.
  const std::vector<Choice>& choices() const { return choices_; }
  /// The current (or last) execution's schedule: description, seed and answers.
  Schedule schedule() const { return Schedule{describe(), execution_seed(), choices_}; }

 private:
  std::vector<Choice> choices_;
};

}  // namespace syncstress
