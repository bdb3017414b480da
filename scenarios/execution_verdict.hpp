// The verdict on one execution (ExecutionVerdict), made once it has ended: what it amounted to,
// from its typed record (the Finding a family's property checks left in the Observations, or
// what the platform itself saw), against the primitive's claims and the family's rules. A cell's
// verdict (scenarios/outcome.hpp) is made from its executions' verdicts.
#pragma once

#include <cstdint>
#include <string>

#include "scenarios/family.hpp"
#include "scenarios/finding.hpp"
#include "sim/runtime.hpp"

namespace syncstress::scenarios {

/// What one execution amounted to, judged against the primitive's claims.
struct ExecutionVerdict {
  bool broken = false;   // some property broke (claimed or not)
  bool claimed = false;  // ... and the primitive claims it: the cell fails
  std::string property;
  std::string message;
};

/// A property broke in an execution: the Finding a family's check left in `obs`, or else
/// `property` and `message` (what the platform itself saw). Claimed unless the family injects
/// that very fault on purpose (cancellation, spurious wake-ups) and the primitive does not make
/// the family's headline claim. Shared by the sim and stress cells.
ExecutionVerdict violation_verdict(const Observations& obs, Family family, std::uint32_t claims,
                                   std::string property, std::string message);

/// The verdict on one sim execution, from its typed record: the Finding a family's check left
/// in `obs`, or what the runtime itself saw (a deadlock, the step bound, a misused frame, an
/// exception).
ExecutionVerdict sim_execution_verdict(const sim::ExecutionResult& r, const Observations& obs,
                                       Family family, std::uint32_t claims);

}  // namespace syncstress::scenarios
