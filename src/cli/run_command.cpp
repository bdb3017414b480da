// `syncstress run`: flags -> RunConfig (names resolved, --schedule parsed) -> run_matrix ->
// report file + table.
#include <csignal>
#include <filesystem>
#include <limits>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/numbers.hpp"
#include "cli/resolve.hpp"
#include "cli/schedule_names.hpp"
#include "cli/shard_flag.hpp"
#include "report/atomic_file.hpp"
#include "report/report.hpp"
#include "scenarios/preset_files.hpp"
#include "supervise/matrix.hpp"
#include "util/concat.hpp"
#include "util/interrupt.hpp"
#include "util/known_names.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

constexpr std::uint64_t kMaxExecutions = 1'000'000'000;
constexpr double kMaxTimeBudgetSeconds = 86'400;  // a day

using supervise::RunConfig;
using supervise::Verbosity;

/// The default report path, results/runs/<UTC stamp>-<label>.json, made unique if a report of
/// the same second exists.
std::filesystem::path default_report_path(const std::string& label) {
  const std::filesystem::path dir = std::filesystem::path("results") / "runs";
  const std::string stem = concat(report::utc_file_stamp_now(), "-", label);
  std::filesystem::path path = dir / concat(stem, ".json");
  for (int n = 2; std::filesystem::exists(path); ++n) {
    path = dir / concat(stem, "-", std::to_string(n), ".json");
  }
  return path;
}

class RunCommand final : public Command {
 public:
  explicit RunCommand(CLI::App& app) {
    sub_ = app.add_subcommand("run", "Run scenarios against primitives and write a report.");
    auto* scenario =
        sub_->add_option("--scenario", scenario_, "Preset to run (see: list scenarios)")
            ->type_name("NAME");
    auto* preset = sub_->add_option("--preset", preset_, "Run your own preset file instead")
                       ->type_name("FILE");
    auto* all = sub_->add_flag("--all", all_, "Run every preset against every primitive it fits");
    scenario->excludes(preset)->excludes(all);
    preset->excludes(all);
    sub_->add_option("--primitive", primitives_,
                     "Primitive to test, repeatable (default: every one of the scenario's kind)")
        ->type_name("NAME")
        ->allow_extra_args(false);
    sub_->add_option(
            "--schedule", schedule_,
            "Strategy: portfolio, random, pct, round-robin, exhaustive, relacy-* (see: list "
            "schedules; "
            "default: the preset's)")
        ->type_name("NAME");
    sub_->add_option("--seed", seed_, "First seed, 0..2^64-1 (default: the preset's)")
        ->type_name("N");
    sub_->add_option("--executions", executions_,
                     "Executions per cell, 1..1000000000 (default: the preset's)")
        ->type_name("N");
    sub_->add_option("--time-budget", time_budget_,
                     "Wall-clock budget per cell in seconds, 0.001..86400 (default: the preset's)")
        ->type_name("SECONDS");
    sub_->add_flag("--soak", soak_,
                   "The time budget is the plan: a cell it ends with nothing broken passes "
                   "(default: inconclusive)");
    sub_->add_option("--set", sets_, "Override a preset parameter, repeatable")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
    sub_->add_option("--shard", shard_,
                     "Run part K of N of every cell (a seed range, or prefixes of an exhaustive "
                     "search); auto[/N] takes K from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID. "
                     "Combine the reports with: syncstress merge")
        ->type_name("K/N");
    sub_->add_option("--out", out_,
                     "Report file (default: results/runs/<UTC time>-<scenario>.json)")
        ->type_name("FILE");
    auto* quiet = sub_->add_flag("--quiet,-q", quiet_, "Print nothing but errors");
    auto* verbose = sub_->add_flag("--verbose,-v", verbose_,
                                   "Also print every violation's trace and replay command");
    quiet->excludes(verbose);
    sub_->footer(
        "Examples:\n  syncstress run --scenario shared-mutex-starvation\n"
        "  syncstress run --scenario mutex-fairness --primitive ticket_mutex --seed 7 "
        "--executions 200\n  syncstress run --all --quiet --out all.json");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    const auto [config, description] = validate();
    // From here on Ctrl-C stops the run and still writes its report (util/interrupt.hpp).
    interrupt::install();
    const RunOutcome outcome = supervise::run_matrix(config);
    const auto report =
        report::build_report(report::current_context(invocation.argv), description, outcome);
    const auto& out = description.out;
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    report::write_report(out, report);
    if (config.verbosity != Verbosity::quiet) {
      report::print_table(invocation.out, report);
      if (config.verbosity == Verbosity::verbose) print_violations(invocation.out, report);
      invocation.out << "report: " << out.string() << '\n';
    }
    return exit_code(invocation, outcome);
  }

 private:
  /// What to run, resolved, and how the report records the request.
  struct Validated {
    RunConfig config;
    report::RunDescription description;
  };

