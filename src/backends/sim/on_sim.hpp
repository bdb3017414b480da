// The harness on the `sim` platform: wait times in the runtime's steps, objects named in its
// deadlock reports, and a claimed property that breaks ends the execution with a violation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "platform/sim.hpp"
#include "scenarios/harness.hpp"
#include "sim/runtime.hpp"

namespace syncstress::scenarios {

template <>
struct HarnessHooks<Sim> {
  static std::uint64_t now() { return sim::current_step(); }
  static void name(const void* object, const std::string& name) { sim::set_name(object, name); }
  /// The check's text is what the trace shows at the breach; the verdict comes from the
  /// Finding that PropertyChecks<Sim> recorded in the execution's Observations
  /// (scenarios/execution_verdict.hpp).
  static void found(const Finding& f, const source_location& where) {
    Sim::check(false, f.property + ": " + f.message, where);
  }
  /// Released at once: sim keeps destroyed frames' storage until the execution ends, and a
  /// wake names an address without touching it.
  static void retire(const std::shared_ptr<void>&) {}
  /// Returns once every other thread is blocked or has finished (sim/engine.hpp, "Quiescence").
  static void await_quiescence(source_location loc) { sim::await_quiescence(loc); }
};

}  // namespace syncstress::scenarios
