// A cell's figures on the page: headline tiles, charts of its waits and counts, and every
// parameter and metric in a folded table. Metrics are the family's JSON (results/SCHEMA.md),
// shown as they are; a metric of another type than the schema's is left out of the tiles and
// charts and shown as it is in the table.
#pragma once

#include <string>

#include "scenarios/outcome.hpp"

namespace syncstress::report {

/// The figures of `cell`: tiles, charts, then the folded table of its parameters and metrics.
std::string cell_metrics_html(const CellResult& cell);

}  // namespace syncstress::report
