// `syncstress run`: flags -> RunConfig (names resolved, --schedule parsed) -> run_matrix ->
// report file + table.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <utility>

#include "cli/commands.hpp"
#include "cli/numbers.hpp"
#include "cli/resolve.hpp"
#include "cli/schedule_names.hpp"
#include "cli/shard_flag.hpp"
#include "report/atomic_file.hpp"
#include "report/merge.hpp"
#include "report/report.hpp"
#include "report/typed_report.hpp"
#include "run/matrix.hpp"
#include "scenarios/preset_files.hpp"
#include "scenarios/replay_command.hpp"
#include "schedules/shard.hpp"
#include "schedules/strategy_spec.hpp"
#include "supervise/program.hpp"
#include "util/concat.hpp"
#include "util/distinct_paths.hpp"
#include "util/interrupt.hpp"
#include "util/json_input.hpp"
#include "util/known_names.hpp"
#include "util/terminal_text.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {
namespace {

constexpr std::uint64_t kMaxExecutions = 1'000'000'000;
constexpr double kMaxTimeBudgetSeconds = 86'400;  // a day
constexpr double kMaxShrinkSeconds = 3'600;       // an hour per violation
constexpr std::uint64_t kMaxJobs = 256;
/// --jobs N runs this many shards per process: a shard that ends early leaves its process to
/// the next instead of idle while the largest finishes.
constexpr std::uint64_t kShardsPerJob = 16;

using supervise::RunConfig;
using supervise::Verbosity;

/// Where a report goes without --out: a new file of this folder, named after the scenario.
const std::filesystem::path& default_report_dir() {
  static const std::filesystem::path dir = std::filesystem::path("results") / "runs";
  return dir;
}

class RunCommand final : public Command {
 public:
  // A flat list as long as run's flags: each declared in turn, with its help and what it excludes.
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
    sub_->add_option("--shrink-budget", shrink_budget_,
                     "Seconds to shrink each sim violation for at most, 0.001..3600 (default: 5; "
                     "it stops sooner after 20,000 executions or 50 million steps)")
        ->type_name("SECONDS");
    auto* no_shrink =
        sub_->add_flag("--no-shrink", no_shrink_,
                       "Report each sim violation as the search found it, without shrinking it");
    no_shrink->excludes(sub_->get_option("--shrink-budget"));
    sub_->add_option("--set", sets_, "Override a preset parameter, repeatable")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
    sub_->add_option("--shard", shard_,
                     "Run part K of N of every cell (a seed range, or prefixes of an exhaustive "
                     "search); auto[/N] takes K from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID. "
                     "Combine the reports with: syncstress merge")
        ->type_name("K/N");
    auto* jobs =
        sub_->add_option("--jobs,-j", jobs_,
                         "Run each cell as N shards in N processes side by side and merge them "
                         "into one report, 1..256 (schedules that split into shards; a reduced "
                         "search with a preemption bound runs whole; default 1)")
            ->type_name("N");
    jobs->excludes(sub_->get_option("--shard"));
    sub_->add_option("--out", out_,
                     "Report file (default: results/runs/<UTC time>-<scenario>.json)")
        ->type_name("FILE");
    sub_->add_option("--html", html_,
                     "Also write the report as an HTML page (see: syncstress html)")
        ->type_name("FILE");
    auto* resume =
        sub_->add_option("--resume", resume_,
                         "Go on with a run stopped by its time budget or a signal, from the "
                         "positions in its report: the same cells, settings and shard "
                         "(--time-budget may change); the new report holds the run as a whole")
            ->type_name("REPORT.json");
    for (const char* other : {"--scenario", "--preset", "--all", "--primitive", "--schedule",
                              "--seed", "--executions", "--soak", "--set", "--shard", "--jobs"}) {
      resume->excludes(sub_->get_option(other));
    }
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
    std::optional<nlohmann::json> earlier;
    if (!resume_.empty()) earlier = take_settings_from(resume_);
    auto [config, description] = validate();
    if (!html_.empty()) report::check_writable("--html", html_);
    if (earlier) {
      config.resume = positions_of(*earlier);
      config.resume_from = resume_;
    }
    const std::string label = all_ ? "all" : description.scenarios.front();
    std::uint64_t jobs = jobs_.empty() ? 1 : parse_whole("--jobs", jobs_, 1, kMaxJobs);
    if (jobs > 1) {
      check_jobs_split(config);
      if (every_split_repeats_work(config)) {
        if (config.verbosity != Verbosity::quiet) {
          invocation.err << "syncstress: --jobs " << jobs_
                         << ": a reduced search with a preemption bound repeats work when split "
                            "(docs/model-checking.md, Local parallelism): each cell runs whole, "
                            "in one process\n";
        }
        jobs = 1;
      }
    }
    // From here on Ctrl-C stops the run and still writes its report (util/interrupt.hpp).
    interrupt::install();
    if (jobs > 1) return run_jobs(invocation, config, description, label, jobs);
    const RunOutcome outcome = supervise::run_matrix(config);
    auto report =
        report::build_report(report::current_context(invocation.argv), description, outcome);
    if (earlier) continue_report(*earlier, report);
    std::filesystem::path out = description.out;
    if (out.empty()) {
      std::filesystem::create_directories(default_report_dir());
      out = report::write_new_report(default_report_dir(), label, report);
    } else {
      report::write_report(out, report);
    }
    return finish(invocation, config, report, out);
  }

