// A family's body bound to one primitive on one platform: the one place where a family, a
// kind and a mode meet a primitive's template. The sim cells (src/backends/sim/bind.cpp) bind on
// Sim, syncstress-relacy on Relacy, from the same family templates. (A tool's own families bind in
// its registration units: scenarios/tool_family.hpp.)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "platform/platform.hpp"
#include "primitives/catalog.hpp"
#include "scenarios/families/cancellation.hpp"
#include "scenarios/families/contention.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/families/work_queue.hpp"
#include "scenarios/family.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/params.hpp"

namespace syncstress::scenarios {

/// One execution's body: runs as the platform's first thread and fills the observations.
using Body = std::function<void(Observations&, const Params&)>;

/// The body of built-in `family` for primitive `Tmpl<P>` of kind K and mode M, judging against
/// `claims`; nullopt when the family does not apply to the kind and mode, and for a tool's own
/// family, which only the tool's registration units bind (scenarios/tool_family.hpp).
template <Platform P, template <class> class Tmpl, Kind K, Mode M>
std::optional<Body> bind_body(Family family, std::uint32_t claims) {
  using Prim = Tmpl<P>;
  if (is_tool_family(family) || !applies(family, K, M)) return std::nullopt;
  switch (family) {
    case Family::safety:
      if constexpr (K != Kind::work_queue) {
        return Body([claims](Observations& o, const Params& p) {
          safety::run<P, K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::fairness:
      if constexpr (K == Kind::mutex || K == Kind::semaphore) {
        return Body([claims](Observations& o, const Params& p) {
          contention::run_fairness<P, K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::starvation:
      if constexpr (K == Kind::mutex || K == Kind::semaphore || K == Kind::shared_mutex) {
        return Body([claims](Observations& o, const Params& p) {
          contention::run_starvation<P, K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::cancellation:
      if constexpr (M == Mode::async &&
                    (K == Kind::mutex || K == Kind::shared_mutex || K == Kind::semaphore)) {
        return Body([claims](Observations& o, const Params& p) {
          cancellation::run<P, K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::spurious_wakeups:
    case Family::progress:
      if constexpr (K == Kind::work_queue) {
        return Body([claims](Observations& o, const Params& p) {
          work_queue::run<P, K, M, Prim>(o, claims, p);
        });
      } else {
        return Body([claims](Observations& o, const Params& p) {
          safety::run<P, K, M, Prim>(o, claims, p);
        });
      }
  }
  return std::nullopt;
}

}  // namespace syncstress::scenarios
