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
#include "run/replay.hpp"
#include "scenarios/preset_files.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_spec.hpp"
#include "util/concat.hpp"
#include "util/distinct_paths.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

using nlohmann::json;

std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The sim execution `schedule` of `cell` re-run, for a violation whose report holds no trace
/// (the report's names and overrides resolved as `replay REPORT` resolves them).
report::ViolationTrace replayed(const json& report, const json& cell, const json& violation,
                                const std::string& schedule, const RecordedSchedule& recorded) {
  report::ViolationTrace trace;
  try {
    supervise::ReplayConfig config;
    const json& run_config = report.at("config");
    if (const auto file = text_of(run_config, "preset_file"); !file.empty()) {
      config.preset = scenarios::load_preset(file);
    } else {
      config.preset = load_named_presets({cell.at("scenario").get<std::string>()}).front();
    }
    // The run's --set values, or the violation's own when shrinking lowered a parameter.
    json overrides = run_config.value("overrides", json::object());
    if (const auto own = violation.find("overrides"); own != violation.end() && own->is_object()) {
      overrides = *own;
    }
    if (overrides.is_object()) {
      for (const auto& [key, value] : overrides.items()) {
        if (value.is_string()) config.overrides[key] = value.get<std::string>();
      }
    }
    config.primitive = &resolve_primitive(cell.at("primitive").get<std::string>());
    config.schedule = schedule;
    config.recorded = recorded;
    config.verbosity = supervise::Verbosity::quiet;
    const ReplayOutcome outcome = supervise::replay(config);
    if (!outcome.violation) {
      trace.note = concat("The report holds no trace, and replaying the schedule (", schedule,
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

/// One entry per violation of `report`, in report order: the swimlanes of each sim violation,
/// from its trace in the report or, when the report has none, from a replay of its schedule.
std::vector<report::ViolationTrace> violation_traces(const json& report) {
  std::vector<report::ViolationTrace> traces;
  for (const auto& cell : report.at("cells")) {
    for (const auto& v : cell.at("violations")) {
      report::ViolationTrace& trace = traces.emplace_back();
      const std::string schedule = text_of(v, "schedule");
      // A trial on real threads, or a crash before the first execution: no schedule, and the
      // trace (if any) as the report has it.
      if (schedule.empty()) continue;
      RecordedSchedule recorded;
      try {
        recorded = parse_schedule_string(schedule);
      } catch (const ScheduleFormatError& e) {
        trace.note = concat("The schedule does not decode: ", e.what());
        continue;
      }
      if (std::holds_alternative<RelacySchedule>(recorded)) {
        trace.note = "Found by Relacy: its history as Relacy prints it (no swimlanes).";
        continue;
      }
      std::vector<std::string> lines;
      if (const auto it = v.find("trace"); it != v.end() && it->is_array()) {
        for (const auto& line : *it) {
          if (line.is_string()) lines.push_back(line.get<std::string>());
        }
      }
      if (lines.empty()) {
        trace = replayed(report, cell, v, schedule, recorded);
      } else {
        trace.lanes = report::swimlane_table(lines);
      }
    }
  }
  return traces;
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
    json report;
    try {
      report = report::read_report(report_);
    } catch (const UsageError& e) {
      throw UsageError(concat(e.what(),
                              " (syncstress html takes a report that `syncstress run` wrote, e.g. "
                              "syncstress run --scenario mutex-fairness --out report.json)"));
    }
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

void write_html_report(const json& report, const std::filesystem::path& path) {
  report::write_file_atomically(path, report::render_html(report, violation_traces(report)));
}

std::unique_ptr<Command> add_html_command(CLI::App& app) {
  return std::make_unique<HtmlCommand>(app);
}

}  // namespace syncstress::cli
