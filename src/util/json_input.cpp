#include "util/json_input.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace {

using nlohmann::json;

/// The first pass: follows the nesting, builds nothing, and stops at the first level too deep
/// or the first error, keeping what it found.
class NestingCheck final : public json::json_sax_t {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return enter(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override { return enter(); }
  bool end_array() override { return leave(); }
  bool parse_error(std::size_t position, const std::string& token,
                   const json::exception& e) override {
    error_ = Error{position, token, e.id, json_error_text(e)};
    return false;
  }

  struct Error {
    std::size_t position;  ///< bytes read when the parser gave up, `token` included
    std::string token;
    int id;  ///< nlohmann's exception id: 101 a syntax error, 406 a number overflow, ...
    std::string what;
  };
  const std::optional<Error>& error() const { return error_; }
  bool too_deep() const { return too_deep_; }

 private:
  bool enter() {
    if (++depth_ <= kMaxJsonDepth) return true;
    too_deep_ = true;
    return false;
  }
  bool leave() {
    --depth_;
    return true;
  }

  std::size_t depth_ = 0;
  bool too_deep_ = false;
  std::optional<Error> error_;
};

/// "line 3, column 7" of the byte at `position` of `text` (both counted from 1).
std::string line_and_column(std::string_view text, std::size_t position) {
  const std::string_view before = text.substr(0, std::min(position, text.size()));
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  const auto last_newline = before.rfind('\n');
  const auto column =
      last_newline == std::string_view::npos ? before.size() + 1 : before.size() - last_newline;
  return concat("line ", std::to_string(line), ", column ", std::to_string(column));
}

}  // namespace

nlohmann::json parse_json_input(std::string_view text, std::string_view origin) {
  NestingCheck check;
  const bool complete = json::sax_parse(text, &check);
  if (check.too_deep()) {
    throw UsageError(concat(origin, ": arrays and objects nest deeper than ",
                            std::to_string(kMaxJsonDepth),
                            " levels; no file of syncstress needs more than a few: check that "
                            "this is the file you meant"));
  }
  if (const auto& error = check.error()) {
    // A number beyond a double's range is the one error nlohmann reports as out_of_range.
    constexpr int kNumberOverflow = 406;
    if (error->id == kNumberOverflow) {
      const std::size_t start = error->position - std::min(error->position, error->token.size());
      throw UsageError(concat(origin, ": the number ", error->token, " at ",
                              line_and_column(text, start),
                              " is too large: numbers must fit a double (at most about 1.8e308)"));
    }
    throw UsageError(concat(origin, ": not valid JSON: ", error->what));
  }
  if (!complete) throw UsageError(concat(origin, ": not valid JSON"));
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    // The first pass accepted it, so nlohmann cannot refuse it now; kept as an input error
    // rather than an internal one should the two ever disagree.
    throw UsageError(concat(origin, ": not valid JSON: ", json_error_text(e)));
  }
}

std::string json_error_text(const nlohmann::json::exception& e) {
  // The library prefixes every explanation with "[json.exception.<kind>.<id>] ".
  const std::string_view what = e.what();
  const auto tag_end = what.starts_with("[json.exception.") ? what.find("] ") : what.npos;
  return std::string(tag_end == what.npos ? what : what.substr(tag_end + 2));
}

nlohmann::json parse_json_input(std::istream& in, std::string_view origin) {
  const std::string text(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
  if (in.bad()) throw UsageError(concat(origin, ": cannot be read"));
  return parse_json_input(text, origin);
}

}  // namespace syncstress
