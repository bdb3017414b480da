// Quoting for a POSIX shell, for the commands the tool prints for people to paste (replay).
#pragma once

#include <string>
#include <string_view>

namespace syncstress {

/// `word` as one shell word: unchanged when it is made only of letters, digits and
/// -_./:=,+@%~ (a '~' not first, where the shell would expand it), else in single quotes.
std::string shell_quote(std::string_view word);

}  // namespace syncstress
