// A run stops promptly on SIGINT and SIGTERM and still writes its report; a second signal exits
// at once; SIGKILL leaves no orphaned child and no truncated report. A cell its time budget
// cuts short is inconclusive (exit 4), not a pass, unless --soak; and the verdicts of the gate
// do not change on a machine four times slower.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "tests/cli_harness.hpp"

namespace syncstress {
namespace cli_interrupt_test {
namespace {

using nlohmann::json;
using testing::TempDir;
using Clock = std::chrono::steady_clock;

/// The syncstress binary started in the background in its own process group (as a shell
/// starts a foreground job), with stdout and stderr into files of `dir`.
class Background {
 public:
  /// `env` ("NAME=value") is added to the environment the process and its children inherit.
  Background(const std::vector<std::string>& args, const TempDir& dir,
             const std::vector<std::string>& env = {})
      : dir_(dir) {
    const std::string binary = testing::binary_path();
    std::vector<char*> envp;
    for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::setpgid(0, 0);
      if (!std::freopen((dir.path() / "stdout").c_str(), "w", stdout) ||
          !std::freopen((dir.path() / "stderr").c_str(), "w", stderr) ||
          ::chdir(dir.path().c_str()) != 0) {
        ::_exit(127);
      }
      std::vector<char*> argv{const_cast<char*>(binary.c_str())};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execve(binary.c_str(), argv.data(), envp.data());
      ::_exit(126);
    }
    ::setpgid(pid_, pid_);
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background() {
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  pid_t pid() const { return pid_; }

  /// The children of the process (those the run supervises), from /proc.
  std::vector<pid_t> children() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) +
                     "/children");
    std::vector<pid_t> out;
    for (pid_t p; in >> p;) out.push_back(p);
    return out;
  }

