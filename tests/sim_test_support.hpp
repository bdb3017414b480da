// Strategies for the sim runtime's own tests: the real random strategy with call counters,
// and fixed policies that force particular interleavings.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "schedules/random_strategy.hpp"
#include "schedules/strategy.hpp"

namespace syncstress::sim_test {

/// schedules/ RandomStrategy (seeded; its first execution uses the seed itself), counting
/// what it was asked.
class SeededStrategy : public Strategy {
 public:
  explicit SeededStrategy(std::uint64_t seed) : random_(seed) { random_.new_execution(); }
  bool new_execution() override { return random_.new_execution(); }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool yielded) override {
    ++thread_choices;
    return random_.next_thread(runnable, current, yielded);
  }
  std::uint64_t next_u64(std::uint64_t bound) override {
    ++number_choices;
    return random_.next_u64(bound);
  }
  std::string describe() const override { return random_.describe(); }

  std::uint64_t thread_choices = 0;
  std::uint64_t number_choices = 0;

 private:
  RandomStrategy random_;
};

/// Always the lowest-numbered runnable thread, and 0 for every number.
class LowestStrategy : public Strategy {
 public:
  bool new_execution() override { return true; }
  std::size_t next_thread(std::span<const ThreadId>, ThreadId, bool) override { return 0; }
  std::uint64_t next_u64(std::uint64_t) override { return 0; }
  std::string describe() const override { return "test-lowest"; }
};

/// Switches to another thread at every choice (the next higher id, wrapping).
class AlternatingStrategy : public Strategy {
 public:
  bool new_execution() override { return true; }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current, bool) override {
    for (std::size_t i = 0; i < runnable.size(); ++i) {
      if (runnable[i] > current) return i;
    }
    return 0;
  }
  std::uint64_t next_u64(std::uint64_t) override { return 0; }
  std::string describe() const override { return "test-alternating"; }
};

}  // namespace syncstress::sim_test
