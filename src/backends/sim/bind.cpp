// Expands the primitive catalogue into sim bodies: for each line of SYNCSTRESS_PRIMITIVES, the
// family templates bound on the primitive's Sim instantiation (scenarios/bind_body.hpp).
#include "backends/bind.hpp"

#include "backends/sim/on_sim.hpp"
#include "primitives/all.hpp"
#include "scenarios/bind_body.hpp"

namespace syncstress::scenarios {

namespace {
ExtraBinders& extra_binders() {
  static ExtraBinders binders;
  return binders;
}
}  // namespace

bool register_extra_binder(ExtraBinder binder) {
  extra_binders().add(binder);
  return true;
}

std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims) {
  // A tool's own family is bound by the tool's binders alone (scenarios/tool_family.hpp).
  if (is_tool_family(family)) return extra_binders().bind(family, primitive, claims);
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary) \
  if (primitive == #tmpl) return bind_body<Sim, tmpl, kind, mode>(family, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return extra_binders().bind(family, primitive, claims);
}

}  // namespace syncstress::scenarios
