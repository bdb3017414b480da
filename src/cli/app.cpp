// The top level: subcommands, parse errors and exceptions mapped to the documented exit codes.
#include <exception>
#include <ostream>
#include <sstream>
#include <system_error>

#include "cli/commands.hpp"
#include "report/version.hpp"
#include "util/concat.hpp"
#include "util/environment_error.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

/// Every option of every subcommand that takes a value refuses an empty one: `--out ''` is a
/// mistake (a variable that was not set), never a request for the default.
void refuse_empty_values(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    for (CLI::Option* option : sub->get_options()) {
      if (option->get_type_size() == 0) continue;  // a flag
      option->check(CLI::Validator(
          [](std::string& value) {
            return value.empty() ? std::string("an empty value; give one, or leave the option out")
                                 : std::string();
          },
          "", "NonEmpty"));
    }
  }
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    CLI::App app(
        "syncstress: finds bugs in synchronization primitives by running scenarios "
        "against them on a deterministic scheduler and on the real OS.",
        "syncstress");
    app.set_version_flag(
        "--version", concat("syncstress ", kVersion, " (", git_revision(), ", ", kBuildType, ")"));
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 every verdict as expected, 1 a property violated (or a gate difference),\n"
        "2 usage or input error, 3 internal error, 4 inconclusive (a time budget ended a cell\n"
        "before its executions), 5 the system refused (a full disk, a permission lost, a\n"
        "folder removed; the previous report is intact), 130/143 stopped by SIGINT/SIGTERM\n"
        "(report written).\n"
        "Example:\n  syncstress list\n  syncstress run --scenario shared-mutex-starvation");
    std::vector<std::unique_ptr<Command>> commands;
    commands.push_back(add_list_command(app));
    commands.push_back(add_run_command(app));
    commands.push_back(add_replay_command(app));
    commands.push_back(add_gate_command(app));
    commands.push_back(add_merge_command(app));
    commands.push_back(add_html_command(app));
    refuse_empty_values(app);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      std::ostringstream parse_out, parse_err;
      const int code = app.exit(e, parse_out, parse_err);
      out << parse_out.str();
      err << printable_lines(parse_err.str());
      return code == 0 ? kExitOk : kExitUsage;
    }
    Invocation invocation{std::vector<std::string>(argv, argv + argc), out, err};
    for (const auto& command : commands) {
      if (command->subcommand()->parsed()) return command->execute(invocation);
    }
    err << "syncstress: error: no subcommand given (try --help)\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    // A message may quote a name read from a report or a preset: shown, never obeyed.
    err << "syncstress: error: " << printable_lines(e.what()) << "\n";
    return kExitUsage;
  } catch (const std::system_error& e) {
    if (const auto advice = environment_advice(e.code())) {
      err << "syncstress: the system refused: " << printable_lines(e.what()) << "; " << *advice
          << "\n";
      return kExitEnvironment;
    }
    err << "syncstress: internal error: " << printable_lines(e.what()) << "\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    err << "syncstress: internal error: " << printable_lines(e.what()) << "\n";
    return kExitInternal;
  } catch (...) {
    err << "syncstress: internal error: an exception that is not a std::exception\n";
    return kExitInternal;
  }
}

}  // namespace syncstress::cli
