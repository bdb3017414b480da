// Expands the primitive catalogue into scenario bodies: for each line of SYNCSTRESS_PRIMITIVES
// and each family that applies to its kind and mode, the family's template is instantiated on
// the primitive's Sim instantiation.
#include "primitives/all.hpp"
#include "scenarios/cell.hpp"
#include "scenarios/families/cancellation.hpp"
#include "scenarios/families/contention.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/families/work_queue.hpp"

namespace syncstress::scenarios {

std::vector<ParamSpec> family_param_specs(Family family) {
  switch (family) {
    case Family::safety:
      return safety::specs();
    case Family::fairness:
      return contention::fairness_specs();
    case Family::starvation:
      return contention::starvation_specs();
    case Family::cancellation:
      return cancellation::specs();
    case Family::spurious_wakeups:
    case Family::progress: {
      // Work queues run the work-queue body; the other kinds run the safety body.
      auto specs = work_queue::specs();
      for (auto& s : safety::specs()) specs.push_back(s);
      return specs;
    }
  }
  return {};
}

Claim headline_claim(Family family) {
  switch (family) {
    case Family::safety:
      return kMutualExclusion;
    case Family::fairness:
      return kFifoHandoff;
    case Family::starvation:
      return kStarvationFreedom;
    case Family::cancellation:
      return kCancellationSafety;
    case Family::spurious_wakeups:
      return kSpuriousWakeupTolerance;
    case Family::progress:
      return kNoLostWakeups;
  }
  return kMutualExclusion;
}

bool applies(Family family, Kind kind, Mode mode) {
  switch (family) {
    case Family::safety:
      return kind != Kind::work_queue;
    case Family::fairness:
      return kind == Kind::mutex || kind == Kind::semaphore;
    case Family::starvation:
      return kind == Kind::mutex || kind == Kind::semaphore || kind == Kind::shared_mutex;
    case Family::cancellation:
      return mode == Mode::async &&
             (kind == Kind::mutex || kind == Kind::shared_mutex || kind == Kind::semaphore);
    case Family::spurious_wakeups:
    case Family::progress:
      return true;
  }
  return false;
}

namespace {

template <template <class> class Tmpl, Kind K, Mode M>
std::optional<Body> bind_one(Family family, std::uint32_t claims) {
  using Prim = Tmpl<Sim>;
  if (!applies(family, K, M)) return std::nullopt;
  switch (family) {
    case Family::safety:
      if constexpr (K != Kind::work_queue) {
        return Body(
            [claims](Observations& o, const Params& p) { safety::run<K, M, Prim>(o, claims, p); });
      }
      break;
    case Family::fairness:
      if constexpr (K == Kind::mutex || K == Kind::semaphore) {
        return Body([claims](Observations& o, const Params& p) {
          contention::run_fairness<K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::starvation:
      if constexpr (K == Kind::mutex || K == Kind::semaphore || K == Kind::shared_mutex) {
        return Body([claims](Observations& o, const Params& p) {
          contention::run_starvation<K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::cancellation:
      if constexpr (M == Mode::async &&
                    (K == Kind::mutex || K == Kind::shared_mutex || K == Kind::semaphore)) {
        return Body([claims](Observations& o, const Params& p) {
          cancellation::run<K, M, Prim>(o, claims, p);
        });
      }
      break;
    case Family::spurious_wakeups:
    case Family::progress:
      if constexpr (K == Kind::work_queue) {
        return Body([claims](Observations& o, const Params& p) {
          work_queue::run<K, M, Prim>(o, claims, p);
        });
      } else {
        return Body(
            [claims](Observations& o, const Params& p) { safety::run<K, M, Prim>(o, claims, p); });
      }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Body> bind(Family family, std::string_view primitive, std::uint32_t claims) {
#define SYNCSTRESS_BIND(tmpl, kind, mode, source, claim_bits, summary) \
  if (primitive == #tmpl) return bind_one<tmpl, kind, mode>(family, claims);
  SYNCSTRESS_PRIMITIVES(SYNCSTRESS_BIND)
#undef SYNCSTRESS_BIND
  return std::nullopt;
}

}  // namespace syncstress::scenarios
