// The swimlane text of a counterexample (src/report/swimlane.hpp), compared with a golden file
// reviewed by eye: the first steps of shared_mutex_part8's lost wake-up on shared-mutex-safety
// (two actors, one writer), as an exhaustive search reported it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "report/html_swimlane.hpp"
#include "report/swimlane.hpp"

namespace syncstress::report {
namespace report_swimlane_test {
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

TEST(Swimlane, FindsBlocksOfUpToFourRowsThatOccurThreeTimesInARow) {
  const auto found = [](const std::vector<std::string>& keys) {
    std::vector<std::vector<std::size_t>> out;
    for (const Repeat& r : find_repeats(keys)) out.push_back({r.first, r.period, r.more});
    return out;
  };
  using Found = std::vector<std::vector<std::size_t>>;
  EXPECT_EQ(found({"a", "a", "a", "b"}), (Found{{0, 1, 2}}));
  EXPECT_EQ(found({"a", "a", "b"}), Found{});  // twice is not a run
  EXPECT_EQ(found({"x", "a", "b", "a", "b", "a", "b", "a"}), (Found{{1, 2, 2}}));
  EXPECT_EQ(found({"a", "b", "c", "d", "a", "b", "c", "d", "a", "b", "c", "d"}),
            (Found{{0, 4, 2}}));
  EXPECT_EQ(found({"a", "b", "c", "d", "e", "a", "b", "c", "d", "e", "a", "b", "c", "d", "e"}),
            Found{});                           // a block of five is not folded
  EXPECT_EQ(found({"", "", "", ""}), Found{});  // lines that do not parse never fold
}

TEST(Swimlane, AStepsBlockRepeatedIsDrawnOnceThenFoldedIntoACount) {
  // A waiter woken spuriously 100 times (a load, then its wait), then the store it waited for.
  std::vector<std::string> trace;
  int step = 0;
  for (int i = 0; i < 100; ++i) {
    trace.push_back(std::to_string(++step) + " t1 load atomic#1 [0] p.hpp:5");
    trace.push_back(std::to_string(++step) +
                    " t1 wait_on_address atomic#1 [on 0, spurious] p.hpp:6");
  }
  trace.push_back(std::to_string(++step) + " t2 store atomic#1 [1] p.hpp:9");
  const auto text = render_swimlane(trace, {});
  EXPECT_NE(text.find("(the 2 rows above repeat 99 more times, steps 3 to 200)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  1    | load atomic#1 [0]"), std::string::npos) << text;
  EXPECT_EQ(text.find(" 3    |"), std::string::npos) << text;  // folded
  EXPECT_NE(text.find("201"), std::string::npos) << text;      // the last step, drawn
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 10) << text;
  // The HTML report folds them the same way.
  const std::string page = swimlane_html(swimlane_table(trace), "v1", "");
  EXPECT_NE(page.find("the 2 rows above repeat 99 more times, steps 3 to 200"), std::string::npos);
  std::size_t rows = 0;
  for (auto at = page.find("<tr class=\"step"); at != std::string::npos;
       at = page.find("<tr class=\"step", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 3U) << page;  // steps 1 and 2, then 201
}

}  // namespace
}  // namespace report_swimlane_test
}  // namespace syncstress::report
