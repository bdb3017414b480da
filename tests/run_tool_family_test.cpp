// A scenario family of a tool's own, registered as a tool's registration unit registers one
// (src/backends/extra/register_sim.cpp): resolved once by name, answered for by family.hpp, and
// run by the matrix on the primitives it was bound to only.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/bind.hpp"
#include "backends/sim/on_sim.hpp"
#include "primitives/ticket_mutex.hpp"
#include "run/matrix.hpp"
#include "scenarios/families/safety.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/tool_family.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise {
namespace run_tool_family_test {
namespace {

/// The test's family: the safety body under a name of its own, about FIFO hand-off (so that a
/// primitive that does not claim it is measured), for sync mutexes.
struct handoff_family {
  static constexpr std::string_view name = "test-handoff";
  static constexpr Claim claim = kFifoHandoff;
  template <Kind K, Mode M, class Prim>
  static constexpr bool applies = K == Kind::mutex&& M == Mode::sync;
  static std::vector<scenarios::ParamSpec> specs() { return scenarios::safety::specs(); }
  template <Platform P, Kind K, Mode M, class Prim>
  static void run(scenarios::Observations& obs, std::uint32_t claims, const scenarios::Params& p) {
    scenarios::safety::run<P, K, M, Prim>(obs, claims, p);
  }
};

/// Bound to ticket_mutex only, as a tool binds its families to its own primitives.
bool binds(std::string_view primitive) { return primitive == "ticket_mutex"; }

const scenarios::Family kHandoff =
    scenarios::register_tool_family(scenarios::tool_family_info<handoff_family>(&binds));

std::optional<scenarios::Body> bind_handoff(scenarios::Family family, std::string_view primitive,
                                            std::uint32_t claims) {
  if (family != kHandoff || primitive != "ticket_mutex") return std::nullopt;
  return scenarios::bind_tool_body<handoff_family, Sim, ticket_mutex, Kind::mutex, Mode::sync>(
      claims);
}
[[maybe_unused]] const bool kBound = scenarios::register_extra_binder(&bind_handoff);

scenarios::Preset handoff_preset() {
  return scenarios::parse_preset(
      {{"name", "test-handoff"},
       {"description", "the test's own family"},
       {"family", "test-handoff"},
       {"kind", "mutex"},
       {"parameters", {{"actors", 2}}},
       {"schedule",
        {{"strategy", "random"}, {"seed", 1}, {"executions", 50}, {"time_budget", 20}}}},
      "test-handoff.json");
}

const PrimitiveInfo* primitive(std::string_view name) {
  for (const auto& p : all_primitives()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

TEST(ToolFamily, ANameIsLowerCaseLettersDigitsAndDashesAndNoBuiltinFamilysName) {
  EXPECT_TRUE(scenarios::is_tool_family_name("timed-lock"));
  EXPECT_TRUE(scenarios::is_tool_family_name("burst2"));
  EXPECT_FALSE(scenarios::is_tool_family_name(""));
  EXPECT_FALSE(scenarios::is_tool_family_name("Timed lock"));
  EXPECT_FALSE(scenarios::is_tool_family_name("safety"));
  EXPECT_FALSE(scenarios::is_tool_family_name("spurious-wakeups"));
}

TEST(ToolFamily, APresetNamingItResolvesToItsValueWhichAnswersFromWhatWasRegistered) {
  EXPECT_TRUE(scenarios::is_tool_family(kHandoff));
  EXPECT_FALSE(scenarios::is_tool_family(scenarios::Family::progress));
  EXPECT_EQ(handoff_preset().family, kHandoff);
  EXPECT_EQ(scenarios::family_from_string("test-handoff"), kHandoff);
  EXPECT_EQ(scenarios::to_string(kHandoff), "test-handoff");
  EXPECT_EQ(scenarios::all_families().back(), kHandoff);
  EXPECT_EQ(scenarios::headline_claim(kHandoff), kFifoHandoff);
  EXPECT_EQ(scenarios::family_param_specs(kHandoff).size(), scenarios::safety::specs().size());
  // Where a primitive it was bound to is, and only on those.
  EXPECT_TRUE(scenarios::applies(kHandoff, Kind::mutex, Mode::sync));
  EXPECT_FALSE(scenarios::applies(kHandoff, Kind::mutex, Mode::async));
  EXPECT_FALSE(scenarios::applies(kHandoff, Kind::semaphore, Mode::sync));
  EXPECT_TRUE(scenarios::applies(kHandoff, *primitive("ticket_mutex")));
  EXPECT_FALSE(scenarios::applies(kHandoff, *primitive("platform_mutex")));
}

TEST(ToolFamily, AnUnknownFamilyIsAUsageErrorListingTheRegisteredOnesToo) {
  auto doc = nlohmann::json{
      {"name", "x"}, {"description", "d"}, {"family", "test-handof"}, {"kind", "mutex"}};
  try {
    scenarios::parse_preset(doc, "x.json");
    ADD_FAILURE() << "an unknown family was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("families are: safety, "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(", test-handoff"), std::string::npos) << e.what();
  }
}

TEST(ToolFamily, RunsOnlyOnThePrimitivesItWasBoundToAndIsJudgedOnItsClaim) {
  RunConfig config;
  config.presets = {handoff_preset()};
  config.verbosity = Verbosity::quiet;
  const auto outcome = run_matrix(config);
  ASSERT_EQ(outcome.cells.size(), 1u);
  EXPECT_EQ(outcome.cells.front().primitive, "ticket_mutex");
  EXPECT_EQ(outcome.cells.front().scenario, "test-handoff");
  // ticket_mutex claims FIFO hand-off, the family's claim: judged, and it passes.
  EXPECT_EQ(outcome.cells.front().verdict, Verdict::pass);
  EXPECT_EQ(outcome.cells.front().executions, 50u);
}

TEST(ToolFamily, NamingAPrimitiveItWasNotBoundToIsAUsageErrorNamingThoseItWas) {
  RunConfig config;
  config.presets = {handoff_preset()};
  config.primitives = {primitive("platform_mutex")};
  config.verbosity = Verbosity::quiet;
  try {
    run_matrix(config);
    ADD_FAILURE() << "a primitive the family was not bound to ran it";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("registered for its own primitives; it runs on "
                                         "ticket_mutex"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace run_tool_family_test
}  // namespace syncstress::supervise
