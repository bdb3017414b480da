// Strict parsing of numeric flags: the whole text must be a number inside the allowed range,
// and the error names the flag and the range.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace syncstress::cli {

/// Parses a decimal whole number in [min, max]; throws UsageError naming `flag` otherwise.
std::uint64_t parse_whole(std::string_view flag, std::string_view text, std::uint64_t min,
                          std::uint64_t max);

/// Parses a finite decimal number in [min, max]; throws UsageError naming `flag` otherwise.
double parse_decimal(std::string_view flag, std::string_view text, double min, double max);

/// Splits "key=value" (key non-empty, value may be empty); throws UsageError naming `flag`.
std::pair<std::string, std::string> parse_assignment(std::string_view flag, std::string_view text);

/// parse_assignment of each of `texts` (a repeated flag), by key; throws UsageError naming
/// `flag` when a key is given twice.
std::map<std::string, std::string> parse_assignments(std::string_view flag,
                                                     const std::vector<std::string>& texts);

}  // namespace syncstress::cli
