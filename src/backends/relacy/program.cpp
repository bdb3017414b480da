#include "backends/relacy/program.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

#include "scenarios/outcome_json.hpp"
#include "supervise/program.hpp"
#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/lines.hpp"
#include "util/usage_error.hpp"

namespace syncstress::supervise::relacy {
namespace {

using nlohmann::json;

std::vector<std::string> common_arguments(const CellSpec& spec) {
  std::vector<std::string> argv = {
      "--family",    spec.family,    "--kind",   spec.kind,
      "--primitive", spec.primitive, "--search", std::string(to_string(spec.search.scheduler))};
  if (spec.search.scheduler == RelacyScheduler::bound) {
    argv.insert(argv.end(), {"--context-bound", std::to_string(spec.search.context_bound)});
  }
  for (const auto& [k, v] : spec.params) argv.insert(argv.end(), {"--set", concat(k, "=", v)});
  return argv;
}

/// Runs syncstress-relacy with `arguments`; its JSON answer, or an error text in `error`.
json ask(const std::vector<std::string>& arguments, double timeout, std::string& error) {
  std::vector<std::string> argv = {executable().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const auto f = run_program(argv, timeout);
  if (f.exit_code == 2) {
    // Its messages start with its name already.
    const std::string message = first_line(f.err);
    throw UsageError(message.starts_with("syncstress-relacy: ") ? message
                                                                : "syncstress-relacy: " + message);
  }
  if (f.timed_out) {
    error = "syncstress-relacy did not answer within " + std::to_string(timeout) + " s";
    return nullptr;
  }
  if (f.signal != 0) {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): the matrix runs its cells from one thread.
    error = concat("syncstress-relacy was killed by signal ", ::strsignal(f.signal),
                   f.err.empty() ? "" : ": ", f.err.empty() ? "" : first_line(f.err));
    return nullptr;
  }
  if (f.exit_code != 0) {
    error = "syncstress-relacy exited with code " + std::to_string(f.exit_code) +
            (f.err.empty() ? "" : ": " + first_line(f.err));
    return nullptr;
  }
  try {
    return json::parse(f.out);
  } catch (const json::exception& e) {
    error = "syncstress-relacy wrote no valid JSON: " + json_error_text(e);
    return nullptr;
  }
}

/// syncstress-relacy's cell, read through the codec; an error text in `error` for one that is
/// not a cell.
std::optional<CellResult> read_cell(const json& answer, std::string& error) {
  try {
    return cell_result_from_json(answer);
  } catch (const json::exception&) {
    error = "syncstress-relacy answered something other than a cell";
    return std::nullopt;
  }
}

/// Only the random search has a first iteration to choose; the others ignore the seed.
std::uint64_t first_iteration(const CellSpec& spec) {
  return spec.search.takes_seed() ? spec.start : 0;
}

/// The arguments of `cell` for `spec`.
std::vector<std::string> cell_arguments(const CellSpec& spec) {
  auto argv = common_arguments(spec);
  argv.insert(argv.begin(), "cell");
  argv.insert(argv.end(), {"--iterations", std::to_string(spec.iterations), "--start",
                           std::to_string(first_iteration(spec))});
  if (spec.time_budget_seconds > 0) {
    // Full precision: std::to_string keeps six decimals only.
    argv.insert(argv.end(), {"--time-budget", json(spec.time_budget_seconds).dump()});
  }
  return argv;
}

}  // namespace

std::filesystem::path executable() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process sets the environment.
  if (const char* env = std::getenv("SYNCSTRESS_RELACY"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  // Its twin: syncstress-relacy beside syncstress, NAME-relacy beside a tool NAME built with
  // syncstress_add_tool (cmake/syncstress_add_tool.cmake), which knows that tool's primitives.
  if (ec) return "./syncstress-relacy";
  return self.parent_path() / (self.filename().string() + "-relacy");
}

const std::map<std::string, std::set<std::string>>& supported() {
  static const auto table = [] {
    const auto path = executable();
    if (!std::filesystem::exists(path)) {
      throw UsageError("the relacy-* schedules need " + path.string() +
                       ", which is not built: run scripts/setup (or build the target " +
                       path.filename().string() + ")");
    }
    std::string error;
    const json rows = ask({"list"}, 60, error);
    if (!error.empty() || !rows.is_array()) {
      throw UsageError("cannot list what syncstress-relacy supports: " +
                       (error.empty() ? std::string("its answer is not a JSON array") : error));
    }
    std::map<std::string, std::set<std::string>> out;
    for (const auto& row : rows) {
      auto& families = out[row.at("primitive").get<std::string>()];
      for (const auto& f : row.at("families")) families.insert(f.get<std::string>());
    }
    return out;
  }();
  return table;
}

std::set<std::string> parameter_names(scenarios::Family family) {
  if (scenarios::is_tool_family(family)) {
    std::set<std::string> own;
    for (const auto& spec : scenarios::family_param_specs(family)) own.insert(spec.name);
    return own;
  }
  if (family == scenarios::Family::progress) return {"producers", "items"};
  return {"actors", "rounds", "writers", "capacity"};
}

void check_cell(const CellSpec& spec) {
  auto argv = cell_arguments(spec);
  argv.emplace_back("--check");
  std::string error;
  // Any other failure of the child shows again when the cell runs, as that cell's error.
  (void)ask(argv, 60, error);
}

CellResult run_cell(const CellSpec& spec) {
  CellResult out;
  out.schedule = spec.search.describe();
  const auto argv = cell_arguments(spec);
  out.planned_executions = spec.iterations;
  out.stopped_by = StopReason::error;
  const auto started = std::chrono::steady_clock::now();
  std::string error;
  const json cell = ask(argv, spec.timeout_seconds, error);
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!error.empty()) {
    out.verdict = Verdict::error;
    out.error = error;
    return out;
  }
  const auto got = read_cell(cell, error);
  if (!got) {
    out.verdict = Verdict::error;
    out.error = error;
    return out;
  }
  out.verdict = got->verdict;
  out.executions = got->executions;
  out.stopped_by = got->stopped_by;
  out.metrics = got->metrics;
  out.error = got->error;
  out.violations = got->violations;
  out.metrics["platform"] = "relacy";
  return out;
}

ReplayOutcome replay(const CellSpec& spec, const RelacySchedule& schedule,
                     const std::string& text) {
  CellSpec s = spec;
  s.search.scheduler = schedule.scheduler;
  auto argv = common_arguments(s);
  argv.insert(argv.begin(), "replay");
  argv.insert(argv.end(), {"--state", schedule.state});
  std::string error;
  const json cell = ask(argv, spec.timeout_seconds, error);
  if (!error.empty()) throw std::runtime_error(error);
  const auto got = read_cell(cell, error);
  if (!got) throw std::runtime_error(error);
  if (got->stopped_by == StopReason::interrupted) {
    // Stopped before its iteration ran: that it broke nothing would be no finding.
    throw std::runtime_error("syncstress-relacy was interrupted before the replay ran");
  }
  ReplayOutcome out;
  if (!got->violations.empty()) {
    out.violation = got->violations.front();
    out.violation->schedule = text;
    out.trace = out.violation->trace;
  }
  // Relacy's history has one line per modelled operation: its steps.
  out.steps = out.trace.size();
  return out;
}

}  // namespace syncstress::supervise::relacy
