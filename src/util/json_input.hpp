// JSON a user hands the tool (presets, reports, baselines), parsed with limits: every reader of
// such a file goes through here, so that no input can crash the tool or reach it as anything
// but a UsageError.
//
// nlohmann::json copies, compares and prints values recursively, so a value nested a hundred
// thousand levels deep overflows the stack long after it was parsed. The nesting is checked in
// a first pass that builds nothing, and only a document within the limit is built.
#pragma once

#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace syncstress {

/// How deep arrays and objects may nest in a file the tool reads. Its own files nest five or
/// six levels; this leaves room for hand-written ones and none for a stack overflow.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// `text` parsed as JSON. Throws UsageError starting with "`origin`: " (the file's name) when it
/// is not valid JSON, nests deeper than kMaxJsonDepth, or holds a number too large for a double.
nlohmann::json parse_json_input(std::string_view text, std::string_view origin);

/// The same for everything `in` holds.
nlohmann::json parse_json_input(std::istream& in, std::string_view origin);

/// What a JSON error says, for a message: its explanation without the library's tag
/// ("[json.exception.type_error.302] ").
std::string json_error_text(const nlohmann::json::exception& e);

}  // namespace syncstress
