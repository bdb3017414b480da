// A strategy that passes every call to another: the base of the decorators that watch a
// strategy's answers (recording, logging) without changing them.
#pragma once

#include "schedules/strategy.hpp"

namespace syncstress {

/// Forwards every member to `inner`, which must outlive it. A decorator overrides what it
/// watches; it must override uniform_draws() when it watches answers, since forwarding it lets
/// the runtime draw them without asking (the default here gives none).
class ForwardingStrategy : public Strategy {
 public:
  explicit ForwardingStrategy(Strategy& inner) : inner_(inner) {}

  bool new_execution() override { return inner_.new_execution(); }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override {
    return inner_.next_thread(runnable, current, current_yielded);
  }
  std::uint64_t next_u64(std::uint64_t bound) override { return inner_.next_u64(bound); }
  std::string describe() const override { return inner_.describe(); }
  std::uint64_t execution_seed() const override { return inner_.execution_seed(); }
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

 protected:
  Strategy& inner() { return inner_; }

 private:
  Strategy& inner_;
};

}  // namespace syncstress
