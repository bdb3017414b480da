// Strategies for the sim runtime's own tests (until they move to schedules/).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>

#include "schedules/strategy.hpp"

namespace syncstress::sim_test {

/// Uniformly random choices from a seeded std::mt19937_64; counts what it was asked.
class SeededStrategy : public Strategy {
 public:
  explicit SeededStrategy(std::uint64_t seed) : rng_(seed) {}
  bool new_execution() override { return true; }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId, bool) override {
    ++thread_choices;
    return std::uniform_int_distribution<std::size_t>(0, runnable.size() - 1)(rng_);
  }
  std::uint64_t next_u64(std::uint64_t bound) override {
    ++number_choices;
    return std::uniform_int_distribution<std::uint64_t>(0, bound - 1)(rng_);
  }
  std::string describe() const override { return "test-seeded"; }

  std::uint64_t thread_choices = 0;
  std::uint64_t number_choices = 0;

 private:
  std::mt19937_64 rng_;
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
