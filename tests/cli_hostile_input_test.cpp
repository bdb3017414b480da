// What a user hands the tool never decides where it writes, never destroys one file with
// another, and never reaches the terminal as control sequences: hostile preset names, one path
// given for an input and an output, empty flag values, repeated names, edited positions, and
// escape sequences in reports each exit 2 (or are shown escaped) with every file outside as it
// was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_hostile_input_test {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;

/// mutex-safety, made small, under another name.
json preset_named(const std::string& name) {
  return {{"name", name},
          {"description", "a preset someone shared"},
          {"family", "safety"},
          {"kind", "mutex"},
          {"parameters", json::object()},
          {"schedule", {{"strategy", "random"}, {"executions", 5}}}};
}

/// The report file stamps of the seconds around now (report::utc_file_stamp_now's format).
std::vector<std::string> stamps_around_now(int before, int after) {
  std::vector<std::string> out;
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  for (int d = -before; d <= after; ++d) {
    const std::time_t t = now + d;
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
    out.emplace_back(text);
  }
  return out;
}

/// A working folder with a file outside it that nothing may touch.
class CliHostileInput : public ::testing::Test {
 protected:
  void SetUp() override {
    sentinel_ = root_.write("victim/baseline.json", "{\"the\": \"victim's baseline\"}\n");
    std::filesystem::create_directories(work());
  }
  std::filesystem::path work() const { return root_.path() / "work"; }
  CliResult run(const std::vector<std::string>& args) const { return run_cli(args, work()); }
  void expect_sentinel_unchanged() const {
    EXPECT_EQ(read_file(sentinel_), "{\"the\": \"victim's baseline\"}\n");
    std::vector<std::string> outside;
    for (const auto& f : root_.files()) {
      if (f.rfind("work/", 0) != 0) outside.push_back(f);
    }
    EXPECT_EQ(outside, std::vector<std::string>{"victim/baseline.json"})
        << "only the sentinel may be outside work/";
  }
  /// Files below work/, relative to it.
  std::vector<std::string> work_files() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::recursive_directory_iterator(work())) {
      if (!e.is_directory()) names.push_back(std::filesystem::relative(e.path(), work()));
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  TempDir root_;
  std::filesystem::path sentinel_;
};

