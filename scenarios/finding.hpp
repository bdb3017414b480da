// What a family's check reports when a property breaks: typed data, not a prefixed string.
//
// A claimed property that breaks ends the execution (through the platform's check) and leaves
// its Finding in the execution's Observations; the execution's verdict
// (scenarios/execution_verdict.hpp) is made from that record. An unclaimed one is only counted,
// under the claim's name.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "primitives/catalog.hpp"

namespace syncstress::scenarios {

/// One broken property, as the check that saw it describes it.
struct Finding {
  /// The claim the property belongs to; none for what breaks every primitive alike (an
  /// exception escaping an actor).
  std::optional<Claim> claim;
  std::string property;  ///< its id in reports: the claim's name (to_string(Claim)), "exception"
  std::string message;   ///< one line for people
  std::string file;      ///< the check's call site in the scenario
  std::uint32_t line = 0;
};

/// Per-actor numbers of one execution.
struct ActorStats {
  std::uint64_t acquisitions = 0;
  std::uint64_t bypassed = 0;        ///< acquisitions by later arrivals while this one waited
  std::uint64_t max_bypassed = 0;    ///< the most bypasses suffered in a single wait
  std::vector<std::uint64_t> waits;  ///< clock ticks from arrival to acquisition, one per wait
  bool victim = false;               ///< a starvation victim (a writer, the lone actor)
};

/// What one execution observed, beyond what the platform reports. Filled by the family body,
/// judged (scenarios/execution_verdict.hpp) after the execution.
struct Observations {
  std::vector<ActorStats> actors;
  std::uint64_t fifo_violations = 0;
  /// The claimed property that ended the execution, if one did.
  std::optional<Finding> finding;
  /// Broken properties the primitive does not claim: counted, reported as metrics.
  std::map<std::string, std::uint64_t> unclaimed;
  /// Family-specific numbers of this execution (e.g. items processed).
  std::map<std::string, double> numbers;
};

}  // namespace syncstress::scenarios
