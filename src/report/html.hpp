// A report as one self-contained HTML page (`syncstress html`, `run --html`): the run's context,
// the cell table (sortable and filterable by verdict with JavaScript, readable without it),
// each cell's metrics drawn as inline SVG, and each violation with its replay command and, for
// sim executions, its trace as swimlanes with the breach step marked. Nothing is loaded from
// anywhere: no scripts, stylesheets, fonts or images but those inside the page.
#pragma once

#include <string>
#include <vector>

#include "report/html_violation.hpp"
#include "report/typed_report.hpp"

namespace syncstress::report {

/// The page of `report`. `traces` has one entry per violation in report order, cells first to
/// last and each cell's violations in order (the numbering of `syncstress replay --violation
/// N`); a violation without an entry gets no swimlane.
std::string render_html(const TypedReport& report, const std::vector<ViolationTrace>& traces);

}  // namespace syncstress::report
