// A strategy is parsed once, into a closed type; what it can do is a member of that type. So no
// code but the parser compares a strategy's name, or searches the text describe() prints for
// one of its parameters: this test reads every source file of src/, scenarios/, schedules/ and
// primitives/ for such a comparison, with the names `syncstress list schedules` prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_strategy_names_test {
namespace {

using nlohmann::json;
using testing::run_cli;
using testing::TempDir;

/// The parser: the catalogues that turn names into typed values, the codec of schedule
/// strings, and syncstress-relacy's command line.
const std::set<std::string> kParser = {
    "schedules/strategy_factory.cpp", "schedules/relacy_strategies.cpp",
    "schedules/stress_strategy.cpp",  "schedules/strategy_spec.cpp",
    "schedules/schedule_codec.cpp",   "src/backends/relacy/child/main.cpp",
};

/// Every strategy name `list schedules` prints, Relacy's scheduler names ("relacy-bound" is
/// the scheduler "bound"), and the parameters describe() writes.
std::vector<std::string> words_to_look_for() {
  TempDir dir;
  const auto r = run_cli({"list", "schedules", "--json"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> words;
  const json listed = json::parse(r.out);
  for (const auto& s : listed.at("schedules")) {
    const auto name = s.at("name").get<std::string>();
    words.push_back(name);
    if (name.rfind("relacy-", 0) == 0) words.push_back(name.substr(7));
    for (const auto& p : s.at("parameters")) words.push_back(p.at("name").get<std::string>() + "=");
  }
  return words;
}

/// `line` without what follows a `//`: comments may name strategies.
std::string code_of(const std::string& line) {
  const auto comment = line.find("//");
  return comment == std::string::npos ? line : line.substr(0, comment);
}

/// Whether a line of code compares a string literal holding one of `words` with something, or
/// searches text for one (a literal that begins with it).
class NameComparison {
 public:
  explicit NameComparison(const std::vector<std::string>& words) {
    std::string any;
    for (const auto& w : words) {
      if (!any.empty()) any += '|';
      any += std::regex_replace(w, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
    }
    std::string pattern = R"re((==|!=)\s*"()re";
    pattern += any;
    pattern += R"re()"|"()re";
    pattern += any;
    pattern += R"re()"\s*(==|!=)|(find|rfind|starts_with|ends_with|compare)\("()re";
    pattern += any;
    pattern += ')';
    pattern_ = std::regex(pattern);
  }
  bool operator()(const std::string& code) const {
    return code.find('"') != std::string::npos && std::regex_search(code, pattern_);
  }

 private:
  std::regex pattern_;
};

TEST(CliStrategyNames, TheCheckFindsComparisonsAndSearchesAndSkipsComments) {
  const NameComparison compares_a_name({"exhaustive", "random", "preemptions="});
  EXPECT_TRUE(compares_a_name(R"(if (name == "exhaustive") return;)"));
  EXPECT_TRUE(compares_a_name(R"(bool r = "random" != spec.name;)"));
  EXPECT_TRUE(compares_a_name(R"(text.find("preemptions=") != npos)"));
  EXPECT_TRUE(compares_a_name(R"(s.starts_with("random"))"));
  EXPECT_FALSE(compares_a_name(code_of(R"(x = 1;  // name == "exhaustive")")));
  EXPECT_FALSE(compares_a_name(R"(out = "random";)"));
  EXPECT_FALSE(compares_a_name(R"(if (name == "randomness") return;)"));
}

TEST(CliStrategyNames, NoStrategyNameIsComparedOutsideTheParser) {
  const auto words = words_to_look_for();
  ASSERT_GE(words.size(), 9u) << "list schedules printed too few names";
  const NameComparison compares_a_name(words);
  const std::filesystem::path root = SYNCSTRESS_SOURCE_DIR;
  std::size_t files = 0;
  for (const char* folder : {"src", "scenarios", "schedules", "primitives"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      const auto relative = std::filesystem::relative(entry.path(), root).string();
      ++files;
      if (kParser.count(relative) != 0) continue;
      std::istringstream lines(testing::read_file(entry.path()));
      int number = 0;
      for (std::string line; std::getline(lines, line);) {
        ++number;
        EXPECT_FALSE(compares_a_name(code_of(line)))
            << relative << ":" << number << " compares a strategy's name or searches its "
            << "description: ask the parsed type instead\n  " << line;
      }
    }
  }
  EXPECT_GT(files, 100u) << "the source tree was not found at " << root;
}

}  // namespace
}  // namespace cli_strategy_names_test
}  // namespace syncstress
