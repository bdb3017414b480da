#include "scenarios/relacy_cells.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <system_error>
#include <vector>

#include "scenarios/outcome_json.hpp"
#include "util/concat.hpp"
#include "util/lines.hpp"

namespace syncstress::scenarios::relacy {
namespace {

using nlohmann::json;

/// How a child program ended, with everything it wrote.
struct Finished {
  int exit_code = -1;  ///< when it exited
  int signal = 0;      ///< when a signal ended it
  bool timed_out = false;
  std::string out, err;
};

/// Runs `argv` (argv[0] a path) with its stdout and stderr captured; kills it after `timeout`.
Finished run_program(const std::vector<std::string>& argv, double timeout_seconds) {
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) {
    throw std::system_error(errno, std::generic_category(), "pipe()");
  }
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork()");
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    ::execv(args[0], args.data());
    // NOLINTNEXTLINE(concurrency-mt-unsafe): the forked child has one thread.
    const std::string why = concat("cannot start ", argv[0], ": ", std::strerror(errno), "\n");
    (void)!::write(STDERR_FILENO, why.data(), why.size());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Finished f;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&f.out, &f.err};
  int open = 2;
  char buf[1 << 16];
  while (open > 0) {
    const int ready = ::poll(fds, 2, 100);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
    if (open > 0 && std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      f.timed_out = true;
      break;
    }
  }
  for (auto& p : fds) {
    if (p.fd >= 0) ::close(p.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) f.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) f.signal = WTERMSIG(status);
  return f;
}

std::vector<std::string> common_arguments(const CellSpec& spec) {
  std::vector<std::string> argv = {"--family", spec.family,          "--kind",
                                   spec.kind,  "--primitive",        spec.primitive,
                                   "--search", spec.search.scheduler};
  if (spec.search.scheduler == "bound") {
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
    throw UsageError("syncstress-relacy: " + first_line(f.err));
  }
  if (f.timed_out) {
    error = "syncstress-relacy did not answer within " + std::to_string(timeout) + " s";
    return nullptr;
  }
  if (f.signal != 0) {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): the runner calls this from one thread.
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
    error = std::string("syncstress-relacy wrote no valid JSON: ") + e.what();
    return nullptr;
  }
}

/// A violation as syncstress-relacy writes it, its schedule Relacy's own state string.
Violation violation_from(const json& v, const std::string& scheduler) {
  Violation out = violation_from_json(v);
  out.schedule = relacy_schedule_string(scheduler, out.schedule);
  return out;
}

}  // namespace

std::filesystem::path executable() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process sets the environment.
  if (const char* env = std::getenv("SYNCSTRESS_RELACY"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::path(".") : self.parent_path()) / "syncstress-relacy";
}

const std::map<std::string, std::set<std::string>>& supported() {
  static const auto table = [] {
    const auto path = executable();
    if (!std::filesystem::exists(path)) {
      throw UsageError("the relacy-* schedules need " + path.string() +
                       ", which is not built: run scripts/setup (or build the target "
                       "syncstress-relacy)");
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

std::set<std::string> parameter_names(const std::string& family) {
  if (family == "progress") return {"producers", "items"};
  return {"actors", "rounds", "writers", "capacity"};
}

CellResult run_cell(const CellSpec& spec) {
  CellResult out;
  out.schedule = describe(spec.search);
  auto argv = common_arguments(spec);
  argv.insert(argv.begin(), "cell");
  argv.insert(argv.end(), {"--iterations", std::to_string(spec.iterations), "--start",
                           std::to_string(spec.start)});
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
  try {
    const auto verdict = verdict_from_string(cell.at("verdict").get<std::string>());
    if (!verdict) throw std::invalid_argument("unknown verdict");
    out.verdict = *verdict;
    out.executions = cell.value("executions", std::uint64_t{0});
    if (cell.contains("metrics")) out.metrics = cell["metrics"];
    out.error = cell.value("error", std::string());
    if (cell.contains("violations")) {
      for (const auto& v : cell["violations"]) {
        out.violations.push_back(violation_from(v, spec.search.scheduler));
        out.violations.back().seed = spec.start;
      }
    }
  } catch (const std::exception& e) {
    out.verdict = Verdict::error;
    out.error = std::string("syncstress-relacy's answer lacks a field: ") + e.what();
  }
  out.metrics["platform"] = "relacy";
  return out;
}

ReplayOutcome replay(const CellSpec& spec, const std::string& schedule_text) {
  RelacySchedule parsed;
  try {
    parsed = parse_relacy_schedule_string(schedule_text);
  } catch (const StrategyError& e) {
    throw UsageError(std::string("--schedule: ") + e.what());
  }
  CellSpec s = spec;
  s.search.scheduler = parsed.scheduler;
  auto argv = common_arguments(s);
  argv.insert(argv.begin(), "replay");
  argv.insert(argv.end(), {"--state", parsed.state});
  std::string error;
  const json cell = ask(argv, spec.timeout_seconds, error);
  if (!error.empty()) throw std::runtime_error(error);
  ReplayOutcome out;
  if (cell.contains("violations") && !cell["violations"].empty()) {
    out.violation = violation_from(cell["violations"][0], parsed.scheduler);
    out.violation->schedule = schedule_text;
    out.trace = out.violation->trace;
  }
  // Relacy's history has one line per modelled operation: its steps.
  out.steps = out.trace.size();
  return out;
}

}  // namespace syncstress::scenarios::relacy
