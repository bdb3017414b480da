#include "scenarios/execution_verdict.hpp"

#include <utility>

namespace syncstress::scenarios {

namespace {

/// In the families that inject a fault on purpose, what the fault breaks is the headline
/// property: a primitive that does not claim it is measured, not failed. (A tool's own family
/// injects none: a deadlock or a crash fails it whatever the claims, as in safety.)
bool claimed_here(Family family, std::uint32_t claims) {
  const bool fault_family = family == Family::cancellation || family == Family::spurious_wakeups;
  return !fault_family || (claims & headline_claim(family)) != 0;
}

}  // namespace

ExecutionVerdict violation_verdict(const Observations& obs, Family family, std::uint32_t claims,
                                   std::string property, std::string message) {
  ExecutionVerdict j;
  j.broken = true;
  j.claimed = claimed_here(family, claims);
  if (obs.finding) {
    j.property = obs.finding->property;
    j.message = obs.finding->message;
  } else {
    j.property = std::move(property);
    j.message = std::move(message);
  }
  return j;
}

ExecutionVerdict sim_execution_verdict(const sim::ExecutionResult& r, const Observations& obs,
                                       Family family, std::uint32_t claims) {
  ExecutionVerdict j;
  switch (r.outcome) {
    case sim::Outcome::completed:
    case sim::Outcome::pruned:  // the reduction ended it: covered by another execution
      return j;
    case sim::Outcome::violation:
      // Without a Finding: a check of the runtime's own (e.g. unlocking a mutex nobody holds).
      return violation_verdict(obs, family, claims, r.property, r.message);
    case sim::Outcome::step_bound:
      j = {true, (claims & kStarvationFreedom) != 0, "step_bound", r.message};
      return j;
    case sim::Outcome::deadlock:
    case sim::Outcome::frame_misuse:
    case sim::Outcome::exception:
      j = {true, claimed_here(family, claims), r.property, r.message};
      return j;
  }
  return j;
}

}  // namespace syncstress::scenarios