TEST_F(CliHostileInput, APresetNameThatIsNotANameIsRefusedAndNothingIsWritten) {
  const std::vector<std::string> names = {"x/../../../../victim/baseline",
                                          "../victim/baseline",
                                          "..",
                                          ".",
                                          "/tmp/absolute",
                                          "a/b",
                                          std::string("a\0b", 3),
                                          "a\x1b[31mred",
                                          "line\nbreak",
                                          "with space",
                                          "-leading-dash",
                                          ".hidden",
                                          "",
                                          std::string(65, 'a'),
                                          std::string(5000, 'a')};
  for (const auto& name : names) {
    SCOPED_TRACE(json(name).dump());
    std::ofstream(work() / "shared.json") << preset_named(name).dump();
    const auto r = run({"run", "--preset", "shared.json", "--primitive", "ticket_mutex"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("shared.json: \"name\""), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is not a preset name: it must be 1 to 64 characters"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "an escape sequence reached stderr";
    EXPECT_EQ(work_files(), std::vector<std::string>{"shared.json"});
    expect_sentinel_unchanged();
  }
}

TEST_F(CliHostileInput, ADefaultReportNeverReplacesWhatIsAtItsPath) {
  // Whatever the second the report is written in, its default name is taken: by a folder, by a
  // file, or by a symbolic link to the file outside.
  std::ofstream(work() / "shared.json") << preset_named("taken").dump();
  const auto runs = work() / "results" / "runs";
  std::filesystem::create_directories(runs);
  std::vector<std::string> before;
  for (const auto& stamp : stamps_around_now(2, 60)) {
    const std::string stem = stamp + "-taken";
    std::filesystem::create_directory(runs / (stem + ".json"));
    std::ofstream(runs / (stem + "-2.json")) << "someone's file\n";
    std::filesystem::create_symlink(sentinel_, runs / (stem + "-3.json"));
  }
  const auto files_before = work_files();
  const auto r = run({"run", "--preset", "shared.json", "--primitive", "ticket_mutex"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto files_after = work_files();
  std::vector<std::string> added;
  std::set_difference(files_after.begin(), files_after.end(), files_before.begin(),
                      files_before.end(), std::back_inserter(added));
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].rfind("results/runs/", 0), 0u);
  EXPECT_NE(added[0].find("-taken-4.json"), std::string::npos) << added[0];
  EXPECT_NE(r.out.find("report: " + added[0]), std::string::npos) << r.out;
  EXPECT_EQ(json::parse(read_file(work() / added[0])).at("config").at("out"), added[0]);
  for (const auto& f : files_before) {
    if (f.find("-taken-2.json") != std::string::npos) {
      EXPECT_EQ(read_file(work() / f), "someone's file\n");
    }
  }
  EXPECT_EQ(read_file(sentinel_), "{\"the\": \"victim's baseline\"}\n");
}

TEST_F(CliHostileInput, AnOutputThatIsAnInputOrAnotherOutputIsRefusedAndNothingChanges) {
  ASSERT_EQ(run({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--executions",
                 "5", "--quiet", "--out", "R.json"})
                .exit_code,
            0);
  ASSERT_EQ(run({"gate", "--write-baseline", "B.json", "R.json", "--quiet"}).exit_code, 0);
  std::ofstream(work() / "p.json") << preset_named("mine").dump();
  std::filesystem::create_symlink("R.json", work() / "R-link.json");
  std::filesystem::create_symlink("B.json", work() / "B-link.json");
  std::filesystem::create_symlink("p.json", work() / "p-link.json");
  std::filesystem::create_directory(work() / "sub");
  const auto content = [&] {
    std::vector<std::string> all;
    for (const auto& f : work_files()) {
      all.push_back(f + "=" +
                    (std::filesystem::is_symlink(work() / f) ? "link" : read_file(work() / f)));
    }
    return all;
  };
  const auto before = content();
  const std::vector<std::string> run_cell = {
      "run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--executions", "5"};
  const auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  // Each case twice: the same spelling, then another way to the same file.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {with(run_cell, {"--out", "X.json", "--html", "X.json"}),
       "--out X.json is the same file as --html"},
      {with(run_cell, {"--out", "X.json", "--html", "sub/../X.json"}), "is the same file as"},
      {{"run", "--preset", "p.json", "--out", "p.json"}, "is the same file as --preset"},
      {{"run", "--preset", "p.json", "--out", "p-link.json"}, "is the same file as --preset"},
      {{"run", "--preset", "p.json", "--html", "p.json"}, "is the same file as --preset"},
      {{"run", "--preset", "p.json", "--html", "./p-link.json"}, "is the same file as --preset"},
      {{"run", "--resume", "R.json", "--out", "R.json"}, "is the same file as --resume"},
      {{"run", "--resume", "R.json", "--out", "R-link.json"}, "is the same file as --resume"},
      {{"run", "--resume", "R.json", "--html", "R.json"}, "is the same file as --resume"},
      {{"run", "--resume", "R-link.json", "--html", "sub/../R.json"},
       "is the same file as --resume"},
      {{"gate", "R.json", "--baseline", "B.json", "--junit", "R.json"},
       "--junit R.json is the same file as REPORT.json"},
      {{"gate", "R.json", "--baseline", "B.json", "--junit", "R-link.json"},
       "is the same file as REPORT.json"},
      {{"gate", "--baseline", "B.json", "--junit", "B.json", "R.json"},
       "is the same file as --baseline"},
      {{"gate", "--baseline", "B.json", "--junit", "B-link.json", "R.json"},
       "is the same file as --baseline"},
      {{"gate", "--write-baseline", "R.json", "R.json"}, "is the same file as REPORT.json"},
      {{"gate", "--write-baseline", "R-link.json", "R.json"}, "is the same file as REPORT.json"},
      {{"gate", "--write-baseline", "W.json", "R.json", "--junit", "W.json"},
       "is the same file as --junit"},
      {{"merge", "R.json", "--out", "R.json"}, "--out R.json is the same file as REPORT.json"},
      {{"merge", "R.json", "--out", "R-link.json"}, "is the same file as REPORT.json"},
      {{"html", "R.json", "--out", "R.json"}, "is the same file as REPORT.json"},
      {{"html", "R.json", "--out", "R-link.json"}, "is the same file as REPORT.json"},
  };
  for (const auto& [args, needle] : cases) {
    std::string command;
    for (const auto& a : args) command += " " + a;
    SCOPED_TRACE("syncstress" + command);
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(content(), before) << "a file was written or changed";
  }
  expect_sentinel_unchanged();
}

