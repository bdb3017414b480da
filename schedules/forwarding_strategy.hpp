// A strategy that passes every call to another: the base of the decorators that watch a
// strategy's answers (recording, logging) without changing them.
#pragma once

#include <optional>

#include "schedules/strategy.hpp"

namespace syncstress {

/// Forwards every member to `inner`, which must outlive it. A decorator overrides what it
/// watches, and begin_execution() when it keeps something per execution.
class ForwardingStrategy : public Strategy {
 public:
  explicit ForwardingStrategy(Strategy& inner) : inner_(inner) {}

  /// The inner strategy's next execution, as begin_execution() hands it on.
  std::optional<Execution> new_execution() override {
    auto started = inner_.new_execution();
    if (started) started = begin_execution(*started);
    return started;
  }
  std::size_t next_thread(std::span<const ThreadId> runnable, ThreadId current,
                          bool current_yielded) override {
    return inner_.next_thread(runnable, current, current_yielded);
  }
  std::uint64_t next_u64(std::uint64_t bound) override { return inner_.next_u64(bound); }

  /// Starts watching `started`, an execution the inner strategy began (new_execution() calls
  /// it; so may whoever started the inner one itself), and returns it as it must run under this
  /// decorator: without uniform draws, so that every answer comes through next_thread and
  /// next_u64; with its step observer, which sees the steps as without the decorator.
  virtual Execution begin_execution(Execution started) {
    started.draws = {};
    return started;
  }

 protected:
  Strategy& inner() { return inner_; }

 private:
  Strategy& inner_;
};

}  // namespace syncstress
