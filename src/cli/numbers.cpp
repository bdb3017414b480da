#include "cli/numbers.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::uint64_t parse_whole(std::string_view flag, std::string_view text, std::uint64_t min,
                          std::uint64_t max) {
  const std::string range = concat(std::to_string(min), "..", std::to_string(max));
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  // from_chars takes no sign, no spaces and no "0x": exactly the digits we accept.
  const auto [ptr, error] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ptr != end || error == std::errc::invalid_argument) {
    throw UsageError(concat(flag, ": '", text, "' is not a whole number; allowed range ", range));
  }
  if (error == std::errc::result_out_of_range || value < min || value > max) {
    throw UsageError(concat(flag, ": ", text, " is out of range; allowed range ", range));
  }
  return value;
}

double parse_decimal(std::string_view flag, std::string_view text, double min, double max) {
  const std::string range = concat(format_number(min), "..", format_number(max));
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  // from_chars also takes "nan" and "inf"; a flag value is written with digits only.
  const bool digits_only = text.find_first_not_of("0123456789.-") == std::string_view::npos;
  if (text.empty() || !digits_only || ptr != end || error == std::errc::invalid_argument) {
    throw UsageError(concat(flag, ": '", text, "' is not a decimal number; allowed range ", range));
  }
  if (error == std::errc::result_out_of_range || !std::isfinite(value) || value < min ||
      value > max) {
    throw UsageError(concat(flag, ": ", text, " is out of range; allowed range ", range));
  }
  return value;
}

std::pair<std::string, std::string> parse_assignment(std::string_view flag, std::string_view text) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    throw UsageError(concat(flag, ": '", text, "' is not of the form key=value"));
  }
  return {std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

std::map<std::string, std::string> parse_assignments(std::string_view flag,
                                                     const std::vector<std::string>& texts) {
  std::map<std::string, std::string> out;
  for (const auto& text : texts) {
    auto [key, value] = parse_assignment(flag, text);
    if (const auto it = out.find(key); it != out.end()) {
      throw UsageError(concat(flag, " ", key, "= is given twice (", key, "=", it->second, " and ",
                              text, "); set each parameter once"));
    }
    out.emplace(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace syncstress::cli
