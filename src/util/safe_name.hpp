// Names that become part of a file name (a preset's name in the default report path): a closed
// character set and length, so that no name read from a file can point a write elsewhere.
#pragma once

#include <cstddef>
#include <string_view>

namespace syncstress {

inline constexpr std::size_t kMaxSafeNameLength = 64;

/// The rule, as messages and docs/running.md state it.
inline constexpr std::string_view kSafeNameRule =
    "1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-', the first a letter or a digit";

/// Whether `name` keeps kSafeNameRule: it cannot be ".", "..", absolute, or hold a '/', a NUL or
/// a control character.
bool is_safe_name(std::string_view name);

}  // namespace syncstress
