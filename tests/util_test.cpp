// The generic helpers of src/util: name checks with a suggestion, shell quoting, lines, the
// JSON reader of user files, safe names, text made safe for a terminal, and the check that no
// output overwrites an input or another output.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/cli_harness.hpp"
#include "util/distinct_paths.hpp"
#include "util/json_input.hpp"
#include "util/known_names.hpp"
#include "util/lines.hpp"
#include "util/safe_name.hpp"
#include "util/shell_quote.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace util_test {
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
  // Built with +=: GCC 12 warns of a bounds error that is not there in "[" + std::string(...).
  std::string many_digits = "[";
  many_digits += std::string(400, '9');
  many_digits += "]";
  EXPECT_NE(json_input_error(many_digits).find("is too large"), std::string::npos);
}

TEST(UtilJsonInput, SyntaxErrorsSayNotValidJsonAndWhere) {
  EXPECT_NE(json_input_error("{\"x\": ").find("in.json: not valid JSON: "), std::string::npos);
  EXPECT_NE(json_input_error("").find("in.json: not valid JSON: "), std::string::npos);
  EXPECT_NE(json_input_error("[1] 2").find("line 1, column"), std::string::npos);
}

TEST(UtilJsonInput, MessagesCarryNoTagOfTheJsonLibrary) {
  for (const char* text : {"{\"x\": ", "", "[1] 2", "{\"a\" 1}", "x"}) {
    const auto message = json_input_error(text);
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
    EXPECT_NE(message.find("at line "), std::string::npos) << message;
  }
  try {
    (void)nlohmann::json::parse("{\"a\": 1}").at("b");
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_error_text(e), "key 'b' not found");
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

TEST(UtilSafeName, AcceptsLettersDigitsDotsUnderscoresAndDashesUpTo64) {
  const std::vector<std::string> names = {"mutex-safety", "a", "9", "A.b_c-9",
                                          std::string(kMaxSafeNameLength, 'x')};
  for (const auto& name : names) EXPECT_TRUE(is_safe_name(name)) << name;
  EXPECT_EQ(kMaxSafeNameLength, 64u);
}

TEST(UtilSafeName, RejectsPathsDotNamesControlsAndTooLongNames) {
  const std::vector<std::string> names = {
      "",
      ".",
      "..",
      "-x",
      ".hidden",
      "_x",
      "a/b",
      "/abs",
      "x/../../y",
      std::string("a\0b", 3),
      std::string("a\0", 2),
      "a\nb",
      "a\tb",
      "a b",
      "a\\b",
      std::string(kMaxSafeNameLength + 1, 'x'),
      std::string(5000, 'x'),
      "\xc3\xa9",  // é
      "caf\xc3\xa9",
  };
  for (const auto& name : names) EXPECT_FALSE(is_safe_name(name)) << printable(name);
}

TEST(UtilSafeName, TheRuleStatesTheLimitAndTheCharacters) {
  EXPECT_NE(kSafeNameRule.find("1 to 64 characters"), std::string_view::npos);
  EXPECT_NE(kSafeNameRule.find("the first a letter or a digit"), std::string_view::npos);
}

/// Whether `text` holds a byte a terminal acts on: below 0x20 (but '\n' when `newlines_ok`) or
/// DEL.
bool has_control_byte(const std::string& text, bool newlines_ok) {
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && !(newlines_ok && b == '\n')) || b == 0x7F) return true;
  }
  return false;
}

TEST(UtilTerminalText, PrintableKeepsPlainAsciiAndValidUtf8) {
  const std::vector<std::string> texts = {
      "",
      "plain ASCII: ~!@#$%^&*()_+{}|:\"<>? 0123456789",
      "\xc3\xa9",          // é
      "\xe2\x86\x92",      // →
      "\xf0\x9f\x98\x80",  // 😀
      "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80",
      "\xc2\xa0",          // U+00A0, the first code point after the C1 controls
      "\xf4\x8f\xbf\xbf",  // U+10FFFF, the last code point
  };
  for (const auto& text : texts) {
    EXPECT_EQ(printable(text), text) << printable(text);
    EXPECT_EQ(printable_lines(text), text) << printable(text);
  }
}

