// `syncstress replay REPORT.json [--violation N]` or `syncstress replay --schedule STRING ...`
#include <limits>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/numbers.hpp"
#include "cli/resolve.hpp"
#include "report/report.hpp"
#include "report/swimlane.hpp"
#include "report/typed_report.hpp"
#include "run/replay.hpp"
#include "scenarios/preset_files.hpp"
#include "schedules/schedule_codec.hpp"
#include "util/concat.hpp"
#include "util/known_names.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

using supervise::ReplayConfig;
using supervise::Verbosity;

/// The schedule string `text` of --schedule (or of a report's violation), decoded.
RecordedSchedule parse_schedule(const std::string& text) {
  try {
    return parse_schedule_string(text);
  } catch (const ScheduleFormatError& e) {
    throw UsageError(concat("--schedule: ", e.what()));
  }
}

class ReplayCommand final : public Command {
 public:
  explicit ReplayCommand(CLI::App& app) {
    sub_ = app.add_subcommand("replay", "Re-run one execution from a report or a schedule string.");
    auto* report = sub_->add_option("report", report_, "A report written by `syncstress run`")
                       ->type_name("REPORT.json");
    auto* violation = sub_->add_option("--violation", violation_,
                                       "Which violation of the report, counted from 1 in report "
                                       "order (default 1)")
                          ->type_name("N");
    violation->needs(report);
    auto* schedule =
        sub_->add_option("--schedule", schedule_, "The schedule string of the execution to replay")
            ->type_name("STRING");
    schedule->excludes(report);
    auto* scenario = sub_->add_option("--scenario", scenario_, "Preset the schedule belongs to")
                         ->type_name("NAME");
    auto* preset = sub_->add_option("--preset", preset_, "A preset file instead of --scenario")
                       ->type_name("FILE");
    scenario->excludes(preset);
    auto* primitive =
        sub_->add_option("--primitive", primitive_, "Primitive to replay on")->type_name("NAME");
    auto* seed =
        sub_->add_option("--seed", seed_, "Seed of the execution, 0..2^64-1")->type_name("N");
    auto* set = sub_->add_option("--set", sets_, "Parameter override, repeatable")
                    ->type_name("KEY=VALUE")
                    ->allow_extra_args(false);
    for (auto* option : {scenario, preset, primitive, seed, set}) option->needs(schedule);
    auto* quiet = sub_->add_flag("--quiet,-q", quiet_, "Print nothing but errors");
    auto* verbose = sub_->add_flag(
        "--verbose,-v", verbose_,
        "Print the execution as swimlanes: a column per thread, a row per step, the harness's "
        "steps folded");
    quiet->excludes(verbose);
    sub_->add_flag("--all-steps", all_steps_, "With --verbose: show the harness's steps too");
    sub_->footer(
        "Examples:\n  syncstress replay part8.json --violation 1\n"
        "  syncstress replay --scenario shared-mutex-starvation --primitive shared_mutex_part8 "
        "--schedule SCHEDULE\n(SCHEDULE: a violation's \"schedule\" in a report)");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    const ReplayConfig config = report_.empty() ? from_flags() : from_report();
    const ReplayOutcome outcome = supervise::replay(config);
    if (config.verbosity != Verbosity::quiet) {
      if (config.verbosity == Verbosity::verbose) {
        report::SwimlaneOptions lanes;
        lanes.all_steps = all_steps_;
        if (outcome.violation) {
          lanes.breach = outcome.violation->property + ": " + outcome.violation->message;
        }
        invocation.out << printable_lines(report::render_swimlane(outcome.trace, lanes));
      }
      if (outcome.violation) {
        invocation.out << "violation reproduced after " << outcome.steps
                       << " steps: " << printable(outcome.violation->property) << ": "
                       << printable_lines(outcome.violation->message) << '\n';
        if (config.verbosity != Verbosity::verbose) {
          for (const auto& line : outcome.violation->trace) {
            invocation.out << "  " << printable(line) << '\n';
          }
        }
      } else {
        invocation.out << "no violation in " << outcome.steps << " steps\n";
      }
    }
    return outcome.violation ? kExitViolation : kExitOk;
  }

 private:
  Verbosity verbosity() const {
    return quiet_ ? Verbosity::quiet : verbose_ ? Verbosity::verbose : Verbosity::normal;
  }

  ReplayConfig from_report() const {
    const auto report = report::read_typed_report(report::read_report(report_), report_);
    std::vector<std::pair<const CellResult*, const Violation*>> violations;
    for (const auto& cell : report.cells) {
      for (const auto& v : cell.violations) violations.emplace_back(&cell, &v);
    }
    if (violations.empty()) {
      throw UsageError(concat(report_, ": the report has no violation to replay"));
    }
    std::uint64_t index = 1;
    if (!violation_.empty()) index = parse_whole("--violation", violation_, 1, violations.size());
    const auto& [cell, v] = violations[index - 1];
    ReplayConfig config;
    config.schedule = v->schedule;
    // Shrinking lowered a parameter: the violation's schedule runs with its own --set values.
    config.overrides = v->overrides.empty() ? report.run.overrides : v->overrides;
    config.verbosity = verbosity();
    // The report's names are checked like flags: it may come from another build or tree.
    config.preset = report.run.preset_file ? scenarios::load_preset(*report.run.preset_file)
                                           : load_named_presets({cell->scenario}).front();
    config.primitive = &resolve_primitive(cell->primitive);
    config.recorded = parse_schedule(config.schedule);
    return config;
  }

  ReplayConfig from_flags() const {
    if (schedule_.empty()) {
      throw UsageError(
          "replay needs a REPORT.json or --schedule STRING (see: syncstress replay "
          "--help)");
    }
    ReplayConfig config;
    config.schedule = schedule_;
    if (!preset_.empty()) {
      scenarios::read_preset_summary(preset_);  // the file's own errors first
    } else if (!scenario_.empty()) {
      require_known_name("scenario", "--scenario", scenario_, preset_names());
    } else {
      throw UsageError("replay --schedule needs --scenario NAME or --preset FILE");
    }
    if (primitive_.empty()) throw UsageError("replay --schedule needs --primitive NAME");
    config.primitive = &resolve_primitive(primitive_);
    if (!seed_.empty()) {
      // Checked, then unused: the schedule string carries its seed. Older reports' replay
      // commands still pass it.
      parse_whole("--seed", seed_, 0, std::numeric_limits<std::uint64_t>::max());
    }
    config.overrides = parse_assignments("--set", sets_);
    config.verbosity = verbosity();
    config.preset = !preset_.empty() ? scenarios::load_preset(preset_)
                                     : load_named_presets({scenario_}).front();
    config.recorded = parse_schedule(config.schedule);
    return config;
  }

  CLI::App* sub_ = nullptr;
  std::string report_;
  std::string violation_;
  std::string schedule_;
  std::string scenario_;
  std::string preset_;
  std::string primitive_;
  std::string seed_;
  std::vector<std::string> sets_;
  bool quiet_ = false;
  bool verbose_ = false;
  bool all_steps_ = false;
};

}  // namespace

std::unique_ptr<Command> add_replay_command(CLI::App& app) {
  return std::make_unique<ReplayCommand>(app);
}

}  // namespace syncstress::cli
