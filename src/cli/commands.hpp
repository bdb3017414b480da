// The subcommands of `syncstress`: each registers its flags on a CLI11 subcommand and, once
// the command line is parsed, validates them and does its work.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "report/typed_report.hpp"

namespace syncstress::cli {

/// Exit codes of the tool (docs/running.md, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,         ///< every verdict as expected
  kExitViolation = 1,  ///< a property violated (run, replay) or a difference (gate)
  kExitUsage = 2,      ///< usage or input error; nothing was written
  kExitInternal = 3,   ///< a bug in the tool itself
  /// run: a cell's time budget ended it before its planned executions, nothing broken
  kExitInconclusive = 4,
  /// the system refused what the tool needed (a full disk, a permission lost, a folder removed,
  /// no processes left); the previous report is intact (util/environment_error.hpp)
  kExitEnvironment = 5,
  // run: 128 + the signal when SIGINT (130) or SIGTERM (143) stopped it, report written.
};

/// What a command needs besides its own flags.
struct Invocation {
  std::vector<std::string> argv;
  std::ostream& out;
  std::ostream& err;
};

class Command {
 public:
  virtual ~Command() = default;
  /// The CLI11 subcommand this command registered.
  virtual CLI::App* subcommand() const = 0;
  /// Validates the parsed flags and runs; returns an ExitCode. Throws UsageError on bad input.
  virtual int execute(const Invocation& invocation) = 0;
};

std::unique_ptr<Command> add_list_command(CLI::App& app);
std::unique_ptr<Command> add_run_command(CLI::App& app);
std::unique_ptr<Command> add_replay_command(CLI::App& app);
std::unique_ptr<Command> add_gate_command(CLI::App& app);
std::unique_ptr<Command> add_merge_command(CLI::App& app);
std::unique_ptr<Command> add_html_command(CLI::App& app);

/// Writes the HTML page of `report` (`syncstress html`) atomically to `path`; `run --html` too.
void write_html_report(const report::TypedReport& report, const std::filesystem::path& path);

/// The whole program: parses `argv`, runs the chosen subcommand, maps errors to exit codes.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace syncstress::cli