  /// Checks every flag, then loads the presets: bad input fails before anything runs.
  Validated validate() const {
    Validated v;
    auto& [config, description] = v;
    if (all_) {
      description.scenarios = preset_names();
      if (description.scenarios.empty()) {
        throw UsageError(concat("--all: no scenario presets exist yet in ",
                                scenarios::scenarios_dir().string()));
      }
    } else if (!preset_.empty()) {
      const auto preset = scenarios::read_preset_summary(preset_);
      description.scenarios = {preset.name};
      description.preset_file = std::filesystem::path(preset_);
    } else if (!scenario_.empty()) {
      require_known_name("scenario", "--scenario", scenario_, preset_names());
      description.scenarios = {scenario_};
    } else {
      throw UsageError(
          "run needs --scenario NAME, --preset FILE or --all (see: syncstress list "
          "scenarios)");
    }
    for (const auto& p : primitives_) {
      config.primitives.push_back(&resolve_primitive(p));
      description.primitives.push_back(p);
    }
    if (!schedule_.empty()) {
      config.strategy = parse_schedule_flag(schedule_);
      description.schedule = schedule_;
    }
    if (!seed_.empty()) {
      description.seed = parse_whole("--seed", seed_, 0, std::numeric_limits<std::uint64_t>::max());
    }
    if (!executions_.empty()) {
      description.executions = parse_whole("--executions", executions_, 1, kMaxExecutions);
    }
    if (!time_budget_.empty()) {
      description.time_budget_seconds =
          parse_decimal("--time-budget", time_budget_, 0.001, kMaxTimeBudgetSeconds);
    }
    for (const auto& set : sets_) {
      auto [key, value] = parse_assignment("--set", set);
      description.overrides[key] = value;
    }
    if (!out_.empty()) {
      description.out = out_;
      report::check_writable("--out", description.out);
    } else {
      description.out = default_report_path(all_ ? "all" : description.scenarios.front());
    }
    if (!shard_.empty()) {
      config.shard = resolve_shard(shard_);
      description.shard = config.shard.describe();
    }
    config.seed = description.seed;
    config.executions = description.executions;
    config.time_budget_seconds = description.time_budget_seconds;
    description.soak = soak_;
    config.soak = soak_;
    config.overrides = description.overrides;
    config.verbosity = quiet_     ? Verbosity::quiet
                       : verbose_ ? Verbosity::verbose
                                  : Verbosity::normal;
    config.presets = description.preset_file
                         ? std::vector{scenarios::load_preset(*description.preset_file)}
                         : load_named_presets(description.scenarios);
    return v;
  }

  /// The exit code of a finished or interrupted run; says on stderr why the run was not
  /// conclusive when it was not.
  static int exit_code(const Invocation& invocation, const RunOutcome& outcome) {
    std::size_t fail = 0, error = 0, inconclusive = 0;
    for (const auto& cell : outcome.cells) {
      fail += cell.verdict == Verdict::fail ? 1 : 0;
      error += cell.verdict == Verdict::error ? 1 : 0;
      inconclusive += cell.verdict == Verdict::inconclusive ? 1 : 0;
    }
    if (outcome.interrupted_by != 0) {
      invocation.err << "syncstress: interrupted by "
                     << (outcome.interrupted_by == SIGINT ? "SIGINT" : "SIGTERM") << " after "
                     << outcome.cells.size() << " of " << outcome.cells_planned
                     << " cells; the report holds those\n";
      return 128 + outcome.interrupted_by;
    }
    if (fail != 0) return kExitViolation;
    if (error != 0) return kExitInternal;
    if (inconclusive != 0) {
      invocation.err << "syncstress: " << inconclusive
                     << " cell(s) inconclusive: the time budget ended them before their planned "
                        "executions with nothing broken; raise --time-budget, lower "
                        "--executions, or pass --soak if the time budget is the plan\n";
      return kExitInconclusive;
    }
    return kExitOk;
  }

  static void print_violations(std::ostream& out, const nlohmann::json& report) {
    for (const auto& cell : report["cells"]) {
      for (const auto& v : cell["violations"]) {
        out << "\n"
            << cell["primitive"].get<std::string>() << " x " << cell["scenario"].get<std::string>()
            << ": " << v["property"].get<std::string>() << ": " << v["message"].get<std::string>()
            << (v["schedule"].get<std::string>().empty() ? "\n  next: " : "\n  replay: ")
            << v["replay_command"].get<std::string>() << '\n';
        for (const auto& line : v["trace"]) out << "  " << line.get<std::string>() << '\n';
      }
    }
  }

  CLI::App* sub_ = nullptr;
  std::string scenario_;
  std::string preset_;
  bool all_ = false;
  std::vector<std::string> primitives_;
  std::string schedule_;
  std::string seed_;
  std::string executions_;
  std::string time_budget_;
  std::vector<std::string> sets_;
  std::string out_;
  std::string shard_;
  bool soak_ = false;
  bool quiet_ = false;
  bool verbose_ = false;
};

}  // namespace

std::unique_ptr<Command> add_run_command(CLI::App& app) {
  return std::make_unique<RunCommand>(app);
}

}  // namespace syncstress::cli