TEST(UtilTerminalText, PrintableEscapesC0ControlsAndDel) {
  EXPECT_EQ(printable("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(printable("a\ab"), "a\\x07b");
  EXPECT_EQ(printable("a\rb"), "a\\x0db");
  EXPECT_EQ(printable("a\tb"), "a\\x09b");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("a\x7f"
                      "b"),
            "a\\x7fb");
  EXPECT_EQ(printable("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
}

TEST(UtilTerminalText, PrintableEscapesNewlinesAndPrintableLinesKeepsThem) {
  EXPECT_EQ(printable("one\ntwo\n"), "one\\x0atwo\\x0a");
  EXPECT_EQ(printable_lines("one\ntwo\n"), "one\ntwo\n");
  // Every other control is still escaped between the lines.
  EXPECT_EQ(printable_lines("one\r\ntwo\x1b[A"), "one\\x0d\ntwo\\x1b[A");
}

TEST(UtilTerminalText, PrintableEscapesEscapeSequencesAndC1Controls) {
  // U+009B, the one-character CSI, written in UTF-8.
  EXPECT_EQ(printable("\xc2\x9b"
                      "2J"),
            "\\xc2\\x9b2J");
  EXPECT_EQ(printable("\xc2\x80"), "\\xc2\\x80");  // U+0080, the first C1 control
  EXPECT_EQ(printable("\xc2\x9f"), "\\xc2\\x9f");  // U+009F, the last
  EXPECT_EQ(printable_lines("\xc2\x9b"), "\\xc2\\x9b");
}

TEST(UtilTerminalText, PrintableEscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(printable("\x9b"
                      "2J"),
            "\\x9b2J");                                     // a lone continuation byte: 8-bit CSI
  EXPECT_EQ(printable("a\xe2\x82"), "a\\xe2\\x82");         // truncated at the end
  EXPECT_EQ(printable("\xe2\x82z"), "\\xe2\\x82z");         // truncated before ASCII
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");  // overlong '/' in three bytes
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // the surrogate U+D800
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  // A lead byte that swallows a C1 control would hide it: the control is still escaped.
  EXPECT_EQ(printable("\xe2\xc2\x9b"), "\\xe2\\xc2\\x9b");
}

TEST(UtilTerminalText, TheResultNeverHoldsAControlByte) {
  // Every single byte, and every pair of bytes, on its own and between ASCII letters.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string pair = {static_cast<char>(a), static_cast<char>(b)};
      for (const std::string& text : {pair, "x" + pair + "y", pair.substr(0, 1)}) {
        ASSERT_FALSE(has_control_byte(printable(text), false)) << printable(text);
        ASSERT_FALSE(has_control_byte(printable_lines(text), true)) << printable(text);
      }
    }
  }
  // Escaping is stable: escaped text is printable already.
  const std::string nasty = "\x1b[31m\xc2\x9b\x9b\xe2\x82\n\x7f";
  EXPECT_EQ(printable(printable(nasty)), printable(nasty));
}

using testing::TempDir;

/// The UsageError message `paths.check()` gives, or "" when it passes.
std::string distinct_paths_error(const DistinctPaths& paths) {
  try {
    paths.check();
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

TEST(UtilDistinctPaths, InputsMayBeTheSameFile) {
  const TempDir dir;
  const auto file = dir.write("in.json", "{}");
  DistinctPaths paths;
  paths.input("REPORT.json", file);
  paths.input("--resume", file);
  paths.output("--out", dir.path() / "out.json");
  EXPECT_EQ(distinct_paths_error(paths), "");
}

TEST(UtilDistinctPaths, AnOutputThatIsAnInputNamesBothFlags) {
  const TempDir dir;
  const auto file = dir.write("in.json", "{}");
  DistinctPaths paths;
  paths.input("--resume", file);
  paths.output("--out", file);
  const std::string text = distinct_paths_error(paths);
  EXPECT_NE(text.find("--out " + file.string() + " is the same file as --resume"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("destroy the input"), std::string::npos) << text;
  // The output is named first whatever the order the flags were given in.
  DistinctPaths reversed;
  reversed.output("--out", file);
  reversed.input("--resume", file);
  EXPECT_NE(distinct_paths_error(reversed).find("--out " + file.string() + " is the same file"),
            std::string::npos);
  EXPECT_THROW(reversed.check(), UsageError);
}

TEST(UtilDistinctPaths, AnOutputThroughASymlinkOrAHardLinkIsTheInput) {
  const TempDir dir;
  const auto file = dir.write("in.json", "{}");
  const auto symlink = dir.path() / "symlink.json";
  const auto hard_link = dir.path() / "hard-link.json";
  std::filesystem::create_symlink(file, symlink);
  std::filesystem::create_hard_link(file, hard_link);
  for (const auto& output : {symlink, hard_link}) {
    DistinctPaths paths;
    paths.input("--resume", file);
    paths.output("--out", output);
    EXPECT_THROW(paths.check(), UsageError) << output;
  }
  // And another spelling of an existing file.
  DistinctPaths spelled;
  spelled.input("--resume", file);
  std::filesystem::create_directory(dir.path() / "x");
  spelled.output("--out", dir.path() / "." / "x" / ".." / "in.json");
  EXPECT_THROW(spelled.check(), UsageError);
}

TEST(UtilDistinctPaths, OutputsYetToBeWrittenAreComparedByWhereTheyWouldBe) {
  const TempDir dir;
  std::filesystem::create_directories(dir.path() / "dir" / "sub");
  DistinctPaths paths;
  paths.output("--out", dir.path() / "dir" / "sub" / ".." / "f.json");
  paths.output("--save-preset", dir.path() / "dir" / "f.json");
  const std::string text = distinct_paths_error(paths);
  EXPECT_NE(text.find("--out " + (dir.path() / "dir" / "sub" / ".." / "f.json").string() +
                      " is the same file as --save-preset"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("destroy the other output"), std::string::npos) << text;
  ASSERT_FALSE(std::filesystem::exists(dir.path() / "dir" / "f.json"));

  // Through a directory symlink too.
  std::filesystem::create_directory_symlink(dir.path() / "dir", dir.path() / "dir-link");
  DistinctPaths linked;
  linked.output("--out", dir.path() / "dir-link" / "f.json");
  linked.output("--save-preset", dir.path() / "dir" / "f.json");
  EXPECT_THROW(linked.check(), UsageError);

  DistinctPaths different;
  different.output("--out", dir.path() / "dir" / "a.json");
  different.output("--save-preset", dir.path() / "dir" / "b.json");
  EXPECT_EQ(distinct_paths_error(different), "");
}

TEST(UtilDistinctPaths, ADanglingSymlinkIsNotItsTarget) {
  // Writing an output renames a new file onto its path: that replaces the link, not the file
  // it points to, so the two outputs are different files.
  const TempDir dir;
  const auto target = dir.path() / "target.json";
  const auto link = dir.path() / "link.json";
  std::filesystem::create_symlink(target, link);
  ASSERT_FALSE(std::filesystem::exists(link));
  DistinctPaths paths;
  paths.output("--out", link);
  paths.output("--save-preset", target);
  EXPECT_EQ(distinct_paths_error(paths), "");
}

}  // namespace
}  // namespace util_test
}  // namespace syncstress
