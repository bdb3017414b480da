#include "scenarios/family.hpp"

#include <cassert>
#include <deque>
#include <utility>

#include "scenarios/families/cancellation.hpp"
#include "scenarios/families/contention.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/families/work_queue.hpp"

namespace syncstress::scenarios {
namespace {

constexpr Family kFamilies[] = {Family::safety,       Family::fairness,         Family::starvation,
                                Family::cancellation, Family::spurious_wakeups, Family::progress};

/// The tools' families, by value less kFirstToolFamily. A deque: registering one moves none of
/// the others, so the names to_string hands out stay valid.
std::deque<ToolFamilyInfo>& tool_families() {
  static std::deque<ToolFamilyInfo> families;
  return families;
}

const ToolFamilyInfo& tool_family(Family family) {
  const auto index = static_cast<std::size_t>(static_cast<std::uint8_t>(family) - kFirstToolFamily);
  assert(index < tool_families().size() && "a Family value no tool registered");
  return tool_families()[index];
}

}  // namespace

Family register_tool_family(ToolFamilyInfo info) {
  auto& families = tool_families();
  assert(families.size() < 255u - kFirstToolFamily && "more tool families than Family holds");
  families.push_back(std::move(info));
  return static_cast<Family>(kFirstToolFamily + families.size() - 1);
}

std::vector<Family> all_families() {
  std::vector<Family> out(std::begin(kFamilies), std::end(kFamilies));
  for (std::size_t i = 0; i < tool_families().size(); ++i) {
    out.push_back(static_cast<Family>(kFirstToolFamily + i));
  }
  return out;
}

std::string_view to_string(Family family) {
  if (is_tool_family(family)) return tool_family(family).name;
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
  for (const Family f : all_families()) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

std::vector<ParamSpec> family_param_specs(Family family) {
  if (is_tool_family(family)) return tool_family(family).specs;
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
  if (is_tool_family(family)) return tool_family(family).headline;
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
  if (is_tool_family(family)) {
    for (const auto& p : all_primitives()) {
      if (p.kind == kind && p.mode == mode && tool_family(family).binds(p.name)) return true;
    }
    return false;
  }
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

bool applies(Family family, const PrimitiveInfo& primitive) {
  if (is_tool_family(family)) return tool_family(family).binds(primitive.name);
  return applies(family, primitive.kind, primitive.mode);
}

}  // namespace syncstress::scenarios
