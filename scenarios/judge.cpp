#include "scenarios/judge.hpp"

namespace syncstress::scenarios {

Judgement judge(const sim::ExecutionResult& r, const Observations& obs, Family family,
                std::uint32_t claims) {
  Judgement j;
  const bool headline_claimed = (claims & headline_claim(family)) != 0;
  // In the families that inject a fault on purpose, what the fault breaks is the headline
  // property: a primitive that does not claim it is measured, not failed.
  const bool fault_family = family == Family::cancellation || family == Family::spurious_wakeups;
  switch (r.outcome) {
    case sim::Outcome::completed:
      return j;
    case sim::Outcome::violation:
      j.broken = true;
      j.claimed = !fault_family || headline_claimed;
      if (obs.finding) {
        j.property = obs.finding->property;
        j.message = obs.finding->message;
      } else {  // a check of the runtime's own (e.g. unlocking a mutex nobody holds)
        j.property = r.property;
        j.message = r.message;
      }
      return j;
    case sim::Outcome::step_bound:
      j = {true, (claims & kStarvationFreedom) != 0, "step_bound", r.message};
      return j;
    case sim::Outcome::deadlock:
    case sim::Outcome::frame_misuse:
    case sim::Outcome::exception:
      j = {true, !fault_family || headline_claimed, r.property, r.message};
      return j;
  }
  return j;
}

}  // namespace syncstress::scenarios
