// Scenario parameters: what a preset and --set give is checked against the family's specs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "scenarios/params.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {
namespace scenarios_params_test {
namespace {

TEST(ScenariosParams, PresetValuesAndOverridesAreCheckedAgainstTheSpecs) {
  const std::vector<ParamSpec> specs = {
      {"n", ParamSpec::Type::integer, 1, 5, 2, "a count"},
      {"flag", ParamSpec::Type::boolean, 0, 1, 0, "a switch"},
  };
  const auto p = Params::resolve(specs, nlohmann::json{{"n", 3}}, {{"flag", "true"}}, "test");
  EXPECT_EQ(p.integer("n"), 3);
  EXPECT_TRUE(p.boolean("flag"));
  EXPECT_THROW(Params::resolve(specs, nlohmann::json{{"n", 6}}, {}, "test"), UsageError);
  EXPECT_THROW(Params::resolve(specs, nlohmann::json{{"n", "3"}}, {}, "test"), UsageError);
  EXPECT_THROW(Params::resolve(specs, {}, {{"n", "3x"}}, "test"), UsageError);
  EXPECT_THROW(Params::resolve(specs, {}, {{"flag", "yes"}}, "test"), UsageError);
}

}  // namespace
}  // namespace scenarios_params_test
}  // namespace syncstress::scenarios
