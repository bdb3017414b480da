// A report as one self-contained HTML page (`syncstress html`, `run --html`): the run's context,
// the cell table (sortable and filterable by verdict with JavaScript, readable without it),
// each cell's metrics drawn as inline SVG, and each violation with its replay command and, for
// sim executions, its trace as swimlanes with the breach step marked. Nothing is loaded from
// anywhere: no scripts, stylesheets, fonts or images but those inside the page.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/swimlane.hpp"

namespace syncstress::report {

/// What the page shows of one violation's execution besides the report's own fields.
struct ViolationTrace {
  /// The sim execution as swimlanes, its last step the breach; none for a Relacy or stress
  /// finding, whose trace is shown as the report has it.
  std::optional<SwimlaneTable> lanes{};
  /// Where the lanes came from, or why there are none; shown beside them when not empty.
  std::string note{};
};

/// The page of `report` (a document check_report accepts; every field it does not check may
/// be missing or of another type, and is then left out). `traces` has one entry per violation
/// in report order, cells first to last and each cell's violations in order (the numbering of
/// `syncstress replay --violation N`); a violation without an entry gets no swimlane.
std::string render_html(const nlohmann::json& report, const std::vector<ViolationTrace>& traces);

/// `text` with &, <, >, " and ' written as character references, and control characters
/// other than tab, newline and carriage return as U+FFFD: safe in element content and quoted
/// attributes.
std::string escape_html(std::string_view text);

}  // namespace syncstress::report
