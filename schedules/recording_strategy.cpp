#include "schedules/recording_strategy.hpp"

namespace syncstress {

Execution RecordingStrategy::begin_execution(Execution started) {
  choices_.clear();
  if (started.draws.rng == nullptr || started.draws.record != nullptr) {
    started.draws = {};
  } else {
    started.draws.record = &choices_;
  }
  execution_ = started;
  return started;
}

std::size_t RecordingStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId current,
                                           bool current_yielded) {
  const std::size_t index = ForwardingStrategy::next_thread(runnable, current, current_yielded);
  choices_.push_back(Choice{ChoiceKind::kThread, index, runnable.size()});
  return index;
}

std::uint64_t RecordingStrategy::next_u64(std::uint64_t bound) {
  const std::uint64_t value = ForwardingStrategy::next_u64(bound);
  choices_.push_back(Choice{ChoiceKind::kNumber, value, bound});
  return value;
}

std::optional<Schedule> RecordingStrategy::schedule() const {
  if (!execution_ || !execution_->producer) return std::nullopt;
  return Schedule{execution_->producer->describe(), execution_->seed, choices_};
}

}  // namespace syncstress
