// A sim execution on the page: its trace as an HTML table of swimlanes.
#pragma once

#include <string>

#include "report/swimlane.hpp"

namespace syncstress::report {

/// `table` as an HTML table: a column per thread, a row per step; the harness's steps hidden
/// behind a checkbox (CSS only) with a row saying how many; the last step, where the property
/// broke, in a tbody with the class "breach" and the id `<anchor>-breach`, `breach` (the
/// property and its message) under it.
std::string swimlane_html(const SwimlaneTable& table, const std::string& anchor,
                          const std::string& breach);

}  // namespace syncstress::report
