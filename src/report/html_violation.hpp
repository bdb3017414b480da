// One violation on the page: the broken property and its message, what the report says of its
// execution, its replay command, and its trace (as swimlanes for a sim execution).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "report/swimlane.hpp"
#include "scenarios/outcome.hpp"

namespace syncstress::report {

/// What the page shows of one violation's execution besides the report's own fields.
struct ViolationTrace {
  /// The sim execution as swimlanes, its last step the breach; none for a Relacy or stress
  /// finding, whose trace is shown as the report has it.
  std::optional<SwimlaneTable> lanes{};
  /// Where the lanes came from, or why there are none; shown beside them when not empty.
  std::string note{};
};

/// The section of violation `v`, the `number`-th of the report (its anchor is
/// "violation-<number>"), with `trace` when not null.
std::string violation_html(const Violation& v, std::size_t number, const ViolationTrace* trace);

}  // namespace syncstress::report