 private:
  /// Writes the HTML page if asked, prints the table, and gives the run's exit code.
  int finish(const Invocation& invocation, const RunConfig& config, const nlohmann::json& report,
             const std::filesystem::path& out) const {
    if (!html_.empty()) write_html_report(report::read_typed_report(report, out), html_);
    if (config.verbosity != Verbosity::quiet) {
      report::print_table(invocation.out, report);
      if (config.verbosity == Verbosity::verbose) print_violations(invocation.out, report);
      invocation.out << "report: " << out.string() << '\n';
    }
    return exit_code(invocation, report, out);
  }

  /// --jobs N: the run as kShardsPerJob x N shards, each this program in a process of its own
  /// with --shard K/M and a report in a folder beside the run's, N at a time (each starting as
  /// another ends, so that the processes stay busy however unevenly the shards divide the
  /// work), merged into the run's report. The shards' reports are removed then, unless a cell
  /// stopped where it can go on: resuming goes through each shard's report.
  int run_jobs(const Invocation& invocation, const RunConfig& config,
               const report::RunDescription& description, const std::string& label,
               std::uint64_t jobs) const {
    const std::filesystem::path dir = jobs_dir(description.out);
    std::filesystem::create_directories(dir);
    const std::filesystem::path shards_dir = report::make_temporary_dir(dir, ".syncstress-jobs-");
    const std::uint64_t count = kShardsPerJob * jobs;
    std::vector<std::filesystem::path> paths;
    for (std::uint64_t k = 1; k <= count; ++k) {
      paths.push_back(shards_dir / concat("shard-", std::to_string(k), ".json"));
    }
    const auto programs = shard_commands(paths);
    if (config.verbosity != Verbosity::quiet) {
      invocation.err << "syncstress: each cell as " << count << " shards, " << jobs
                     << " processes at a time\n";
    }
    const auto ended = supervise::run_side_by_side(programs, jobs);
    const auto shards = shard_reports(paths, ended, shards_dir);
    if (shards.size() != paths.size()) {
      return stopped_before_all_shards(invocation, shards_dir, count, paths.size() - shards.size());
    }
    nlohmann::json merged = report::merge_reports(shards);
    merged["context"]["command_line"] = invocation.argv;
    merged["config"]["jobs"] = jobs;
    const bool resumable = any_cell_resumable(shards);
    if (!resumable) {
      std::filesystem::remove_all(shards_dir);
      merged["config"].erase("merged_from");
    }
    std::filesystem::path out = description.out;
    if (out.empty()) {
      out = report::write_new_report(default_report_dir(), label, merged);
    } else {
      report::write_report(out, merged);
    }
    if (resumable) {
      invocation.err << "syncstress: the shards' reports are kept in " << shards_dir.string()
                     << ": to go on, resume each (" << scenarios::program_name()
                     << " run --resume FILE), then merge them (" << scenarios::program_name()
                     << " merge)\n";
    }
    return finish(invocation, config, merged, out);
  }