  /// Waits until the run has a child (a cell is running), at most `limit`.
  bool wait_for_child(std::chrono::seconds limit) const {
    for (const auto end = Clock::now() + limit; Clock::now() < end;) {
      if (!children().empty()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  /// Reaps the process; its exit code (128 + signal when a signal ended it).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  std::string err() const { return testing::read_file(dir_.path() / "stderr"); }
  std::string out() const { return testing::read_file(dir_.path() / "stdout"); }

 private:
  const TempDir& dir_;
  pid_t pid_ = -1;
};

/// Whether `pid` is gone (or a zombie nobody has reaped yet), waiting up to a second.
bool gone(pid_t pid) {
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!stat || !std::getline(stat, line)) return true;
    const auto state = line.substr(line.rfind(')') + 2, 1);
    if (state == "Z" || state == "X") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

/// A cell that would run for half a minute: a hundred million executions.
std::vector<std::string> long_run(const std::string& scenario = "mutex-safety") {
  return {"run",        "--scenario",    scenario, "--primitive", "ticket_mutex",
          "--schedule", "random",        "--seed", "1",           "--executions",
          "100000000",  "--time-budget", "30",     "--out",       "r.json"};
}

/// The files the run left in `dir`, apart from its stdout and stderr.
std::vector<std::string> left_files(const TempDir& dir) {
  std::vector<std::string> out;
  for (const auto& f : dir.files()) {
    if (f != "stdout" && f != "stderr") out.push_back(f);
  }
  return out;
}

TEST(CliInterrupt, CtrlCStopsTheRunWithinASecondAndWritesTheReport) {
  TempDir dir;
  Background run(long_run(), dir);
  ASSERT_TRUE(run.wait_for_child(std::chrono::seconds(20))) << run.err();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto children = run.children();
  // As a terminal does: to the whole process group, the cell's child too.
  const auto sent = Clock::now();
  ASSERT_EQ(::kill(-run.pid(), SIGINT), 0);
  const int code = run.wait();
  const double seconds = std::chrono::duration<double>(Clock::now() - sent).count();
  EXPECT_EQ(code, 130) << run.err();
  EXPECT_LT(seconds, 1.0);
  for (pid_t child : children) EXPECT_TRUE(gone(child)) << "child " << child << " survived";
  EXPECT_EQ(left_files(dir), std::vector<std::string>{"r.json"});
  const auto report = json::parse(testing::read_file(dir.path() / "r.json"));
  ASSERT_EQ(report["cells"].size(), 1u);
  const auto& cell = report["cells"][0];
  EXPECT_EQ(cell["verdict"], "interrupted");
  EXPECT_EQ(cell["stopped_by"], "interrupted");
  EXPECT_GT(cell["executions"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(cell["planned_executions"], 100000000);
  EXPECT_EQ(report["summary"]["interrupted_by"], "SIGINT");
  EXPECT_NE(run.out().find("interrupted"), std::string::npos) << run.out();
  EXPECT_NE(run.err().find("interrupted by SIGINT after 1 of 1 cells"), std::string::npos)
      << run.err();
}

TEST(CliInterrupt, SigtermToTheParentAloneStopsTheCellAndTheCellsAfterIt) {
  TempDir dir;
  // Every mutex: the matrix has cells left when the signal comes.
  Background run({"run", "--scenario", "mutex-safety", "--schedule", "random", "--executions",
                  "100000000", "--time-budget", "30", "--out", "r.json"},
                 dir);
  ASSERT_TRUE(run.wait_for_child(std::chrono::seconds(20))) << run.err();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto sent = Clock::now();
  ASSERT_EQ(::kill(run.pid(), SIGTERM), 0);
  EXPECT_EQ(run.wait(), 143) << run.err();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - sent).count(), 1.0);
  const auto report = json::parse(testing::read_file(dir.path() / "r.json"));
  ASSERT_GE(report["cells"].size(), 1u);
  EXPECT_EQ(report["cells"].back()["verdict"], "interrupted");
  EXPECT_LT(report["cells"].size(), report["summary"]["cells_planned"].get<std::size_t>());
  EXPECT_EQ(report["summary"]["interrupted_by"], "SIGTERM");
}

TEST(CliInterrupt, ASecondCtrlCExitsAtOnceAndLeavesNoTemporaryFile) {
  TempDir dir;
  Background run(long_run(), dir);
  ASSERT_TRUE(run.wait_for_child(std::chrono::seconds(20))) << run.err();
  const auto children = run.children();
  ASSERT_EQ(::kill(run.pid(), SIGINT), 0);
  ASSERT_EQ(::kill(run.pid(), SIGINT), 0);
  EXPECT_EQ(run.wait(), 130) << run.err();
  for (pid_t child : children) EXPECT_TRUE(gone(child)) << "child " << child << " survived";
  // The report was written whole, or not at all.
  for (const auto& f : left_files(dir)) {
    EXPECT_EQ(f, "r.json");
    EXPECT_TRUE(json::accept(testing::read_file(dir.path() / f))) << f;
  }
}

TEST(CliInterrupt, SigkillLeavesNoOrphanAndThePreviousReport) {
  TempDir dir;
  dir.write("r.json", "{\"previous\": true}\n");
  Background run(long_run(), dir);
  ASSERT_TRUE(run.wait_for_child(std::chrono::seconds(20))) << run.err();
  const auto children = run.children();
  ASSERT_FALSE(children.empty());
  ASSERT_EQ(::kill(run.pid(), SIGKILL), 0);
  EXPECT_EQ(run.wait(), 128 + SIGKILL);
  for (pid_t child : children) EXPECT_TRUE(gone(child)) << "child " << child << " survived";
  EXPECT_EQ(testing::read_file(dir.path() / "r.json"), "{\"previous\": true}\n");
}

/// The processes alive (zombies aside) whose environment holds `entry`: every process a run
/// started inherits it, whatever its parent or process group has become since.
std::vector<pid_t> alive_with_environment(const std::string& entry) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& proc : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = proc.path().filename();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(proc.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // A zombie's environment reads empty, as does a process of another user's.
    for (std::size_t at = 0; at < env.size();) {
      const std::size_t end = std::min(env.find('\0', at), env.size());
      if (env.compare(at, end - at, entry) == 0) {
        out.push_back(static_cast<pid_t>(std::stol(name)));
        break;
      }
      at = end + 1;
    }
  }
  return out;
}

/// Waits up to 0.3 s for the processes of `alive_with_environment(entry)` to be gone; those
/// left.
std::vector<pid_t> survivors(const std::string& entry) {
  std::vector<pid_t> left;
  for (int i = 0; i < 15; ++i) {
    left = alive_with_environment(entry);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return left;
}

/// SIGKILL of the parent at moments drawn from the whole of a run (before its first cell,
/// inside a cell, between cells, while it writes the report, after it): the report at --out is
/// the previous one or the whole new one, never a part, and no process the run started
/// survives it, in the cells' own children and in a tool program's process group alike.
struct KilledRun {
  const char* schedule;
  const char* name;
};

void PrintTo(const KilledRun& run, std::ostream* out) { *out << run.schedule; }

class CliSigkillAtRandomMoments : public ::testing::TestWithParam<KilledRun> {};

TEST_P(CliSigkillAtRandomMoments, LeavesThePreviousReportOrTheWholeNewOneAndNoProcess) {
  // Two cells of a second each (a soak: the time budget is their end, not a cut): a child
  // the kill orphaned would outlive it long enough to be seen.
  const std::vector<std::string> args = {
      "run",         "--scenario",     "mutex-safety", "--primitive",       "ticket_mutex",
      "--primitive", "platform_mutex", "--schedule",   GetParam().schedule, "--seed",
      "1",           "--executions",   "100000000",    "--time-budget",     "1",
      "--soak",      "--out",          "r.json"};
  const std::string previous = "{\"previous\": true}\n";
  // The run uninterrupted: how long it takes here, and the cells a whole report holds.
  TempDir whole_dir;
  const auto started = Clock::now();
  {
    Background whole(args, whole_dir);
    ASSERT_EQ(whole.wait(), 0) << whole.err();
  }
  const double whole_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  const auto whole_report = json::parse(testing::read_file(whole_dir.path() / "r.json"));
  ASSERT_EQ(whole_report["cells"].size(), 2u);

  // A fixed seed: the moments are the same fractions of the run on every machine.
  std::mt19937_64 moments(20261128);
  std::uniform_real_distribution<double> fraction(0.0, 1.1);
  int kept_previous = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    const double at = fraction(moments) * whole_seconds;
    std::ostringstream moment;
    moment << "SIGKILL " << at << " s into a run of " << whole_seconds << " s";
    SCOPED_TRACE(moment.str());
    TempDir dir;
    dir.write("r.json", previous);
    const std::string token =
        "SYNCSTRESS_KILL_TEST=" + std::to_string(::getpid()) + "." + std::to_string(attempt);
    Background run(args, dir, {token});
    // The moment counts from the exec: from then on the run's processes carry the token.
    const auto carries = [&] {
      const auto carriers = alive_with_environment(token);
      return std::find(carriers.begin(), carriers.end(), run.pid()) != carriers.end();
    };
    bool execed = carries();
    for (const auto limit = Clock::now() + std::chrono::seconds(5); !execed && Clock::now() < limit;
         execed = carries()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(execed) << run.err();
    std::this_thread::sleep_for(std::chrono::duration<double>(at));
    ASSERT_EQ(::kill(run.pid(), SIGKILL), 0);
    const int code = run.wait();
    EXPECT_TRUE(code == 128 + SIGKILL || code == 0) << code << run.err();
    EXPECT_EQ(survivors(token), std::vector<pid_t>{});
    const std::string left = testing::read_file(dir.path() / "r.json");
    if (left == previous) {
      ++kept_previous;
      continue;
    }
    ASSERT_TRUE(json::accept(left)) << "a part of a report: " << left.substr(0, 200);
    const auto report = json::parse(left);
    ASSERT_EQ(report["cells"].size(), whole_report["cells"].size());
    for (std::size_t c = 0; c < report["cells"].size(); ++c) {
      EXPECT_EQ(report["cells"][c]["verdict"], whole_report["cells"][c]["verdict"]);
      EXPECT_EQ(report["cells"][c]["stopped_by"], "time_budget");
    }
  }
  // Most moments fall inside the run, where the previous report must stay.
  EXPECT_GE(kept_previous, 2);
}

INSTANTIATE_TEST_SUITE_P(SimAndRelacy, CliSigkillAtRandomMoments,
                         ::testing::Values(KilledRun{"random", "Sim"},
                                           KilledRun{"relacy-random", "Relacy"}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(CliInterrupt, ACellItsTimeBudgetCutsShortIsInconclusiveUnlessASoak) {
  TempDir dir;
  std::vector<std::string> args = {"run",          "--scenario",    "mutex-safety", "--primitive",
                                   "ticket_mutex", "--schedule",    "random",       "--executions",
                                   "100000000",    "--time-budget", "0.5",          "--out",
                                   "r.json"};
  auto r = testing::run_cli(args, dir.path());
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("inconclusive"), std::string::npos) << r.err;
  auto cell = json::parse(testing::read_file(dir.path() / "r.json"))["cells"][0];
  EXPECT_EQ(cell["verdict"], "inconclusive");
  EXPECT_EQ(cell["stopped_by"], "time_budget");
  EXPECT_LT(cell["executions"].get<std::uint64_t>(), 100000000u);

  args.push_back("--soak");
  r = testing::run_cli(args, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  cell = json::parse(testing::read_file(dir.path() / "r.json"))["cells"][0];
  EXPECT_EQ(cell["verdict"], "pass");
  EXPECT_EQ(cell["stopped_by"], "time_budget");
}

TEST(CliInterrupt, TheGateGivesTheSameVerdictsOnAMachineFourTimesSlower) {
  // The presets bound their cells by executions; their time budgets are a safety net that a
  // machine four times slower (the cells' clock runs four times faster) must not reach.
#ifdef SYNCSTRESS_ASAN
  // The sanitized build is a slow machine already: four times slower than that is past what
  // the presets' safety nets are sized for.
  GTEST_SKIP() << "checked in the Release build";
#endif
  TempDir dir;
  const std::string baseline = SYNCSTRESS_SOURCE_DIR "/results/baseline.json";
  for (const char* scenario : {"mutex-safety", "shared-mutex-starvation"}) {
    const std::string out = std::string(scenario) + ".json";
    const auto r = testing::run_cli({"run", "--scenario", scenario, "--quiet", "--out", out},
                                    dir.path(), {"SYNCSTRESS_TEST_SLOWDOWN=4"});
    ASSERT_LE(r.exit_code, 1) << r.out << r.err;
    const auto g = testing::run_cli({"gate", "--baseline", baseline, out}, dir.path());
    EXPECT_EQ(g.exit_code, 0) << scenario << ":\n" << g.out << g.err;
  }
}

}  // namespace
}  // namespace cli_interrupt_test
}  // namespace syncstress
