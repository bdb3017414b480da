// What the system refuses the tool is neither the user's mistake nor a bug of the tool's: a
// full disk ends a run with exit 5, a message saying what the system said and what to do, the
// previous report intact and no temporary file left.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_harness.hpp"
#include "report_totals.hpp"

namespace syncstress::testing {
namespace cli_environment_test {
namespace {

/// A small tmpfs mounted on a folder of its own for the test's life (root only).
class SmallFileSystem {
 public:
  SmallFileSystem() {
    if (::geteuid() != 0) {
      why_not_ = "not root: mounting a small tmpfs needs root";
      return;
    }
    if (::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, "size=256k") != 0) {
      why_not_ = std::string("mount -t tmpfs failed: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  SmallFileSystem(const SmallFileSystem&) = delete;
  SmallFileSystem& operator=(const SmallFileSystem&) = delete;
  ~SmallFileSystem() {
    if (mounted_) ::umount(dir_.path().c_str());
  }
  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_not_; }
  std::filesystem::path path() const { return dir_.path(); }

  /// Writes zeros into it until it is full.
  void fill() const {
    std::ofstream out(dir_.path() / "fill", std::ios::binary);
    const std::vector<char> block(4096, 0);
    while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }

 private:
  TempDir dir_;
  bool mounted_ = false;
  std::string why_not_;
};

std::vector<std::string> small_run(const std::filesystem::path& out) {
  return {"run",          "--scenario", "mutex-safety", "--primitive", "ticket_mutex",
          "--executions", "10",         "--quiet",      "--out",       out.string()};
}

TEST(CliEnvironment, AFullDiskIsExitFiveWithThePreviousReportIntact) {
  SmallFileSystem fs;
  if (!fs.mounted()) GTEST_SKIP() << "no full-disk test: " << fs.why_not();
  const auto report = fs.path() / "r.json";
  TempDir cwd;
  ASSERT_EQ(run_cli(small_run(report), cwd.path()).exit_code, 0);
  const auto before = read_json(report);
  fs.fill();
  const auto r = run_cli(small_run(report), cwd.path());
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("write elsewhere (--out)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_EQ(read_json(report), before);
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(fs.path())) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"fill", "r.json"}));
}

}  // namespace
}  // namespace cli_environment_test
}  // namespace syncstress::testing
