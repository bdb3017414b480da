// The generic helpers of src/util: name checks with a suggestion, shell quoting, lines, the
// JSON reader of user files.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "util/json_input.hpp"
#include "util/known_names.hpp"
#include "util/lines.hpp"
#include "util/shell_quote.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace {

TEST(UtilKnownNames, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("random", "random"), 0u);
  EXPECT_EQ(edit_distance("randon", "random"), 1u);
  EXPECT_EQ(edit_distance("pc", "pct"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(UtilKnownNames, UnknownNameNamesTheFlagTheNearestAndEveryValidOne) {
  const std::vector<std::string> names = {"random", "pct", "exhaustive"};
  EXPECT_NO_THROW(require_known_name("schedule", "--schedule", "pct", names));
  try {
    require_known_name("schedule", "--schedule", "randon", names);
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("--schedule: unknown schedule 'randon'"), std::string::npos) << text;
    EXPECT_NE(text.find("did you mean 'random'?"), std::string::npos) << text;
    EXPECT_NE(text.find("\n  exhaustive"), std::string::npos) << text;
  }
}

TEST(UtilKnownNames, NoCandidatesSaysNoneIsAvailable) {
  try {
    require_known_name("scenario", "--scenario", "x", {});
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no scenario is available yet"), std::string::npos);
  }
}

/// The UsageError message parse_json_input gives for `text`, or "" when it accepts it.
std::string json_input_error(const std::string& text) {
  try {
    parse_json_input(text, "in.json");
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

TEST(UtilJsonInput, ParsesWhatNestsUpToTheLimit) {
  const std::size_t depth = kMaxJsonDepth;
  const auto doc = parse_json_input(std::string(depth, '[') + std::string(depth, ']'), "in.json");
  EXPECT_TRUE(doc.is_array());
  EXPECT_EQ(parse_json_input(R"({"a": [1, 2.5, "x", null]})", "in.json")["a"][1], 2.5);
}

TEST(UtilJsonInput, RefusesNestingBeyondTheLimitWithoutBuildingIt) {
  const std::size_t depth = kMaxJsonDepth + 1;
  EXPECT_NE(json_input_error(std::string(depth, '[') + std::string(depth, ']'))
                .find("in.json: arrays and objects nest deeper than 64 levels"),
            std::string::npos);
  // Deep enough to overflow the stack of any recursive walk, and left unclosed.
  std::string objects;
  for (int i = 0; i < 200'000; ++i) objects += R"({"a":)";
  EXPECT_NE(json_input_error(objects).find("nest deeper than 64 levels"), std::string::npos);
}

TEST(UtilJsonInput, ANumberBeyondADoubleIsAnInputErrorWithItsPlace) {
  EXPECT_EQ(json_input_error("{\n  \"x\": [1, -1e400]}"),
            "in.json: the number -1e400 at line 2, column 12 is too large: numbers must fit a "
            "double (at most about 1.8e308)");
  EXPECT_NE(json_input_error("[" + std::string(400, '9') + "]").find("is too large"),
            std::string::npos);
}

TEST(UtilJsonInput, SyntaxErrorsSayNotValidJsonAndWhere) {
  EXPECT_NE(json_input_error("{\"x\": ").find("in.json: not valid JSON: "), std::string::npos);
  EXPECT_NE(json_input_error("").find("in.json: not valid JSON: "), std::string::npos);
  EXPECT_NE(json_input_error("[1] 2").find("line 1, column"), std::string::npos);
}

TEST(UtilShellQuote, LeavesPlainWordsAndQuotesTheRest) {
  // A word and how a shell command spells it.
  const std::vector<std::pair<std::string, std::string>> words = {
      {"pct:d=3,k=10", "pct:d=3,k=10"},
      {"ss1.pct:d~3_k~74.7.B-x", "ss1.pct:d~3_k~74.7.B-x"},
      {"~/preset.json", "'~/preset.json'"},
      {"a b", "'a b'"},
      {"", "''"},
      {"$(x)", "'$(x)'"},
      {"note=it's", "'note=it'\\''s'"},
  };
  for (const auto& [word, quoted] : words) EXPECT_EQ(shell_quote(word), quoted) << word;
}

TEST(UtilLines, SplitKeepsALastLineWithoutNewlineAndFirstLineStopsAtTheFirst) {
  EXPECT_EQ(split_lines("a\nb\nc"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split_lines("a\n"), std::vector<std::string>{"a"});
  EXPECT_TRUE(split_lines("").empty());
  EXPECT_EQ(first_line("one\ntwo"), "one");
  EXPECT_EQ(first_line("only"), "only");
}

}  // namespace
}  // namespace syncstress
