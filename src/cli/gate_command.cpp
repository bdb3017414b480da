// `syncstress gate [--baseline FILE] REPORT.json... [--junit FILE]`
#include <iterator>
#include <ostream>
#include <vector>

#include "cli/commands.hpp"
#include "report/atomic_file.hpp"
#include "report/gate.hpp"
#include "report/report.hpp"
#include "report/typed_report.hpp"
#include "util/concat.hpp"
#include "util/distinct_paths.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

class GateCommand final : public Command {
 public:
  explicit GateCommand(CLI::App& app) {
    sub_ = app.add_subcommand(
        "gate", "Compare reports' verdicts with the expected ones; exit 1 on any difference.");
    sub_->add_option("reports", reports_, "Reports written by `syncstress run`")
        ->type_name("REPORT.json")
        ->required();
    auto* baseline = sub_->add_option("--baseline", baseline_,
                                      "Expected verdicts (default: results/baseline.json)")
                         ->type_name("FILE");
    sub_->add_option("--junit", junit_, "Also write the comparison as JUnit XML")
        ->type_name("FILE");
    sub_->add_flag("--require-all", require_all_,
                   "Expectations of scenarios no report ran are differences too");
    auto* write = sub_->add_option("--write-baseline", write_baseline_,
                                   "Write the baseline these reports pass, compare nothing")
                      ->type_name("FILE");
    write->excludes(baseline);
    sub_->add_flag("--quiet,-q", quiet_, "Print nothing but errors");
    sub_->footer(
        "Examples:\n  syncstress gate results/runs/*.json --junit gate.xml\n"
        "  syncstress gate --baseline results/baseline.json --require-all all.json\n"
        "  syncstress gate --write-baseline results/baseline.json all.json");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    DistinctPaths paths;
    for (const auto& path : reports_) paths.input("REPORT.json", path);
    if (write_baseline_.empty()) paths.input("--baseline", baseline_);
    if (!write_baseline_.empty()) paths.output("--write-baseline", write_baseline_);
    if (!junit_.empty()) paths.output("--junit", junit_);
    paths.check();
    // The cells of every report, in the order the reports were given.
    std::vector<CellResult> cells;
    for (const auto& path : reports_) {
      auto more = report::read_cells(report::read_report(path), path);
      cells.insert(cells.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
    }
    if (!write_baseline_.empty()) {
      report::check_writable("--write-baseline", write_baseline_);
      report::write_file_atomically(write_baseline_,
                                    report::baseline_from_cells(cells).dump(2) + "\n");
      if (!quiet_) invocation.out << "baseline written: " << write_baseline_ << '\n';
      return kExitOk;
    }
    if (!junit_.empty()) report::check_writable("--junit", junit_);
    const auto baseline = report::read_baseline(baseline_);
    const auto result = report::compare_with_baseline(baseline, cells, require_all_);
    if (!junit_.empty()) report::write_file_atomically(junit_, report::junit_xml(result));
    if (!quiet_) {
      for (const auto& c : result.cases) {
        if (c.kind == report::GateDifference::none) continue;
        // The names come from the reports: shown, never obeyed by the terminal.
        invocation.out << "DIFF " << printable(c.primitive) << " x " << printable(c.scenario);
        if (!c.schedule.empty()) invocation.out << " [" << printable(c.schedule) << "]";
        invocation.out << ": " << printable(c.problem) << '\n';
      }
      invocation.out << "gate: " << result.cases.size() << " cells compared with " << baseline_
                     << ", " << result.differences << " differences";
      if (result.not_run) {
        invocation.out << ", " << result.not_run << " expectations of scenarios not run";
      }
      invocation.out << '\n';
    }
    return result.differences == 0 ? kExitOk : kExitViolation;
  }

 private:
  CLI::App* sub_ = nullptr;
  std::vector<std::string> reports_;
  std::string baseline_ = "results/baseline.json";
  std::string junit_;
  std::string write_baseline_;
  bool require_all_ = false;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> add_gate_command(CLI::App& app) {
  return std::make_unique<GateCommand>(app);
}

}  // namespace syncstress::cli
