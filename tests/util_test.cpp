// The generic helpers of src/util: name checks with a suggestion, shell quoting, lines.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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
