// Stress mode end to end, as a user runs it: `--schedule stress` runs a preset on real threads
// beside the same preset on sim and under Relacy (one family body, three backends), the report
// carries the wall-clock measurements and the table prints them, and bad stress parameters exit
// 2 before anything runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_stress_test {
namespace {

using nlohmann::json;
using testing::TempDir;

TEST(CliStress, OnePresetOnSimRelacyAndRealThreadsGivesEachBackendsVerdict) {
  TempDir dir;
  for (const std::string schedule : {"portfolio", "relacy-random", "stress"}) {
    const auto r =
        testing::run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                          "--schedule", schedule, "--executions", "50", "--out", "r.json"},
                         dir.path());
    ASSERT_EQ(r.exit_code, 0) << schedule << r.out << r.err;
    const json report = json::parse(testing::read_file(dir.path() / "r.json"));
    ASSERT_EQ(report["cells"].size(), 1u);
    const auto& cell = report["cells"][0];
    EXPECT_EQ(cell["verdict"], "pass") << schedule << cell.dump();
    EXPECT_EQ(cell["executions"], 50u) << schedule;
    EXPECT_EQ(cell["schedule"].get<std::string>().rfind(schedule, 0), 0u) << cell["schedule"];
    EXPECT_EQ(cell["metrics"].contains("stress"), schedule == "stress") << schedule;
    EXPECT_EQ(r.out.find("measured on real threads") != std::string::npos, schedule == "stress")
        << r.out;
  }
}

TEST(CliStress, AStarvationCellReportsWriterAndReaderWaitsInNanoseconds) {
  TempDir dir;
  const auto r = testing::run_cli(
      {"run", "--scenario", "shared-mutex-starvation", "--primitive", "ticket_shared_mutex",
       "--schedule", "stress:threads=4,noise=off", "--executions", "20", "--out", "s.json"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = json::parse(testing::read_file(dir.path() / "s.json"));
  const auto& cell = report["cells"][0];
  EXPECT_EQ(cell["schedule"], "stress:threads=4,noise=off,faults=on");
  const auto& s = cell["metrics"]["stress"];
  EXPECT_EQ(s["threads"], 4);
  EXPECT_EQ(s["replayable"], false);
  for (const char* key : {"wait_ns", "writer_wait_ns", "reader_wait_ns"}) {
    ASSERT_TRUE(s.contains(key)) << key << s.dump();
    EXPECT_GT(s[key]["count"].get<std::uint64_t>(), 0u) << key;
    EXPECT_LE(s[key]["p50"].get<std::uint64_t>(), s[key]["p99"].get<std::uint64_t>()) << key;
    EXPECT_LE(s[key]["p99"].get<std::uint64_t>(), s[key]["max"].get<std::uint64_t>()) << key;
  }
  // Three readers and one writer: the stream scaled 50 times, the writer's rounds too.
  EXPECT_EQ(cell["parameters"]["readers"], "3");
  EXPECT_EQ(cell["parameters"]["stream_rounds"], "600");
  EXPECT_EQ(s["acquisitions_per_actor"].size(), 4u);
  EXPECT_NE(r.out.find("writers' p99"), std::string::npos) << r.out;
}

TEST(CliStress, BadStressParametersExitTwoNamingTheFix) {
  TempDir dir;
  const auto r = testing::run_cli(
      {"run", "--scenario", "mutex-safety", "--schedule", "stress:noise=loud"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("noise='loud' must be off, low or high"), std::string::npos) << r.err;
  const auto t = testing::run_cli(
      {"run", "--scenario", "mutex-safety", "--schedule", "stress:cores=3"}, dir.path());
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("valid: threads, noise"), std::string::npos) << t.err;
}

}  // namespace
}  // namespace cli_stress_test
}  // namespace syncstress
