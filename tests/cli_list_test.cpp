// `syncstress list` shows what the catalogues hold, as a table and as JSON; every subcommand
// has --help with an example.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "primitives/catalog.hpp"
#include "schedules/relacy_strategies.hpp"
#include "schedules/strategy_factory.hpp"
#include "schedules/stress_strategy.hpp"
#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_list_test {
namespace {

using testing::CliResult;
using testing::TempDir;

class CliList : public ::testing::Test {
 protected:
  void SetUp() override {
    scenarios_.write("b.json", R"({"name": "mutex-fairness", "description": "actors contend",
                                   "family": "fairness", "kind": "mutex"})");
    scenarios_.write("a.json", R"({"name": "zeta-safety", "description": "one holder at most",
                                   "family": "safety", "kind": "mutex"})");
    scenarios_.write("notes.txt", "not a preset");
  }
  CliResult run(const std::vector<std::string>& args) {
    return testing::run_cli(args, work_.path(),
                            {"SYNCSTRESS_SCENARIOS_DIR=" + scenarios_.path().string()});
  }
  TempDir scenarios_;
  TempDir work_;
};

TEST_F(CliList, JsonParsesAndHoldsEveryPrimitiveScenarioAndSchedule) {
  const CliResult r = run({"list", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["primitives"].size(), all_primitives().size());
  for (std::size_t i = 0; i < all_primitives().size(); ++i) {
    const auto& p = all_primitives()[i];
    EXPECT_EQ(doc["primitives"][i]["name"], p.name);
    EXPECT_EQ(doc["primitives"][i]["kind"], to_string(p.kind));
    EXPECT_EQ(doc["primitives"][i]["mode"], to_string(p.mode));
    EXPECT_TRUE(doc["primitives"][i]["claims"].is_array());
  }
  // The sim strategies, then the Relacy ones, then stress.
  std::vector<StrategyInfo> catalogue;
  for (const auto& part :
       {strategy_catalog(), relacy_strategy_catalog(), stress_strategy_catalog()}) {
    catalogue.insert(catalogue.end(), part.begin(), part.end());
  }
  ASSERT_EQ(doc["schedules"].size(), catalogue.size());
  EXPECT_EQ(doc["schedules"].back()["name"], "stress");
  for (std::size_t i = 0; i < doc["schedules"].size(); ++i) {
    const auto& info = catalogue[i];
    EXPECT_EQ(doc["schedules"][i]["name"], info.name);
    EXPECT_EQ(doc["schedules"][i]["parameters"].size(), info.params.size());
  }
  // Presets sorted by name, whatever their file names; other files ignored.
  ASSERT_EQ(doc["scenarios"].size(), 2u);
  EXPECT_EQ(doc["scenarios"][0]["name"], "mutex-fairness");
  EXPECT_EQ(doc["scenarios"][0]["family"], "fairness");
  EXPECT_EQ(doc["scenarios"][1]["name"], "zeta-safety");
  EXPECT_EQ(doc["scenarios"][1]["description"], "one holder at most");
}

TEST_F(CliList, OneSectionOnlyWhenNamed) {
  const CliResult r = run({"list", "scenarios", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc.contains("scenarios"));
  EXPECT_FALSE(doc.contains("primitives"));
  EXPECT_FALSE(doc.contains("schedules"));
}

TEST_F(CliList, TableShowsNamesAndDescriptions) {
  const CliResult r = run({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scenarios (2):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("zeta-safety"), std::string::npos);
  EXPECT_NE(r.out.find("one holder at most"), std::string::npos);
  for (const auto& s : strategy_catalog()) {
    EXPECT_NE(r.out.find(std::string(s.name)), std::string::npos) << s.name;
  }
  for (const auto& p : all_primitives()) {
    EXPECT_NE(r.out.find(std::string(p.name)), std::string::npos) << p.name;
  }
}

TEST_F(CliList, EverySubcommandHasHelpWithAnExample) {
  for (const char* sub : {"list", "run", "replay", "gate"}) {
    const CliResult r = run({sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << sub << ":\n" << r.out;
    EXPECT_NE(r.out.find(std::string("syncstress ") + sub), std::string::npos) << sub;
  }
  const CliResult top = run({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("Exit codes"), std::string::npos);
}

TEST_F(CliList, VersionNamesTheToolAndItsRevision) {
  const CliResult r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("syncstress ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace cli_list_test
}  // namespace syncstress
