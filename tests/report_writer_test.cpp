// The report: atomic writes, the documented fields, read-back validation, the table.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <sstream>
#include <string>

#include "report/atomic_file.hpp"
#include "report/report.hpp"
#include "tests/cli_harness.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace report_writer_test {
namespace {

using testing::TempDir;

RunOutcome outcome_with_one_failure() {
  RunOutcome outcome;
  CellResult passing;
  passing.primitive = "good_mutex";
  passing.scenario = "mutex-safety";
  passing.schedule = "pct:d=3,k=1000";
  passing.verdict = Verdict::pass;
  passing.executions = 500;
  passing.steps = 12345;
  passing.elapsed_seconds = 0.25;
  passing.parameters = {{"actors", "3"}};
  passing.metrics = {{"jain_index", 0.98}};
  CellResult failing = passing;
  failing.primitive = "broken_mutex";
  failing.verdict = Verdict::fail;
  failing.executions = 17;
  failing.violations.push_back({"mutual_exclusion",
                                "two holders at step 41",
                                99,
                                "AbC-9",
                                "syncstress replay --schedule AbC-9 --scenario mutex-safety",
                                {"1 t0 lock", "2 t1 lock"}});
  outcome.cells = {passing, failing};
  return outcome;
}

report::RunDescription config_for(const std::filesystem::path& out) {
  report::RunDescription config;
  config.scenarios = {"mutex-safety"};
  config.seed = 99;
  config.overrides = {{"actors", "3"}, {"note", "it's"}};
  config.out = out;
  return config;
}

TEST(AtomicFile, WritesTheWholeContentAndLeavesNoTemporaryFile) {
  TempDir dir;
  const auto path = dir.path() / "r.json";
  report::write_file_atomically(path, "first\n");
  report::write_file_atomically(path, "second\n");
  EXPECT_EQ(testing::read_file(path), "second\n");
  EXPECT_EQ(dir.files(), std::vector<std::string>{"r.json"});
}

TEST(AtomicFile, FailedRenameLeavesTheTargetAndNoTemporaryFile) {
  TempDir dir;
  // rename(2) cannot replace a non-empty directory: the last step fails after the write.
  const auto target = dir.path() / "occupied";
  std::filesystem::create_directories(target / "inside");
  EXPECT_THROW(report::write_file_atomically(target, "data"), std::system_error);
  EXPECT_TRUE(std::filesystem::is_directory(target / "inside"));
  EXPECT_EQ(dir.files(), std::vector<std::string>{});
}

TEST(AtomicFile, APipeOrADeviceIsNeverReplaced) {
  // The rename replaced whatever was at the path: as root, /dev/null too. A pipe stands in.
  TempDir dir;
  const auto pipe = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0644), 0);
  EXPECT_THROW(report::write_file_atomically(pipe, "data"), UsageError);
  EXPECT_TRUE(std::filesystem::is_fifo(pipe));
  EXPECT_EQ(dir.files(), std::vector<std::string>{});
}

/// Whether process `pid` has a file of `dir` open (named, or unnamed: "dir/#inode (deleted)").
bool has_open_file_in(pid_t pid, const std::filesystem::path& dir) {
  std::error_code ec;
  const std::string prefix = dir.string() + "/";
  for (const auto& fd :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    const auto target = std::filesystem::read_symlink(fd.path(), ec);
    if (!ec && target.string().rfind(prefix, 0) == 0) return true;
  }
  return false;
}

TEST(AtomicFile, AWriterKilledWhileItWritesLeavesNoFileBehind) {
  // The report's file has no name until it is complete: a run killed (SIGKILL, no handler runs)
  // while it writes leaves the folder as it was. The kill comes once the writer holds the file
  // open, in the middle of writing 256 MiB.
  TempDir dir;
  const int probe = ::open(dir.path().c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (probe < 0) GTEST_SKIP() << "the file system of " << dir.path() << " has no O_TMPFILE";
  ::close(probe);
  const std::string content(std::size_t{256} << 20, 'x');
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    report::write_file_atomically(dir.path() / "r.json", content);
    ::_exit(0);
  }
  bool open_seen = false;
  for (int i = 0; i < 1'000'000 && !open_seen; ++i) open_seen = has_open_file_in(child, dir.path());
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(open_seen) << "the writer was never seen with its file open";
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer finished before the kill";
  EXPECT_EQ(dir.files(), std::vector<std::string>{});
}

