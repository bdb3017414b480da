// String building without `"literal" + std::string` chains, which g++ 12 at -O3 flags with
// false -Wrestrict warnings (GCC bug 105329) that -Werror turns into errors.
#pragma once

#include <string>
#include <string_view>

namespace syncstress {

/// Concatenates anything convertible to std::string_view.
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::string text;
  text.reserve((std::string_view(parts).size() + ... + 0));
  (text.append(std::string_view(parts)), ...);
  return text;
}

}  // namespace syncstress
