// Strategies for the sim runtime's own tests: the real random strategy with call counters,
// and fixed policies that force particular interleavings.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include "schedules/random_strategy.hpp"
#include "schedules/strategy.hpp"
#include "sim/runtime.hpp"

namespace syncstress::sim_test {

/// schedules/ RandomStrategy (seeded; its first execution uses the seed itself), counting
/// what it was asked: every answer comes through next_thread and next_u64.
class SeededStrategy : public Strategy {
 public:
  explicit SeededStrategy(std::uint64_t seed) : random_(seed) {}
  std::optional<Execution> new_execution() override {
    auto started = random_.new_execution();
    started->draws = {};
    return started;
  }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool yielded) override {
    ++thread_choices;
    return random_.next_thread(runnable, current, yielded);
  }
  std::uint64_t next_u64(std::uint64_t bound) override {
    ++number_choices;
    return random_.next_u64(bound);
  }

  std::uint64_t thread_choices = 0;
  std::uint64_t number_choices = 0;

 private:
  RandomStrategy random_;
};

/// Always the lowest-numbered runnable thread, and 0 for every number; never runs out.
class LowestStrategy : public Strategy {
 public:
  std::optional<Execution> new_execution() override { return Execution{}; }
  std::size_t next_thread(std::span<const ThreadId>, ThreadId, bool) override { return 0; }
  std::uint64_t next_u64(std::uint64_t) override { return 0; }
};

/// Switches to another thread at every choice (the next higher id, wrapping).
class AlternatingStrategy : public Strategy {
 public:
  std::optional<Execution> new_execution() override { return Execution{}; }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current, bool) override {
    for (std::size_t i = 0; i < runnable.size(); ++i) {
      if (runnable[i] > current) return i;
    }
    return 0;
  }
  std::uint64_t next_u64(std::uint64_t) override { return 0; }
};

/// Starts the next execution of `strategy` and runs `main` in it on `runtime`.
inline sim::ExecutionResult run(sim::Runtime& runtime, Strategy& strategy,
                                std::function<void()> main) {
  const auto execution = strategy.new_execution();
  if (!execution) throw std::logic_error("the strategy has no execution left");
  return runtime.run(strategy, *execution, std::move(main));
}

}  // namespace syncstress::sim_test
