// `syncstress html REPORT.json [--out FILE]`, and the page `run --html FILE` writes: the report
// as one self-contained HTML file, each sim violation's execution drawn as swimlanes.
#include <ostream>
#include <variant>

#include "cli/commands.hpp"
#include "cli/resolve.hpp"
#include "report/atomic_file.hpp"
#include "report/html.hpp"
#include "report/report.hpp"
#include "report/swimlane.hpp"
#include "report/typed_report.hpp"
#include "run/replay.hpp"
#include "scenarios/preset_files.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_spec.hpp"
#include "util/concat.hpp"
#include "util/distinct_paths.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

/// Violation `v` of `cell` replayed from its sim schedule (`recorded`), for a violation whose
/// report holds no trace (the report's names and overrides resolved as `replay REPORT` resolves
/// them).
report::ViolationTrace replayed(const report::RunOfReport& run, const CellResult& cell,
                                const Violation& v, const RecordedSchedule& recorded) {
  report::ViolationTrace trace;
  try {
    supervise::ReplayConfig config;
    config.preset = run.preset_file ? scenarios::load_preset(*run.preset_file)
                                    : load_named_presets({cell.scenario}).front();
    // The run's --set values, or the violation's own when shrinking lowered a parameter.
    config.overrides = v.overrides.empty() ? run.overrides : v.overrides;
    config.primitive = &resolve_primitive(cell.primitive);
    config.schedule = v.schedule;
    config.recorded = recorded;
    config.verbosity = supervise::Verbosity::quiet;
    const ReplayOutcome outcome = supervise::replay(config);
    if (!outcome.violation) {
      trace.note = concat("The report holds no trace, and replaying the schedule (", v.schedule,
                          ") broke nothing in ", std::to_string(outcome.steps),
                          " steps: the report comes from another build or tree?");
      return trace;
    }
    trace.lanes = report::swimlane_table(outcome.trace);
    trace.note = "The report holds no trace: this one is the schedule's replay.";
  } catch (const UsageError& e) {
    trace.note =
        concat("The report holds no trace, and its schedule could not be replayed: ", e.what());
  }
  return trace;
}

/// What the page shows of violation `v` of `cell` besides its fields: the swimlanes of a sim
/// violation, from its trace in the report or, when the report has none, from a replay of its
/// schedule.
report::ViolationTrace trace_of(const report::RunOfReport& run, const CellResult& cell,
                                const Violation& v) {
  report::ViolationTrace trace;
  // A trial on real threads, or a crash before the first execution: no schedule, and the
  // trace (if any) as the report has it.
  if (v.schedule.empty()) return trace;
  RecordedSchedule recorded;
  try {
    recorded = parse_schedule_string(v.schedule);
  } catch (const ScheduleFormatError& e) {
    trace.note = concat("The schedule does not decode: ", e.what());
    return trace;
  }
  if (std::holds_alternative<RelacySchedule>(recorded)) {
    trace.note = "Found by Relacy: its history as Relacy prints it (no swimlanes).";
    return trace;
  }
  if (v.trace.empty()) return replayed(run, cell, v, recorded);
  trace.lanes = report::swimlane_table(v.trace);
  return trace;
}

/// One entry per violation of `report`, in report order.
std::vector<report::ViolationTrace> violation_traces(const report::TypedReport& report) {
  std::vector<report::ViolationTrace> traces;
  for (const auto& cell : report.cells) {
    for (const auto& v : cell.violations) traces.push_back(trace_of(report.run, cell, v));
  }
  return traces;
}

/// REPORT.json read for its page; a file that is not a report is refused with what to give.
report::TypedReport read_page_report(const std::string& path) {
  try {
    return report::read_typed_report(report::read_report(path), path);
  } catch (const UsageError& e) {
    throw UsageError(concat(e.what(),
                            " (syncstress html takes a report that `syncstress run` wrote, e.g. "
                            "syncstress run --scenario mutex-fairness --out report.json)"));
  }
}

/// The default page of a report: REPORT.json's name with .html for .json, or .html added.
std::filesystem::path default_html_path(const std::filesystem::path& report) {
  std::filesystem::path out = report;
  if (out.extension() == ".json") {
    out.replace_extension(".html");
  } else {
    out += ".html";
  }
  return out;
}

class HtmlCommand final : public Command {
 public:
  explicit HtmlCommand(CLI::App& app) {
    sub_ = app.add_subcommand(
        "html",
        "Write a report as one self-contained HTML page: the cell table, metrics as charts, "
        "each violation's trace as swimlanes with its replay command.");
    sub_->add_option("report", report_, "A report written by `syncstress run`")
        ->type_name("REPORT.json")
        ->required();
    sub_->add_option("--out", out_, "The page to write (default: REPORT with .html for .json)")
        ->type_name("FILE");
    sub_->footer(
        "Examples:\n  syncstress html results/runs/20261124T102516Z-all.json\n"
        "  syncstress html part8.json --out part8-report.html\n"
        "(or in one go: syncstress run --scenario shared-mutex-starvation --html part8.html)");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    const report::TypedReport report = read_page_report(report_);
    const std::filesystem::path out =
        out_.empty() ? default_html_path(report_) : std::filesystem::path(out_);
    DistinctPaths paths;
    paths.input("REPORT.json", report_);
    paths.output(out_.empty() ? "the default page" : "--out", out);
    paths.check();
    report::check_writable("--out", out);
    write_html_report(report, out);
    invocation.out << "html: " << out.string() << '\n';
    return kExitOk;
  }

 private:
  CLI::App* sub_ = nullptr;
  std::string report_;
  std::string out_;
};

}  // namespace

void write_html_report(const report::TypedReport& report, const std::filesystem::path& path) {
  report::write_file_atomically(path, report::render_html(report, violation_traces(report)));
}

std::unique_ptr<Command> add_html_command(CLI::App& app) {
  return std::make_unique<HtmlCommand>(app);
}

}  // namespace syncstress::cli
