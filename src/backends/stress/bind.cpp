// Expands the primitive catalogue into bodies on the real platform, for stress mode: the same
// family templates src/backends/sim/bind.cpp binds on Sim, bound on Real.
#include "backends/bind.hpp"

#include "backends/stress/bind_on_real.hpp"
#include "primitives/all.hpp"

namespace syncstress::scenarios {

namespace {
ExtraBinders& extra_binders() {
  static ExtraBinders binders;
  return binders;
}
}  // namespace

bool register_extra_real_binder(ExtraBinder binder) {
  extra_binders().add(binder);
  return true;
}

std::optional<Body> bind_real(Family family, std::string_view primitive, std::uint32_t claims) {
  // A tool's own family is bound by the tool's binders alone (scenarios/tool_family.hpp).
  if (is_tool_family(family)) return extra_binders().bind(family, primitive, claims);
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary) \
  if (primitive == #tmpl) return bind_on_real<tmpl, kind, mode>(family, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return extra_binders().bind(family, primitive, claims);
}

}  // namespace syncstress::scenarios