  /// The folder --jobs makes the shards' folder in: that of the run's report, or
  /// default_report_dir() without --out.
  static std::filesystem::path jobs_dir(const std::filesystem::path& out) {
    return out.has_parent_path() ? out.parent_path()
           : out.empty()         ? default_report_dir()
                                 : std::filesystem::path(".");
  }

  /// The command of each shard, shard K of N (N the number of `paths`) writing its report to the
  /// Kth path.
  std::vector<std::vector<std::string>> shard_commands(
      const std::vector<std::filesystem::path>& paths) const {
    std::vector<std::vector<std::string>> programs;
    for (std::size_t k = 1; k <= paths.size(); ++k) {
      programs.push_back(shard_command(concat(std::to_string(k), "/", std::to_string(paths.size())),
                                       paths[k - 1]));
    }
    return programs;
  }

  /// --jobs stopped by a signal before `unstarted` of its `count` shards started: no report of
  /// the whole run can be made. Says how to go on from the shards' reports in `shards_dir` and
  /// gives the exit code of a run stopped by that signal.
  static int stopped_before_all_shards(const Invocation& invocation,
                                       const std::filesystem::path& shards_dir, std::uint64_t count,
                                       std::size_t unstarted) {
    const int sig = interrupt::requested() == SIGTERM ? SIGTERM : SIGINT;
    invocation.err << "syncstress: interrupted by " << (sig == SIGTERM ? "SIGTERM" : "SIGINT")
                   << " before " << unstarted << " of " << count
                   << " shards started; the reports of those that ran are in "
                   << shards_dir.string() << ": go on by resuming each ("
                   << scenarios::program_name()
                   << " run --resume FILE) and running the others with --shard K/" << count
                   << ", then merge them all (" << scenarios::program_name() << " merge)\n";
    return 128 + sig;
  }

  /// Whether a cell of some shard stopped where it can go on (it has a position).
  static bool any_cell_resumable(const std::vector<report::ShardReport>& shards) {
    return std::any_of(shards.begin(), shards.end(), [](const report::ShardReport& shard) {
      const auto& cells = shard.report.at("cells");
      return std::any_of(cells.begin(), cells.end(), [](const nlohmann::json& cell) {
        return !cell.value("position", nlohmann::json()).is_null();
      });
    });
  }

  /// Whether every cell's schedule repeats work when split (split_repeats_work).
  static bool every_split_repeats_work(const RunConfig& config) {
    const auto presets = supervise::preset_runs(config);
    return std::all_of(presets.begin(), presets.end(), [&](const auto& preset) {
      return split_repeats_work(supervise::strategy_for(preset, config.strategy));
    });
  }

  /// Refuses --jobs for a run whose schedule does not split into shards.
  void check_jobs_split(const RunConfig& config) const {
    for (const auto& preset : supervise::preset_runs(config)) {
      const StrategySpec strategy = supervise::strategy_for(preset, config.strategy);
      if (splitting_of(strategy) == Splitting::none) {
        throw UsageError(concat("--jobs ", jobs_, ": ", describe(strategy), " (scenario '",
                                preset.name,
                                "') does not split into shards, which --jobs runs side by side; "
                                "the schedules that do: ",
                                shardable_strategy_names()));
      }
    }
  }

