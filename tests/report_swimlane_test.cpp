// The swimlane text of a counterexample (src/report/swimlane.hpp), compared with a golden file
// reviewed by eye: the first steps of shared_mutex_part8's lost wake-up on shared-mutex-safety
// (two actors, one writer), as an exhaustive search reported it.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "report/swimlane.hpp"

namespace syncstress::report {
namespace {

const std::vector<std::string> kTrace = {
    "1 t0 spawn t1 scenarios/families/safety.hpp:165",
    "2 t0 spawn t2 scenarios/families/safety.hpp:165",
    "3 t0 join t1 [blocks] scenarios/harness.hpp:467",
    "4 t1 resume frame#2 scenarios/harness.hpp:463",
    "5 t1 resume frame#1 src/platform/task.hpp:156",
    "6 t1 cas_strong atomic#2 [0 -> -1] primitives/shared_mutex_part8.hpp:68",
    "7 t1 fetch_add atomic#1 [0 -> 1] scenarios/harness.hpp:356",
    "8 t1 lock mutex#1 primitives/awaitable_library.hpp:224",
    "9 t1 store atomic#2 [0] primitives/shared_mutex_part8.hpp:108",
    "10 t2 resume frame#4 scenarios/harness.hpp:463",
    "11 t2 resume frame#3 src/platform/task.hpp:156",
    "12 t2 load atomic#2 [0] primitives/shared_mutex_part8.hpp:70",
    "13 t2 cas_strong atomic#2 [0 -> 1] primitives/shared_mutex_part8.hpp:70",
    "14 t2 fetch_add atomic#1 [1 -> 2] scenarios/harness.hpp:356",
    "15 t2 lock mutex#1 [held by t1, blocks] primitives/awaitable_library.hpp:224",
    "16 t1 unlock mutex#1 primitives/awaitable_library.hpp:224",
    "17 t1 cas_strong atomic#2 [failed, saw 1] primitives/shared_mutex_part8.hpp:68",
    "18 t1 lock mutex#1 primitives/awaitable_library.hpp:194",
    "19 t1 load atomic#2 [1] primitives/shared_mutex_part8.hpp:76",
    "20 t1 unlock mutex#1 primitives/awaitable_library.hpp:194",
    "21 t1 exit t1 -",
    "22 t0 join t1 scenarios/harness.hpp:467",
    "23 t0 wait_on_address atomic#3 [on 1, blocks] scenarios/harness.hpp:511",
};

std::string golden(const char* name) {
  std::ifstream in(std::string(SYNCSTRESS_SOURCE_DIR) + "/tests/golden/" + name);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Swimlane, AFixedExecutionDrawsAsItsGoldenFile) {
  SwimlaneOptions options;
  options.breach = "deadlock: no thread can run";
  const auto text = render_swimlane(kTrace, options);
  EXPECT_EQ(text, golden("swimlane_part8.txt")) << text;
}

TEST(Swimlane, AllStepsShowsTheHarnessStepsTheDefaultFolds) {
  const auto folded = render_swimlane(kTrace, {});
  EXPECT_EQ(folded.find("resume frame#2"), std::string::npos);
  EXPECT_NE(folded.find("harness steps folded"), std::string::npos);
  SwimlaneOptions all;
  all.all_steps = true;
  const auto text = render_swimlane(kTrace, all);
  EXPECT_NE(text.find("resume frame#2"), std::string::npos);
  EXPECT_EQ(text.find("folded"), std::string::npos);
}

TEST(Swimlane, ALineThatDoesNotParseIsShownAsItIs) {
  const auto text = render_swimlane({"1 t0 load atomic#1 [0] a.hpp:1", "not a step"}, {});
  EXPECT_NE(text.find("  not a step\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace syncstress::report
