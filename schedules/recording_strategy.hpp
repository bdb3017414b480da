// A decorator that records every answer of the strategy it wraps, so the runner can print
// the exact schedule of a failing execution.
#pragma once

#include <optional>
#include <vector>

#include "schedules/forwarding_strategy.hpp"
#include "schedules/schedule.hpp"

namespace syncstress {

/// Forwards every call to `inner` and keeps each answer with its kind and bound. The record
/// restarts at each execution.
class RecordingStrategy final : public ForwardingStrategy {
 public:
  /// Wraps `inner`, which must outlive this object.
  explicit RecordingStrategy(Strategy& inner) : ForwardingStrategy(inner) {}

  /// Clears the record and keeps what `started` says of itself. Its uniform draws are
  /// recorded here, unless the inner strategy records them itself: then they are asked through
  /// this decorator (one record per draw only).
  Execution begin_execution(Execution started) override;
  /// Forwards and records {kThread, index, runnable.size()}.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// Forwards and records {kNumber, answer, bound}.
  std::uint64_t next_u64(std::uint64_t bound) override;

  /// The answers of the current (or last) execution so far.
  const std::vector<Choice>& choices() const { return choices_; }
  /// The current (or last) execution's schedule: its producer's description, seed and answers.
  /// Nothing before the first execution, or for one that names no producer (a replay: its
  /// schedule is the one it was given).
  std::optional<Schedule> schedule() const;

 private:
  std::vector<Choice> choices_;
  std::optional<Execution> execution_;  // the current (or last) one
};

}  // namespace syncstress