  /// The reports of the shards that ran (those a stop signal kept from starting have none).
  /// A shard that ran without writing its report ends the run: a UsageError when it refused
  /// its part, else an error naming how it ended; `shards_dir` is removed then.
  static std::vector<report::ShardReport> shard_reports(
      const std::vector<std::filesystem::path>& paths, const std::vector<supervise::Ended>& ended,
      const std::filesystem::path& shards_dir) {
    std::vector<report::ShardReport> shards;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (!ended[i].started) continue;
      std::error_code ec;
      if (std::filesystem::exists(paths[i], ec)) {
        shards.push_back({paths[i], report::read_report(paths[i])});
        continue;
      }
      std::filesystem::remove_all(shards_dir, ec);
      const std::string shard =
          concat("--jobs: shard ", std::to_string(i + 1), " of ", std::to_string(paths.size()));
      if (ended[i].exit_code == kExitUsage) {
        throw UsageError(concat(shard, " refused its part (its message is above)"));
      }
      throw std::runtime_error(concat(
          shard, " ",
          ended[i].signal != 0 ? concat("was killed by signal ", std::to_string(ended[i].signal))
                               : concat("exited with code ", std::to_string(ended[i].exit_code)),
          " without writing its report"));
    }
    return shards;
  }

  /// This program's command line for shard `shard` of this run, its report to `out`: the run's
  /// flags as given, quiet.
  std::vector<std::string> shard_command(const std::string& shard,
                                         const std::filesystem::path& out) const {
    std::vector<std::string> a = {std::filesystem::read_symlink("/proc/self/exe").string(), "run"};
    const auto add = [&](const char* flag, const std::string& value) {
      if (!value.empty()) a.insert(a.end(), {flag, value});
    };
    if (all_) a.emplace_back("--all");
    add("--scenario", scenario_);
    add("--preset", preset_);
    for (const auto& p : primitives_) add("--primitive", p);
    add("--schedule", schedule_);
    add("--seed", seed_);
    add("--executions", executions_);
    add("--time-budget", time_budget_);
    for (const auto& s : sets_) add("--set", s);
    if (soak_) a.emplace_back("--soak");
    if (no_shrink_) a.emplace_back("--no-shrink");
    add("--shrink-budget", shrink_budget_);
    a.insert(a.end(), {"--shard", shard, "--quiet", "--out", out.string()});
    return a;
  }

  /// --resume: reads the earlier report and sets this command's flags to its run's, as if
  /// they had been given (--time-budget and --out excepted when given). Returns the report.
  nlohmann::json take_settings_from(const std::string& path) {
    auto earlier = report::read_report(path);
    if (const auto other = report::other_build(earlier)) {
      throw UsageError(concat("--resume ", path, ": made by ", *other, ", and this is ",
                              report::this_build(),
                              "; a search goes on only under the build that began it: resume it "
                              "with that build, or run it again with this one"));
    }
    const auto& c = earlier.at("config");
    try {
      const auto scenarios = c.at("scenarios").get<std::vector<std::string>>();
      if (!c.at("preset_file").is_null()) {
        preset_ = c.at("preset_file").get<std::string>();
      } else if (scenarios.size() == 1) {
        scenario_ = scenarios.front();
      } else {
        all_ = true;
      }
      primitives_ = c.at("primitives").get<std::vector<std::string>>();
      if (!c.at("schedule").is_null()) schedule_ = c.at("schedule").get<std::string>();
      if (!c.at("seed").is_null()) seed_ = std::to_string(c.at("seed").get<std::uint64_t>());
      if (!c.at("executions").is_null()) {
        executions_ = std::to_string(c.at("executions").get<std::uint64_t>());
      }
      if (time_budget_.empty() && !c.at("time_budget_seconds").is_null()) {
        time_budget_ = std::to_string(c.at("time_budget_seconds").get<double>());
      }
      soak_ = c.at("soak").get<bool>();
      for (const auto& [k, v] : c.at("overrides").items()) {
        sets_.push_back(concat(k, "=", v.get<std::string>()));
      }
      if (c.contains("shard") && !c.at("shard").is_null())
        shard_ = c.at("shard").get<std::string>();
      if (c.contains("merged_from")) {
        throw UsageError(concat("--resume ", path,
                                ": a merged report; resume each shard's report, then merge them"));
      }
    } catch (const nlohmann::json::exception& e) {
      throw UsageError(concat("--resume ", path, ": its config block is not as run writes it (",
                              json_error_text(e), ")"));
    }
    return earlier;
  }

  static supervise::CellName key_of(const nlohmann::json& cell) {
    return {cell.at("primitive").get<std::string>(), cell.at("scenario").get<std::string>(),
            cell.at("schedule").get<std::string>()};
  }

  /// A cell's position, typed: the shape sim_cell and the Relacy backend write. The supervisor
  /// then checks its numbers against the cell's plan.
  static scenarios::ResumePoint resume_point(const std::string& path, const CellResult& cell) {
    const nlohmann::json& p = cell.position;
    const auto malformed = [&](const std::string& what) {
      return UsageError(concat("--resume ", path, ": the position of cell ", cell.primitive, " x ",
                               cell.scenario, " is malformed: ", what));
    };
    const auto count = [&](const char* key) {
      if (!p.contains(key) || !p.at(key).is_number_unsigned()) {
        throw malformed(concat(key, " must be a whole number >= 0"));
      }
      return p.at(key).get<std::uint64_t>();
    };
    if (!p.is_object()) throw malformed("it must be an object");
    for (const auto& [key, value] : p.items()) {
      if (key != "executions_left" && key != "next_execution" && key != "search" &&
          key != "shard" && key != "cell") {
        throw malformed(concat("unknown field \"", key, "\""));
      }
    }
    // Written for this cell, not moved here from another.
    const std::string owner = position_owner(cell);
    if (!p.contains("cell") || !p.at("cell").is_string()) {
      throw malformed("cell must name the cell it belongs to");
    }
    if (p.at("cell").get<std::string>() != owner) {
      throw UsageError(concat("--resume ", path, ": the position of cell ", owner,
                              " was written for another cell (",
                              printable(p.at("cell").get<std::string>()),
                              "); resume the report as run wrote it, or run the cell again"));
    }
    scenarios::ResumePoint r;
    r.executions_left = count("executions_left");
    r.executions_done = cell.executions;
    r.planned = cell.planned_executions;
    if (p.contains("next_execution")) r.next_execution = count("next_execution");
    if (p.contains("search")) {
      if (!p.at("search").is_object()) throw malformed("search must be an object");
      r.search = p.at("search");
    }
    if (!r.next_execution && r.search.is_null()) {
      throw malformed("it needs next_execution or search");
    }
    if (p.contains("shard")) {
      if (!p.at("shard").is_string() || !parse_shard(p.at("shard").get<std::string>())) {
        throw malformed("shard must be K/N");
      }
      r.shard = p.at("shard").get<std::string>();
    }
    return r;
  }

  /// What each earlier cell asks of the continuation: go on from its position, nothing (it
  /// finished), or not listed (stopped with no position: it runs again from its start). The
  /// cells are read through the codec (report::read_cells).
  std::map<supervise::CellName, std::optional<scenarios::ResumePoint>> positions_of(
      const nlohmann::json& earlier) const {
    std::map<supervise::CellName, std::optional<scenarios::ResumePoint>> out;
    for (const CellResult& cell : report::read_cells(earlier, resume_)) {
      const supervise::CellName key{cell.primitive, cell.scenario, cell.schedule};
      const bool cut_short =
          cell.stopped_by == StopReason::time_budget || cell.stopped_by == StopReason::interrupted;
      if (!cell.position.is_null()) {
        if (!cut_short) {
          throw UsageError(concat("--resume ", resume_, ": cell ", cell.primitive, " x ",
                                  cell.scenario, " stopped by ", to_string(cell.stopped_by),
                                  " but keeps a position: only a cell stopped by its time "
                                  "budget or a signal has one"));
        }
        out[key] = resume_point(resume_, cell);
      } else if (cell.stopped_by != StopReason::interrupted &&
                 (cell.stopped_by != StopReason::time_budget || cell.metrics.contains("stress"))) {
        out[key] = std::nullopt;
      }
    }
    return out;
  }

  /// The continuation's report as the report of the whole run: each earlier cell with a
  /// position joined with its continuation, each finished one as it was, each that ran again
  /// replaced, then cells the earlier run never reached.
  void continue_report(const nlohmann::json& earlier, nlohmann::json& report) const {
    std::map<supervise::CellName, nlohmann::json> fresh;
    for (const auto& cell : report.at("cells")) fresh[key_of(cell)] = cell;
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& cell : earlier.at("cells")) {
      const auto it = fresh.find(key_of(cell));
      if (it == fresh.end()) {
        cells.push_back(cell);
        continue;
      }
      const bool went_on = !cell.value("position", nlohmann::json()).is_null();
      cells.push_back(went_on ? report::continue_cell(cell, it->second) : it->second);
      fresh.erase(it);
    }
    for (const auto& cell : report.at("cells")) {
      if (fresh.count(key_of(cell)) != 0) cells.push_back(cell);
    }
    report["cells"] = cells;
    report["config"]["resumed_from"] = resume_;
    report::recount_summary(report);
  }

  /// What to run, resolved, and how the report records the request.
  struct Validated {
    RunConfig config;
    report::RunDescription description;
  };

  /// Checks every flag, then loads the presets: bad input fails before anything runs.
  Validated validate() const {
    Validated v;
    auto& [config, description] = v;
    description.scenarios = scenarios_named(description);
    for (const auto& p : primitives_) {
      if (std::find(description.primitives.begin(), description.primitives.end(), p) !=
          description.primitives.end()) {
        throw UsageError(concat("--primitive ", p, " is given twice; name each primitive once"));
      }
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
    description.overrides = parse_assignments("--set", sets_);
    check_paths(description);
    if (!shard_.empty()) {
      config.shard = resolve_shard(shard_);
      description.shard = config.shard.describe();
    }
    config.seed = description.seed;
    config.executions = description.executions;
    config.time_budget_seconds = description.time_budget_seconds;
    description.soak = soak_;
    config.soak = soak_;
    config.shrink = !no_shrink_;
    if (!shrink_budget_.empty()) {
      config.shrink_seconds =
          parse_decimal("--shrink-budget", shrink_budget_, 0.001, kMaxShrinkSeconds);
    }
    config.overrides = description.overrides;
    config.verbosity = quiet_     ? Verbosity::quiet
                       : verbose_ ? Verbosity::verbose
                                  : Verbosity::normal;
    config.presets = description.preset_file
                         ? std::vector{scenarios::load_preset(*description.preset_file)}
                         : load_named_presets(description.scenarios);
    config.cross_checks = all_;
    return v;
  }

  /// The scenarios --all, --preset or --scenario names (with --preset, its file in
  /// `description`).
  std::vector<std::string> scenarios_named(report::RunDescription& description) const {
    if (all_) {
      auto names = preset_names();
      if (names.empty()) {
        throw UsageError(concat("--all: no scenario presets exist yet in ",
                                scenarios::scenarios_dir().string()));
      }
      return names;
    }
    if (!preset_.empty()) {
      const auto preset = scenarios::read_preset_summary(preset_);
      description.preset_file = std::filesystem::path(preset_);
      return {preset.name};
    }
    if (!scenario_.empty()) {
      require_known_name("scenario", "--scenario", scenario_, preset_names());
      return {scenario_};
    }
    throw UsageError(
        "run needs --scenario NAME, --preset FILE or --all (see: syncstress list "
        "scenarios)");
  }

  /// Checks that no output is an input and that the report can be written where it goes;
  /// records --out in `description`.
  void check_paths(report::RunDescription& description) const {
    DistinctPaths paths;
    if (!preset_.empty()) paths.input("--preset", preset_);
    if (!resume_.empty()) paths.input("--resume", resume_);
    if (!out_.empty()) paths.output("--out", out_);
    if (!html_.empty()) paths.output("--html", html_);
    paths.check();
    if (!out_.empty()) {
      description.out = out_;
      report::check_writable("--out", description.out);
      return;
    }
    // A new file there, named when it is written (report::write_new_report); the folder is
    // made then, if it is not there yet.
    std::error_code ec;
    if (std::filesystem::exists(default_report_dir(), ec)) {
      report::check_writable(
          concat("the report folder ", default_report_dir().string(), " (or give --out)"),
          default_report_dir() / "report.json");
    }
  }

  /// The exit code of a finished or interrupted run, from its report (for --resume, the whole
  /// run's); says on stderr why the run was not conclusive when it was not, and how to go on
  /// when a cell kept a position.
  static int exit_code(const Invocation& invocation, const nlohmann::json& report,
                       const std::filesystem::path& path) {
    const auto& summary = report.at("summary");
    const auto count = [&](const char* verdict) { return summary.value(verdict, std::size_t{0}); };
    const bool resumable = std::any_of(report.at("cells").begin(), report.at("cells").end(),
                                       [](const nlohmann::json& cell) {
                                         return !cell.value("position", nlohmann::json()).is_null();
                                       });
    const std::string go_on =
        resumable ? concat("; go on from where they stopped: ", scenarios::program_name(),
                           " run --resume ", path.string())
                  : "";
    const auto& by = summary.value("interrupted_by", nlohmann::json());
    if (by.is_string()) {
      invocation.err << "syncstress: interrupted by " << by.get<std::string>() << " after "
                     << count("cells") << " of " << count("cells_planned")
                     << " cells; the report holds those" << go_on << "\n";
      return 128 + (by == "SIGINT" ? SIGINT : SIGTERM);
    }
    if (count("fail") != 0) return kExitViolation;
    if (count("error") != 0) return kExitInternal;
    if (count("inconclusive") != 0) {
      invocation.err << "syncstress: " << count("inconclusive")
                     << " cell(s) inconclusive: the time budget ended them before their planned "
                        "executions with nothing broken; raise --time-budget, lower "
                        "--executions, or pass --soak if the time budget is the plan"
                     << go_on << "\n";
      return kExitInconclusive;
    }
    return kExitOk;
  }

  static void print_violations(std::ostream& out, const nlohmann::json& report) {
    for (const auto& cell : report["cells"]) {
      for (const auto& v : cell["violations"]) {
        out << "\n"
            << printable(cell["primitive"].get<std::string>()) << " x "
            << printable(cell["scenario"].get<std::string>()) << ": "
            << printable(v["property"].get<std::string>()) << ": "
            << printable_lines(v["message"].get<std::string>())
            << (v["schedule"].get<std::string>().empty() ? "\n  next: " : "\n  replay: ")
            << printable(v["replay_command"].get<std::string>()) << '\n';
        for (const auto& line : v["trace"])
          out << "  " << printable(line.get<std::string>()) << '\n';
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
  std::string html_;
  std::string shard_;
  std::string jobs_;
  std::string resume_;
  bool soak_ = false;
  std::string shrink_budget_;
  bool no_shrink_ = false;
  bool quiet_ = false;
  bool verbose_ = false;
};

}  // namespace

std::unique_ptr<Command> add_run_command(CLI::App& app) {
  return std::make_unique<RunCommand>(app);
}

}  // namespace syncstress::cli
