// Text from files the user did not write (a report's names and messages, a preset's fields) as
// it may be shown on a terminal: nothing in it can move the cursor, recolour, retitle the
// window or rewrite an earlier line.
#pragma once

#include <string>
#include <string_view>

namespace syncstress {

/// `text` with every control character (C0, DEL, and C1 written in UTF-8) and every byte that
/// is not part of valid UTF-8 escaped as `\xNN`. One line: '\n' is escaped too.
std::string printable(std::string_view text);

/// printable(), but each '\n' kept: for messages of several lines.
std::string printable_lines(std::string_view text);

}  // namespace syncstress
