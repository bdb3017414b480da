// Runs the built syncstress binary as a child process, the way a user would, for the CLI
// tests: its path comes from SYNCSTRESS_BINARY (set for every test by CMakeLists.txt).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace syncstress::testing {

/// What one run of the binary did.
struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// A fresh directory under the system temp dir, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "syncstress-test-XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  /// Writes `content` to path()/name and returns the full path.
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << content;
    return file;
  }
  /// Every regular file below path(), relative to it, sorted.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::recursive_directory_iterator(path_)) {
      if (e.is_regular_file()) names.push_back(std::filesystem::relative(e.path(), path_));
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The binary under test; fails the test when the variable is missing or wrong.
inline std::string binary_path() {
  const char* binary = std::getenv("SYNCSTRESS_BINARY");
  if (binary == nullptr || !std::filesystem::exists(binary)) {
    ADD_FAILURE() << "SYNCSTRESS_BINARY is not set to the built syncstress binary";
    return "/nonexistent/syncstress";
  }
  return binary;
}

/// The Relacy child the CLI runs, built beside syncstress.
inline std::string relacy_binary_path() {
  return (std::filesystem::path(binary_path()).parent_path() / "syncstress-relacy").string();
}

/// Runs `binary args...` in directory `cwd` with the extra environment `env` ("NAME=value"),
/// capturing stdout and stderr.
inline CliResult run_binary(const std::string& binary, const std::vector<std::string>& args,
                            const std::filesystem::path& cwd,
                            const std::vector<std::string>& env = {}) {
  TempDir capture;
  const auto out_path = capture.path() / "out";
  const auto err_path = capture.path() / "err";
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0 ||
        ::chdir(cwd.c_str()) != 0) {
      ::_exit(127);
    }
    for (const auto& assignment : env) ::putenv(const_cast<char*>(assignment.c_str()));
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(126);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

/// Runs `syncstress args...` (see run_binary).
inline CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                         const std::vector<std::string>& env = {}) {
  return run_binary(binary_path(), args, cwd, env);
}

}  // namespace syncstress::testing
