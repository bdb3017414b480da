// What the page carries of its own: its style sheet and its script, both inline (the page
// loads nothing from anywhere).
#pragma once

#include <string_view>

namespace syncstress::report {

/// The page's style sheet, the content of its <style> element.
extern const std::string_view kPageStyle;

/// The page's script, the content of its <script> element: sorting the cell table, filtering
/// it by verdict, folding the cells, copying replay commands. Everything the page shows is
/// there without it; the controls it drives are hidden until it runs.
extern const std::string_view kPageScript;

}  // namespace syncstress::report
