// `syncstress merge REPORT.json... [--out FILE]`: the shard reports of one run as one report.
#include <ostream>

#include "cli/commands.hpp"
#include "report/atomic_file.hpp"
#include "report/merge.hpp"
#include "report/report.hpp"
#include "util/distinct_paths.hpp"

namespace syncstress::cli {
namespace {

class MergeCommand final : public Command {
 public:
  explicit MergeCommand(CLI::App& app) {
    sub_ = app.add_subcommand(
        "merge", "Combine the shard reports of one run (run --shard K/N) into one report.");
    sub_->add_option("reports", reports_, "Every shard's report, in any order")
        ->type_name("REPORT.json")
        ->required();
    sub_->add_option("--out", out_, "Merged report file (default: merged.json)")->type_name("FILE");
    sub_->add_flag("--quiet,-q", quiet_, "Print nothing but errors");
    sub_->footer(
        "Exit codes as for run: 0 every cell passed, 1 a property violated, 2 the reports are "
        "not the shards of one run (nothing is written), 4 a cell inconclusive.\n"
        "Example:\n  for k in 1 2 3; do syncstress run --scenario mutex-safety --schedule "
        "exhaustive --shard $k/3 --out s$k.json; done\n"
        "  syncstress merge s1.json s2.json s3.json --out all.json");
  }

  CLI::App* subcommand() const override { return sub_; }

  int execute(const Invocation& invocation) override {
    DistinctPaths paths;
    for (const auto& path : reports_) paths.input("REPORT.json", path);
    paths.output("--out", out_);
    paths.check();
    report::check_writable("--out", out_);
    std::vector<report::ShardReport> shards;
    shards.reserve(reports_.size());
    for (const auto& path : reports_) shards.push_back({path, report::read_report(path)});
    const auto merged = report::merge_reports(shards);
    report::write_report(out_, merged);
    if (!quiet_) {
      report::print_table(invocation.out, merged);
      invocation.out << "report: " << out_ << " (merged from " << shards.size() << " shards)\n";
    }
    const auto& summary = merged.at("summary");
    if (summary.value("fail", 0) != 0) return kExitViolation;
    if (summary.value("error", 0) != 0) return kExitInternal;
    if (summary.value("inconclusive", 0) != 0) return kExitInconclusive;
    return kExitOk;
  }

 private:
  CLI::App* sub_ = nullptr;
  std::vector<std::string> reports_;
  std::string out_ = "merged.json";
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> add_merge_command(CLI::App& app) {
  return std::make_unique<MergeCommand>(app);
}

}  // namespace syncstress::cli
