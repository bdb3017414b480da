// A decorator that records every answer of the strategy it wraps, so the runner can print
// the exact schedule of a failing execution.
#pragma once

#include "schedules/schedule.hpp"
#include "schedules/strategy.hpp"

namespace syncstress {

/// Forwards every call to `inner` and keeps each answer with its kind and bound. The record
/// restarts at each new_execution().
class RecordingStrategy final : public Strategy {
 public:
  /// Wraps `inner`, which must outlive this object.
  explicit RecordingStrategy(Strategy& inner) : inner_(inner) {}

  /// Forwards, and clears the record when an execution starts.
  bool new_execution() override;
  /// Forwards and records {kThread, index, runnable.size()}.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// Forwards and records {kNumber, answer, bound}.
  std::uint64_t next_u64(std::uint64_t bound) override;
  /// The inner strategy's description.
  std::string describe() const override { return inner_.describe(); }
  /// The inner strategy's execution seed.
  std::uint64_t execution_seed() const override { return inner_.execution_seed(); }
  /// The wrapped strategy's.
  bool explore_faults() const override { return inner_.explore_faults(); }
  bool observes_steps() const override { return inner_.observes_steps(); }
  void start_at(std::uint64_t index) override { inner_.start_at(index); }
  bool execution_counts() const override { return inner_.execution_counts(); }
  bool step_taken(ThreadId thread, std::span<const Access> accesses,
                  std::span<const ThreadId> runnable) override {
    return inner_.step_taken(thread, accesses, runnable);
  }
  void last_step(ThreadId thread, std::span<const Access> accesses,
                 std::span<const ThreadId> runnable) override {
    inner_.last_step(thread, accesses, runnable);
  }
  /// The inner strategy's generator, recorded here; none when the inner one has a recorder of
  /// its own (one record per draw only).
  UniformDraws uniform_draws() override {
    const UniformDraws inner = inner_.uniform_draws();
    if (inner.rng == nullptr || inner.record != nullptr) return {};
    return {inner.rng, &choices_};
  }

  /// The answers of the current (or last) execution so far.
  const std::vector<Choice>& choices() const { return choices_; }
  /// The current (or last) execution's schedule: description, seed and answers.
  Schedule schedule() const { return Schedule{describe(), execution_seed(), choices_}; }

 private:
  Strategy& inner_;
  std::vector<Choice> choices_;
};

}  // namespace syncstress
