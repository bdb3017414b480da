#include "report/html_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/markup.hpp"

namespace syncstress::report {

using nlohmann::json;

std::string escape_html(std::string_view text) {
  // U+FFFD for a control character: it has no place in a page.
  return escape_markup(text, {"&#39;", "\xEF\xBF\xBD", /*del_too=*/true});
}

std::string format_number(double v) {
  char buf[64];
  if (!std::isfinite(v)) {
    std::snprintf(buf, sizeof buf, "%g", v);
  } else if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (std::fabs(v) < 10) {
    std::snprintf(buf, sizeof buf, "%.3f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  }
  return buf;
}

std::string format_seconds(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.2f s" : "%.1f s", s);
  return buf;
}

std::string format_value(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "none";
  if (v.is_array() && std::all_of(v.begin(), v.end(), [](const json& e) {
        return e.is_string() || e.is_number() || e.is_boolean();
      })) {
    std::string out;
    for (const auto& e : v) {
      if (!out.empty()) out += ' ';
      out += format_value(e);
    }
    return out;
  }
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace syncstress::report
