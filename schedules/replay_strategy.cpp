#include "schedules/replay_strategy.hpp"

#include "schedules/strategy_factory.hpp"

namespace syncstress {

std::string to_string(const Choice& choice) {
  return std::string(choice.kind == ChoiceKind::kThread ? "thread " : "number ") +
         std::to_string(choice.value) + " of " + std::to_string(choice.bound);
}

ReplayStrategy::ReplayStrategy(Schedule schedule)
    : schedule_(std::move(schedule)),
      faults_(describes_faults(schedule_.strategy)),
      reduced_(describes_reduced_search(schedule_.strategy)),
      memory_(described_memory(schedule_.strategy)) {}

std::optional<Execution> ReplayStrategy::new_execution() {
  if (started_) return std::nullopt;
  started_ = true;
  position_ = 0;
  Execution e;
  e.seed = schedule_.seed;
  e.faults = faults_;
  e.reduced = reduced_;
  e.memory = memory_;
  return e;
}

const Choice& ReplayStrategy::take(ChoiceKind kind, std::uint64_t bound) {
  const auto asked = [&] {
    return kind == ChoiceKind::kThread
               ? "a thread choice among " + std::to_string(bound) + " runnable threads"
               : "a number below " + std::to_string(bound);
  };
  const std::size_t i = position_;
  if (i >= schedule_.choices.size()) {
    diverged_ = true;
    throw ScheduleDivergence(i, "replay diverged at choice #" + std::to_string(i) +
                                    ": the program asked " + asked() +
                                    ", but the schedule has only " +
                                    std::to_string(schedule_.choices.size()) + " choices");
  }
  const Choice& c = schedule_.choices[i];
  if (c.kind != kind || c.bound != bound) {
    diverged_ = true;
    throw ScheduleDivergence(i, "replay diverged at choice #" + std::to_string(i) +
                                    ": the program asked " + asked() +
                                    ", but the schedule recorded " + to_string(c));
  }
  ++position_;
  return c;
}

std::size_t ReplayStrategy::next_thread(std::span<const ThreadId> runnable, ThreadId, bool) {
  return static_cast<std::size_t>(take(ChoiceKind::kThread, runnable.size()).value);
}

std::uint64_t ReplayStrategy::next_u64(std::uint64_t bound) {
  return take(ChoiceKind::kNumber, bound).value;
}

void ReplayStrategy::finish() const {
  if (position_ == schedule_.choices.size()) return;
  throw ScheduleDivergence(
      position_, "replay diverged: the execution ended after " + std::to_string(position_) +
                     " choices, but the schedule has " + std::to_string(schedule_.choices.size()));
}

std::unique_ptr<ReplayStrategy> make_replay_strategy(const Schedule& schedule) {
  return std::make_unique<ReplayStrategy>(schedule);
}

}  // namespace syncstress
