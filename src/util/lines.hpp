// Text cut into lines: traces travel as one string (a pipe, a child's stdout) and are reported
// as one entry per step.
#pragma once

#include <string>
#include <vector>

namespace syncstress {

/// `text` cut at its newlines; a last line without a newline counts, an empty text has none.
std::vector<std::string> split_lines(const std::string& text);

/// The text before the first newline (all of it when there is none).
std::string first_line(const std::string& text);

}  // namespace syncstress