TEST(AtomicFile, MissingDirectoryThrowsAndCreatesNothing) {
  TempDir dir;
  EXPECT_THROW(report::write_file_atomically(dir.path() / "no" / "r.json", "x"), std::system_error);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "no"));
}

TEST(Report, HasTheSchemaContextConfigCellsAndSummary) {
  TempDir dir;
  const auto config = config_for(dir.path() / "r.json");
  const auto context = report::current_context({"syncstress", "run", "--scenario", "x"});
  const auto doc = report::build_report(context, config, outcome_with_one_failure());
  EXPECT_EQ(doc["schema"], "syncstress.report/1");
  for (const char* key :
       {"tool", "version", "git_revision", "date", "host", "cpus", "build_type", "command_line"}) {
    EXPECT_TRUE(doc["context"].contains(key)) << key;
  }
  EXPECT_EQ(doc["context"]["command_line"].size(), 4u);
  EXPECT_GE(doc["context"]["cpus"].get<unsigned>(), 1u);
  // ISO-8601 UTC: 2025-11-22T04:19:00Z
  const std::string date = doc["context"]["date"];
  ASSERT_EQ(date.size(), 20u) << date;
  EXPECT_EQ(date[10], 'T');
  EXPECT_EQ(date.back(), 'Z');
  EXPECT_EQ(doc["config"]["seed"], 99);
  EXPECT_TRUE(doc["config"]["executions"].is_null());
  ASSERT_EQ(doc["cells"].size(), 2u);
  const auto& failing = doc["cells"][1];
  EXPECT_EQ(failing["verdict"], "fail");
  EXPECT_EQ(failing["metrics"]["jain_index"], 0.98);
  ASSERT_EQ(failing["violations"].size(), 1u);
  const auto& v = failing["violations"][0];
  EXPECT_EQ(v["seed"], 99);
  EXPECT_EQ(v["trace"].size(), 2u);
  // The backend that found the violation spelled its replay command; the report keeps it.
  EXPECT_EQ(v["replay_command"], "syncstress replay --schedule AbC-9 --scenario mutex-safety");
  EXPECT_EQ(doc["summary"]["pass"], 1);
  EXPECT_EQ(doc["summary"]["fail"], 1);
  EXPECT_EQ(doc["summary"]["violations"], 1);
}

TEST(Report, WrittenReportReadsBackAndPrintsItsTable) {
  TempDir dir;
  const auto config = config_for(dir.path() / "r.json");
  const auto doc = report::build_report(report::current_context({"syncstress"}), config,
                                        outcome_with_one_failure());
  report::write_report(config.out, doc);
  const auto read = report::read_report(config.out);
  EXPECT_EQ(read, doc);
  std::ostringstream table;
  report::print_table(table, read);
  const std::string text = table.str();
  EXPECT_NE(text.find("primitive"), std::string::npos);
  EXPECT_NE(text.find("first violation"), std::string::npos);
  EXPECT_NE(text.find("broken_mutex"), std::string::npos);
  EXPECT_NE(text.find("mutual_exclusion: two holders at step 41"), std::string::npos) << text;
  EXPECT_NE(text.find("0.25s"), std::string::npos) << text;
}

TEST(Report, TableKeepsEachCellOnOneLineAndNamesThePropertyOnce) {
  auto doc = report::build_report(report::current_context({"syncstress"}),
                                  config_for("/nonexistent/r.json"), outcome_with_one_failure());
  auto& v = doc["cells"][1]["violations"][0];
  v["property"] = "deadlock";
  v["message"] = "no thread can run\n  thread 0 waits in join";
  doc["cells"][0]["metrics"]["search_complete"] = true;
  std::ostringstream table;
  report::print_table(table, doc);
  const std::string text = table.str();
  EXPECT_NE(text.find("| deadlock: no thread can run\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("deadlock: deadlock"), std::string::npos) << text;
  EXPECT_EQ(text.find("thread 0 waits"), std::string::npos) << text;
  // The first cell's search ran out of schedules: its executions say "(all)".
  EXPECT_NE(text.find(" (all)"), std::string::npos) << text;
}

TEST(Report, ReadRejectsAReportMissingARequiredCellField) {
  TempDir dir;
  const auto path = dir.write("r.json", R"({"schema": "syncstress.report/1", "config": {},
      "cells": [{"primitive": "p", "scenario": "s", "verdict": "pass", "executions": 1,
                 "elapsed_seconds": 1, "violations": []}]})");
  try {
    report::read_report(path);
    FAIL() << "accepted a cell without a schedule";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cells[0] needs a field \"schedule\""), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace report_writer_test
}  // namespace syncstress
