// A decorator that runs another strategy's executions under a memory model (Execution::memory)
// and says so in their producer's description, so that their schedules replay under it.
#pragma once

#include "schedules/forwarding_strategy.hpp"

namespace syncstress {

/// Forwards every answer to `inner`; each execution runs under `memory`. The execution's uniform
/// draws are kept: the answers are the inner strategy's, unchanged.
class MemoryModelStrategy final : public ForwardingStrategy {
 public:
  MemoryModelStrategy(Strategy& inner, MemoryModel memory)
      : ForwardingStrategy(inner), memory_(memory) {}

  Execution begin_execution(Execution started) override {
    started.memory = memory_;
    // Under sc the producer prints as it is: sc is what a schedule naming no model replays under.
    if (started.producer && memory_ == MemoryModel::c11) started.producer->memory = memory_;
    return started;
  }
  MemoryModel memory() const { return memory_; }

 private:
  MemoryModel memory_;
};

}  // namespace syncstress
