// End to end, as a user runs it:
//   - a primitive that hangs inside its own lock (no scheduling point, forever) is a failed
//     cell with a replayable schedule, and `replay` reproduces the hang in a child process and
//     prints the trace up to it, instead of hanging the tool;
//   - an exhaustive search that runs out of schedules says so (search_complete, "(all)"), and
//     one cut short by --executions does not.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_findings_test {
namespace {

using nlohmann::json;
using testing::TempDir;

TEST(CliFindings, HangInsideThePrimitiveIsAFailedCellAndItsReplayShowsTheTraceUpToIt) {
  TempDir dir;
  // shared_mutex_part9 on the as-published library: a cancelled waiter's node stays queued,
  // linked to itself, and the next unlock's resume_a_bunch walks round it forever. On random's
  // seed 1 the second execution meets the hang (the portfolio meets the resumption of the
  // destroyed frame first).
  auto r = testing::run_cli(
      {"run", "--scenario", "shared-mutex-cancellation", "--primitive", "shared_mutex_part9",
       "--schedule", "random", "--seed", "1", "--quiet", "--out", "hang.json"},
      dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = json::parse(testing::read_file(dir.path() / "hang.json"));
  ASSERT_EQ(report["cells"].size(), 1u);
  const auto& cell = report["cells"][0];
  EXPECT_EQ(cell["verdict"], "fail");
  ASSERT_EQ(cell["violations"].size(), 1u);
  const auto& v = cell["violations"][0];
  EXPECT_EQ(v["property"], "hang");
  EXPECT_NE(v["message"].get<std::string>().find("no progress for"), std::string::npos)
      << v["message"];
  EXPECT_NE(v["schedule"].get<std::string>().rfind("ss1.random.", 0), std::string::npos)
      << v["schedule"];
  EXPECT_NE(v["seed"], 0u);
  EXPECT_NE(v["replay_command"].get<std::string>().find("--primitive shared_mutex_part9"),
            std::string::npos);

  r = testing::run_cli({"replay", "hang.json", "--violation", "1"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("violation reproduced after"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hang: no progress for"), std::string::npos) << r.out;
  // The trace runs up to the step where the stuck thread took the library's lock.
  EXPECT_NE(r.out.find("lock mutex#1 primitives/awaitable_library.hpp"), std::string::npos)
      << r.out;
}

TEST(CliFindings, ExhaustiveSearchThatCoversEveryScheduleSaysSoAndATruncatedOneDoesNot) {
  TempDir dir;
  const std::vector<std::string> cell = {"run",
                                         "--scenario",
                                         "cancellation-during-resume",
                                         "--primitive",
                                         "mutex_part7_cancel_handoff",
                                         "--schedule",
                                         "exhaustive:preemptions=0"};
  auto args = cell;
  args.insert(args.end(), {"--executions", "100000", "--out", "all.json"});
  auto r = testing::run_cli(args, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json c = json::parse(testing::read_file(dir.path() / "all.json"))["cells"][0];
  EXPECT_EQ(c["verdict"], "pass");
  EXPECT_EQ(c["metrics"]["search_complete"], true);
  EXPECT_LT(c["executions"].get<std::uint64_t>(), 100000u);
  EXPECT_NE(r.out.find(std::to_string(c["executions"].get<std::uint64_t>()) + " (all)"),
            std::string::npos)
      << r.out;

  args = cell;
  args.insert(args.end(), {"--executions", "10", "--out", "some.json"});
  r = testing::run_cli(args, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  c = json::parse(testing::read_file(dir.path() / "some.json"))["cells"][0];
  EXPECT_EQ(c["executions"], 10u);
  EXPECT_EQ(c["metrics"]["search_complete"], false);
  EXPECT_EQ(r.out.find("(all)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cli_findings_test
}  // namespace syncstress
