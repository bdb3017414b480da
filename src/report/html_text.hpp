// Text as the HTML page writes it: escaped for markup, numbers and JSON values as people read
// them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace syncstress::report {

/// `text` with &, <, >, " and ' written as character references, and control characters
/// other than tab, newline and carriage return as U+FFFD: safe in element content and quoted
/// attributes.
std::string escape_html(std::string_view text);

/// A whole number without decimals, one below 10 with three, any other with one.
std::string format_number(double v);

/// Seconds with two decimals below 10 s, one above: "0.25 s", "12.5 s".
std::string format_seconds(double s);

/// A JSON value in one line: strings as they are, arrays of scalars joined, the rest as JSON.
std::string format_value(const nlohmann::json& v);

}  // namespace syncstress::report
