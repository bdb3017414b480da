#include "util/safe_name.hpp"

namespace syncstress {
namespace {

bool alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

bool is_safe_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxSafeNameLength || !alnum(name.front())) return false;
  for (const char c : name) {
    if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace syncstress
