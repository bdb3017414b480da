// The primitive catalogue as data, for `syncstress list primitives` and the reports.
#include "primitives/catalog.hpp"

#include <vector>

namespace syncstress {

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::mutex:
      return "mutex";
    case Kind::shared_mutex:
      return "shared_mutex";
    case Kind::semaphore:
      return "semaphore";
    case Kind::event:
      return "event";
    case Kind::work_queue:
      return "work_queue";
  }
  return "?";
}

std::string_view to_string(Mode mode) { return mode == Mode::sync ? "sync" : "async"; }

std::string_view to_string(Claim claim) {
  switch (claim) {
    case kMutualExclusion:
      return "mutual_exclusion";
    case kFifoHandoff:
      return "fifo_handoff";
    case kStarvationFreedom:
      return "starvation_freedom";
    case kCancellationSafety:
      return "cancellation_safety";
    case kSpuriousWakeupTolerance:
      return "spurious_wakeup_tolerance";
    case kNoLostWakeups:
      return "no_lost_wakeups";
  }
  return "?";
}

namespace {
#define SYNCSTRESS_INFO_ROW(tmpl, kind, mode, source, claims, summary) \
  PrimitiveInfo{#tmpl, kind, mode, source, claims, summary},
constexpr PrimitiveInfo kNone{"", Kind::mutex, Mode::sync, "", 0, ""};
constexpr PrimitiveInfo kRows[] = {SYNCSTRESS_PRIMITIVES(SYNCSTRESS_INFO_ROW) kNone};
#undef SYNCSTRESS_INFO_ROW

std::vector<std::span<const PrimitiveInfo>>& extra_rows() {
  static std::vector<std::span<const PrimitiveInfo>> rows;
  return rows;
}

bool& builtins_hidden() {
  static bool hidden = false;
  return hidden;
}
}  // namespace

bool register_extra_primitives(std::span<const PrimitiveInfo> rows) {
  extra_rows().push_back(rows);
  return true;
}

bool hide_builtin_primitives() {
  builtins_hidden() = true;
  return true;
}

std::span<const PrimitiveInfo> all_primitives() {
  // Built on first use, after every static initializer has registered its rows.
  static const std::vector<PrimitiveInfo> rows = [] {
    std::vector<PrimitiveInfo> out;
    if (!builtins_hidden()) out.assign(kRows, kRows + std::size(kRows) - 1);  // minus the sentinel
    for (const auto extra : extra_rows()) out.insert(out.end(), extra.begin(), extra.end());
    return out;
  }();
  return rows;
}

}  // namespace syncstress
