// The round-robin strategy: a fixed rotation, one step per thread per turn.
#pragma once

#include "schedules/strategy.hpp"

namespace syncstress {

/// At every choice, runs the lowest-numbered runnable thread after `current` (wrapping
/// around), so every runnable thread gets a step in turn. next_u64 always answers 0 (no
/// fault injected, first waiter woken, first item taken). One execution, then done: there
/// is nothing else to try.
class RoundRobinStrategy final : public Strategy {
 public:
  /// One execution, named "round-robin"; then nothing.
  std::optional<Execution> new_execution() override;
  /// The next runnable thread after `current` in id order.
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override;
  /// Always 0.
  std::uint64_t next_u64(std::uint64_t bound) override;

 private:
  bool started_ = false;
};

}  // namespace syncstress