/// The options of `syncstress <subcommand>` that take a value, as its --help lists them.
std::vector<std::string> value_options(const std::string& subcommand) {
  TempDir dir;
  const auto help = run_cli({subcommand, "--help"}, dir.path());
  EXPECT_EQ(help.exit_code, 0) << help.err;
  std::vector<std::string> out;
  const std::regex option(R"(^  (--[a-z-]+) [A-Z][A-Za-z0-9=._/]*( |$))");
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, option)) out.push_back(m[1]);
  }
  return out;
}

TEST_F(CliHostileInput, EveryOptionGivenAnEmptyValueIsRefusedByName) {
  std::size_t checked = 0;
  for (const std::string sub : {"run", "replay", "gate", "merge", "html"}) {
    for (const auto& option : value_options(sub)) {
      SCOPED_TRACE(sub + " " + option + " ''");
      const auto r = run({sub, option, ""});
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_NE(r.err.find(option + ": an empty value"), std::string::npos) << r.err;
      ++checked;
    }
  }
  // run's 13 (scenario, preset, primitive, schedule, seed, executions, time-budget,
  // shrink-budget, set, shard, out, html, resume), replay's 7, gate's 3, merge's and html's out.
  EXPECT_EQ(checked, 13u + 7u + 3u + 1u + 1u);
  for (const std::string sub : {"replay", "gate", "merge", "html"}) {
    SCOPED_TRACE(sub + " ''");
    const auto r = run({sub, ""});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("an empty value"), std::string::npos) << r.err;
  }
  EXPECT_EQ(work_files(), std::vector<std::string>{});
  expect_sentinel_unchanged();
}

TEST_F(CliHostileInput, ANameGivenTwiceIsRefusedNotRunTwice) {
  std::vector<std::string> thousand = {"run", "--scenario", "mutex-safety", "--executions", "5"};
  for (int i = 0; i < 1000; ++i) thousand.insert(thousand.end(), {"--primitive", "ticket_mutex"});
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--primitive",
        "platform_mutex", "--primitive", "ticket_mutex"},
       "--primitive ticket_mutex is given twice"},
      {thousand, "--primitive ticket_mutex is given twice"},
      {{"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex", "--set", "actors=2",
        "--set", "actors=3"},
       "--set actors= is given twice"},
      {{"run", "--scenario", "mutex-safety", "--scenario", "mutex-safety"}, "--scenario"},
      {{"replay", "--schedule", "x", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
        "--set", "actors=2", "--set", "actors=2"},
       "--set actors= is given twice"},
  };
  for (const auto& [args, needle] : cases) {
    SCOPED_TRACE(args.size() > 20 ? "--primitive x 1000" : json(args).dump());
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  }
  EXPECT_EQ(work_files(), std::vector<std::string>{});
}

