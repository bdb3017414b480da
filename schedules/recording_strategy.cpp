#include "schedules/recording_strategy.hpp"

namespace syncstress {

bool RecordingStrategy::new_execution() {
  choices_.clear();
  return ForwardingStrategy::new_execution();
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

}  // namespace syncstress
