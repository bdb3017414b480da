// `syncstress html` and `run --html`, end to end: the page of a real run with its breach step,
// the replay of a violation whose report lost its trace, and bad input (exit 2, nothing
// written, a message that says what to give instead).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_html_test {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::TempDir;

/// shared_mutex_part8 on shared-mutex-starvation: one cell, a starvation_freedom violation.
CliResult run_part8(const TempDir& dir, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run",         "--scenario",         "shared-mutex-starvation",
                                   "--primitive", "shared_mutex_part8", "--quiet",
                                   "--out",       "part8.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return testing::run_cli(args, dir.path());
}

TEST(CliHtml, WritesThePageBesideTheReportWithTheBreachStep) {
  TempDir dir;
  auto r = run_part8(dir);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  r = testing::run_cli({"html", "part8.json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "html: part8.html\n");
  const std::string page = testing::read_file(dir.path() / "part8.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<tbody class=\"breach\" id=\"violation-1-breach\">"), std::string::npos);
  EXPECT_NE(page.find("starvation_freedom: "), std::string::npos);
  EXPECT_NE(page.find("data-cells=\"1\""), std::string::npos);

  r = testing::run_cli({"html", "part8.json", "--out", "no-such-dir/page.html"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << "a directory that does not exist: " << r.err;
  r = testing::run_cli({"html", "part8.json", "--out", "elsewhere.html"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(dir.path() / "elsewhere.html"), page);
}

TEST(CliHtml, ReplaysASimViolationWhoseReportHasNoTrace) {
  TempDir dir;
  ASSERT_EQ(run_part8(dir).exit_code, 1);
  json report = json::parse(testing::read_file(dir.path() / "part8.json"));
  auto& v = report["cells"][0]["violations"][0];
  const std::string last = v["trace"].back().get<std::string>();
  v.erase("trace");
  dir.write("untraced.json", report.dump(2));
  const auto r = testing::run_cli({"html", "untraced.json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = testing::read_file(dir.path() / "untraced.html");
  EXPECT_NE(page.find("this one is the schedule&#39;s replay"), std::string::npos);
  const auto breach = page.find("id=\"violation-1-breach\"");
  ASSERT_NE(breach, std::string::npos);
  // The replayed execution ends at the step the report's trace ended at.
  const std::string step = last.substr(0, last.find(' '));
  EXPECT_NE(page.find("&rArr; " + step + "</td>", breach), std::string::npos) << last;
}

TEST(CliHtml, RunWritesThePageWithItsReport) {
  TempDir dir;
  const auto r = run_part8(dir, {"--html", "part8-page.html"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string page = testing::read_file(dir.path() / "part8-page.html");
  EXPECT_NE(page.find("id=\"violation-1-breach\""), std::string::npos);
  EXPECT_NE(page.find("shared_mutex_part8"), std::string::npos);
}

TEST(CliHtml, RunChecksWhereThePageGoesBeforeRunning) {
  TempDir dir;
  const auto r = run_part8(dir, {"--html", "no-such-dir/page.html"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--html"), std::string::npos) << r.err;
  EXPECT_EQ(dir.files(), std::vector<std::string>{}) << "the run went ahead";
}

TEST(CliHtml, BadInputExitsTwoWithTheFixAndWritesNothing) {
  TempDir dir;
  dir.write("broken.json", "{\"schema\": ");
  dir.write("baseline.json", R"({"schema": "syncstress.baseline/1", "cells": []})");
  dir.write("notes.txt", "not json at all");
  for (const auto& [file, needle] : std::vector<std::pair<std::string, std::string>>{
           {"missing.json", "no such report file"},
           {"broken.json", "not valid JSON"},
           {"baseline.json", "schema is \"syncstress.baseline/1\""},
           {"notes.txt", "not valid JSON"}}) {
    SCOPED_TRACE(file);
    const auto r = testing::run_cli({"html", file}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("a report that `syncstress run` wrote"), std::string::npos) << r.err;
  }
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"baseline.json", "broken.json", "notes.txt"}));

  const auto r = testing::run_cli({"html"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("report is required"), std::string::npos) << r.err;
}

TEST(CliHtml, RefusesToWriteThePageOverItsReport) {
  TempDir dir;
  ASSERT_EQ(run_part8(dir).exit_code, 1);
  const std::string before = testing::read_file(dir.path() / "part8.json");
  const auto r = testing::run_cli({"html", "part8.json", "--out", "./part8.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is the same file as REPORT.json"), std::string::npos) << r.err;
  EXPECT_EQ(testing::read_file(dir.path() / "part8.json"), before);
}

}  // namespace
}  // namespace cli_html_test
}  // namespace syncstress
