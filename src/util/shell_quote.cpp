#include "util/shell_quote.hpp"

#include <algorithm>

namespace syncstress {
namespace {

bool plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("-_./:=,+@%~").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_quote(std::string_view word) {
  if (!word.empty() && word.front() != '~' && std::all_of(word.begin(), word.end(), plain)) {
    return std::string(word);
  }
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace syncstress
