#include "scenarios/family.hpp"

#include <utility>

#include "scenarios/families/cancellation.hpp"
#include "scenarios/families/contention.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/families/work_queue.hpp"

namespace syncstress::scenarios {
namespace {

constexpr Family kFamilies[] = {Family::safety,       Family::fairness,         Family::starvation,
                                Family::cancellation, Family::spurious_wakeups, Family::progress};

}  // namespace

std::span<const Family> all_families() { return kFamilies; }

std::string_view to_string(Family family) {
  switch (family) {
    case Family::safety:
      return "safety";
    case Family::fairness:
      return "fairness";
    case Family::starvation:
      return "starvation";
    case Family::cancellation:
      return "cancellation";
    case Family::spurious_wakeups:
      return "spurious-wakeups";
    case Family::progress:
      return "progress";
  }
  return "?";
}

std::optional<Family> family_from_string(std::string_view name) {
  for (const Family f : kFamilies) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

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

}  // namespace syncstress::scenarios
