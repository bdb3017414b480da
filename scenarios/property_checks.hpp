// The checks a family makes while an execution runs (PropertyChecks). What the execution
// amounted to is decided after it ends, from the Finding they leave in its Observations
// (scenarios/execution_verdict.hpp).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

#include "platform/platform.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/harness_hooks.hpp"

namespace syncstress::scenarios {

/// The property checks of one execution, made while it runs. A breach of a claimed property
/// records its Finding and ends the execution on the spot (so the counterexample's trace stops
/// at the breach); a breach of an unclaimed one is only counted.
template <Platform P>
class PropertyChecks {
 public:
  PropertyChecks(std::uint32_t claims, Observations& obs) : claims_(claims), obs_(obs) {}

  bool claims(Claim c) const { return (claims_ & c) != 0; }

  void require(Claim c, bool ok, const std::string& message,
               source_location loc = source_location::current()) {
    if (ok) return;
    if (!claims(c)) {
      const std::lock_guard<std::mutex> lock(mutex_);
      ++obs_.unclaimed[std::string(to_string(c))];
      return;
    }
    report(Finding{c, std::string(to_string(c)), message, loc.file_name(), loc.line()}, loc);
  }
  /// The same with the message made by `make_message`, only on a breach: a check made at every
  /// step of every execution builds no string while it holds. Where allocations are choices of
  /// the platform's scheduler (allocations_are_choices), it is made every time.
  template <class MakeMessage>
  requires std::is_invocable_r_v<std::string, MakeMessage&>
  void require(Claim c, bool ok, MakeMessage make_message,
               source_location loc = source_location::current()) {
    if (allocations_are_choices<P>() || !ok) require(c, ok, make_message(), loc);
  }
  /// The same with a fixed message, built into a string only on a breach (as above, every
  /// time where allocations are choices).
  void require(Claim c, bool ok, const char* message,
               source_location loc = source_location::current()) {
    if (allocations_are_choices<P>() || !ok) require(c, ok, std::string(message), loc);
  }
  /// A breach of the kind's own contract (primitives/README.md, "Kind interfaces"), which no
  /// claim names because every primitive is held to it: `property` is its id in reports. Ends
  /// the execution as a claimed breach does.
  void breach_of_kind(const std::string& property, const std::string& message,
                      source_location loc = source_location::current()) {
    report(Finding{std::nullopt, property, message, loc.file_name(), loc.line()}, loc);
  }

 private:
  void report(const Finding& f, const source_location& loc) {
    {
      // The first breach is the execution's finding (on real threads others may follow).
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!obs_.finding) obs_.finding = f;
    }
    HarnessHooks<P>::found(f, loc);
  }

  std::uint32_t claims_;
  Observations& obs_;
  // Harness state, not the model's: it never blocks a scheduling point (sim, Relacy run their
  // threads on one OS thread) and keeps real threads from racing on the observations.
  std::mutex mutex_;
};

}  // namespace syncstress::scenarios
