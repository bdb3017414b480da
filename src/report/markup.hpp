// Escaping text for markup: the one loop behind the HTML page's and the JUnit file's escapes.
#pragma once

#include <string>
#include <string_view>

namespace syncstress::report {

/// How escape_markup writes what it does not copy.
struct MarkupEscape {
  std::string_view apostrophe;  ///< for ': "&#39;" (HTML) or "&apos;" (XML)
  std::string_view control;     ///< for a control character other than tab, newline, CR
  bool del_too = false;         ///< DEL (0x7f) counts as a control character
};

/// `text` with &, <, > and " written as character references, ' as `how.apostrophe` and
/// control characters as `how.control`: safe in element content and quoted attributes.
std::string escape_markup(std::string_view text, const MarkupEscape& how);

}  // namespace syncstress::report