/// A run of mutex-safety on ticket_mutex that its time budget stops, with a position (at the
/// preset's own size, beyond its model-checking size, which an exhaustive search finishes).
json stopped_run(const TempDir& dir, const std::string& schedule, const std::string& name,
                 const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {"run",          "--scenario",   "mutex-safety", "--primitive",
                                   "ticket_mutex", "--schedule",   schedule,       "--set",
                                   "rounds=2",     "--executions", "1000000000",   "--time-budget",
                                   "0.3",          "--quiet",      "--out",        name};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = run_cli(args, dir.path());
  EXPECT_EQ(r.exit_code, 4) << r.err;
  auto report = json::parse(read_file(dir.path() / name));
  EXPECT_FALSE(report.at("cells")[0].at("position").is_null());
  return report;
}

TEST_F(CliHostileInput, AResumedPositionMustAgreeWithItselfAndItsRun) {
  TempDir dir;
  const json random = stopped_run(dir, "random", "random.json");
  const json search = stopped_run(dir, "exhaustive", "search.json");
  const json shard = stopped_run(dir, "random", "shard.json", {"--shard", "2/3"});
  using Edit = std::function<void(json&)>;
  const auto position = [](json& r) -> json& { return r["cells"][0]["position"]; };
  const std::vector<std::tuple<const json*, Edit, std::string>> cases = {
      {&random, [&](json& r) { position(r)["executions_left"] = 0; }, "executions_left 0"},
      {&search, [&](json& r) { position(r)["executions_left"] = 0; }, "executions_left 0"},
      {&random,
       [&](json& r) {
         position(r)["next_execution"] =
             position(r)["next_execution"].get<std::uint64_t>() + 500000;
         position(r)["executions_left"] = 5;
       },
       "do not add up to its planned_executions"},
      {&random,
       [&](json& r) {
         position(r)["next_execution"] = position(r)["next_execution"].get<std::uint64_t>() + 7;
       },
       "has next_execution"},
      {&random, [&](json& r) { r["cells"][0]["planned_executions"] = 10; },
       "planned_executions 10"},
      {&random, [&](json& r) { r["config"]["executions"] = 999999999; }, "settings plan 999999999"},
      {&random, [&](json& r) { r["context"]["git_revision"] = "0000000"; }, "0000000"},
      {&random, [&](json& r) { r["context"]["version"] = "9.9.9"; }, "9.9.9"},
      {&random, [&](json& r) { r["config"]["shard"] = "2/3"; }, "config.shard says 2/3"},
      {&search, [&](json& r) { r["config"]["shard"] = "2/3"; }, "config.shard says 2/3"},
      {&shard, [&](json& r) { r["config"]["shard"] = nullptr; }, "written by shard 2/3"},
      {&shard, [&](json& r) { position(r)["shard"] = "1/3"; }, "written by shard 1/3"},
      {&random, [&](json& r) { position(r)["search"] = json::object(); }, "no search checkpoint"},
      {&search, [&](json& r) { position(r)["next_execution"] = 3; }, "no next_execution"},
      {&random, [&](json& r) { position(r)["extra"] = 1; }, "unknown field \"extra\""},
      // A position moved here from another cell (the random run's into the search's cell).
      {&search, [&](json& r) { position(r) = random["cells"][0]["position"]; },
       "was written for another cell (ticket_mutex x mutex-safety (random) "},
      {&random, [&](json& r) { position(r).erase("cell"); }, "cell must name the cell"},
      {&random, [&](json& r) { r["cells"][0]["stopped_by"] = "executions"; },
       "stopped by executions but keeps a position"},
  };
  int n = 0;
  for (const auto& [original, edit, needle] : cases) {
    json edited = *original;
    edit(edited);
    const std::string name = "edited-" + std::to_string(++n) + ".json";
    std::ofstream(dir.path() / name) << edited.dump(2);
    SCOPED_TRACE(name + ": " + needle);
    const auto r = run_cli({"run", "--resume", name, "--out", "out.json", "--quiet"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.json"));
  }
  // As written, each goes on.
  for (const std::string name : {"random.json", "search.json", "shard.json"}) {
    const auto r =
        run_cli({"run", "--resume", name, "--time-budget", "0.2", "--quiet", "--out", "on-" + name},
                dir.path());
    EXPECT_EQ(r.exit_code, 4) << name << ": " << r.err;
  }
}

TEST_F(CliHostileInput, MergeRefusesShardsOfAnotherBuildAndCountsPastTwoToThe64) {
  TempDir dir;
  for (const std::string k : {"1", "2"}) {
    ASSERT_EQ(run_cli({"run", "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
                       "--schedule", "random", "--executions", "10", "--quiet", "--shard", k + "/2",
                       "--out", "s" + k + ".json"},
                      dir.path())
                  .exit_code,
              0);
  }
  const auto shard2 = json::parse(read_file(dir.path() / "s2.json"));
  const auto refused = [&](const std::function<void(json&)>& edit, const std::string& needle) {
    json edited = shard2;
    edit(edited);
    std::ofstream(dir.path() / "s2.json") << edited.dump();
    const auto r = run_cli({"merge", "s1.json", "s2.json", "--out", "m.json"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "m.json"));
  };
  refused([](json& r) { r["context"]["version"] = "9.9.9"; }, "different builds");
  refused(
      [](json& r) {
        r["cells"][0]["executions"] = std::numeric_limits<std::uint64_t>::max();
        r["cells"][0]["planned_executions"] = std::numeric_limits<std::uint64_t>::max();
        r["cells"][0]["steps"] = std::numeric_limits<std::uint64_t>::max();
      },
      "add up past 2^64-1");
  refused([](json& r) { r["cells"][0]["executions"] = std::numeric_limits<std::uint64_t>::max(); },
          "above its planned_executions");
  refused([](json& r) { r["cells"][0]["steps"] = std::numeric_limits<std::uint64_t>::max(); },
          "add up past 2^64-1");
  refused([](json& r) { r["cells"][0].erase("planned_executions"); },
          "a cell is not as syncstress run writes it");
}

TEST_F(CliHostileInput, ControlCharactersFromAReportAreShownEscapedNeverSentRaw) {
  const auto r = run({"run", "--scenario", "shared-mutex-starvation", "--primitive",
                      "shared_mutex_part8", "--quiet", "--out", "found.json"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto report = json::parse(read_file(work() / "found.json"));
  const std::string evil =
      "evil\x1b]0;title\x07\x1b[2J\r\xc2\x9b"
      "31m";
  report["cells"][0]["primitive"] = evil;
  report["cells"][0]["violations"][0]["message"] = "message\x1b[31m red";
  std::ofstream(work() / "evil.json") << report.dump();
  const auto clean = [](const std::string& text) {
    return std::none_of(text.begin(), text.end(), [](char c) {
      const auto b = static_cast<unsigned char>(c);
      return (b < 0x20 && b != '\n') || b == 0x7f || b == 0x9b;
    });
  };
  const auto baseline = std::filesystem::path(SYNCSTRESS_SOURCE_DIR) / "results" / "baseline.json";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"replay", "evil.json"},
        std::vector<std::string>{"gate", "evil.json", "--baseline", baseline.string()},
        std::vector<std::string>{"run", "--resume", "evil.json", "--out", "again.json"}}) {
    SCOPED_TRACE(args[0]);
    const auto shown = run(args);
    EXPECT_TRUE(clean(shown.out)) << shown.out;
    EXPECT_TRUE(clean(shown.err)) << shown.err;
    EXPECT_NE((shown.out + shown.err).find("evil\\x1b]0;title\\x07\\x1b[2J\\x0d\\xc2\\x9b31m"),
              std::string::npos)
        << shown.out << shown.err;
  }
  // The page keeps the value, escaped as HTML and JSON need: no raw escape or bell.
  ASSERT_EQ(run({"html", "evil.json", "--out", "evil.html"}).exit_code, 0);
  const auto page = read_file(work() / "evil.html");
  EXPECT_EQ(page.find('\x1b'), std::string::npos);
  EXPECT_EQ(page.find('\x07'), std::string::npos);
}

}  // namespace
}  // namespace cli_hostile_input_test
}  // namespace syncstress
