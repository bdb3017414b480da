#include "scenarios/execution_watch.hpp"

#include "sim/runtime.hpp"
#include "util/interrupt.hpp"

namespace syncstress::scenarios {
namespace {

class NoWatch final : public ExecutionWatch {
 public:
  void in_flight(const Note*) override {}
  void progress() noexcept override {}
};

}  // namespace

bool ExecutionWatch::stop_requested() const noexcept { return interrupt::requested() != 0; }

ExecutionWatch& no_watch() {
  static NoWatch watch;
  return watch;
}

void note_position(nlohmann::json& note) {
  if (sim::current_step() == 0) return;
  note["thread"] = sim::current_thread();
  note["step"] = sim::current_step();
}

}  // namespace syncstress::scenarios
