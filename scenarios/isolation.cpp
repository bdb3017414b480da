#include "scenarios/isolation.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

namespace syncstress::scenarios {
namespace {

using nlohmann::json;

const InFlight* g_in_flight = nullptr;
int g_report_fd = -1;
volatile std::sig_atomic_t g_crashing = 0;

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Not async-signal-safe (it encodes a schedule), and it need not be: the process is dying
// either way, and a second fault inside goes straight to _exit.
void on_crash(int sig) {
  if (g_crashing) _exit(128 + sig);
  g_crashing = 1;
  json note = {{"signal", sig}};
  if (g_in_flight) {
    if (g_in_flight->executions) note["execution"] = *g_in_flight->executions + 1;
    try {
      if (g_in_flight->schedule) note["schedule"] = g_in_flight->schedule();
    } catch (...) {
    }
  }
  write_all(g_report_fd, "CRASH " + note.dump());
  _exit(128 + sig);
}

void install_crash_handlers() {
  // Its own stack: the fault may be a fiber's stack overflowing.
  static std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = &on_crash;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
}

json to_json(const CellResult& c) {
  json violations = json::array();
  for (const auto& v : c.violations) {
    violations.push_back({{"property", v.property},
                          {"message", v.message},
                          {"seed", v.seed},
                          {"schedule", v.schedule},
                          {"replay_command", v.replay_command},
                          {"trace", v.trace}});
  }
  return {{"primitive", c.primitive},
          {"scenario", c.scenario},
          {"schedule", c.schedule},
          {"verdict", std::string(to_string(c.verdict))},
          {"executions", c.executions},
          {"steps", c.steps},
          {"elapsed_seconds", c.elapsed_seconds},
          {"parameters", c.parameters},
          {"metrics", c.metrics},
          {"violations", violations},
          {"error", c.error}};
}

CellResult from_json(const json& j) {
  CellResult c;
  c.primitive = j.at("primitive").get<std::string>();
  c.scenario = j.at("scenario").get<std::string>();
  c.schedule = j.at("schedule").get<std::string>();
  c.verdict = verdict_from_string(j.at("verdict").get<std::string>()).value_or(Verdict::error);
  c.executions = j.at("executions").get<std::uint64_t>();
  c.steps = j.at("steps").get<std::uint64_t>();
  c.elapsed_seconds = j.at("elapsed_seconds").get<double>();
  c.parameters = j.at("parameters").get<std::map<std::string, std::string>>();
  c.metrics = j.at("metrics");
  for (const auto& v : j.at("violations")) {
    Violation out;
    out.property = v.at("property").get<std::string>();
    out.message = v.at("message").get<std::string>();
    out.seed = v.at("seed").get<std::uint64_t>();
    out.schedule = v.at("schedule").get<std::string>();
    out.replay_command = v.at("replay_command").get<std::string>();
    out.trace = v.at("trace").get<std::vector<std::string>>();
    c.violations.push_back(std::move(out));
  }
  c.error = j.at("error").get<std::string>();
  return c;
}

[[noreturn]] void child(const std::function<CellResult()>& work, int fd) {
  g_report_fd = fd;
  install_crash_handlers();
  std::string message;
  try {
    message = "RESULT " + to_json(work()).dump();
  } catch (const UsageError& e) {
    message = std::string("USAGE ") + e.what();
  } catch (const std::exception& e) {
    message = std::string("ERROR ") + e.what();
  }
  write_all(fd, message);
  // No exit handlers: the parent owns stdout, the report and every static.
  _exit(0);
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace

void set_in_flight(const InFlight* in_flight) { g_in_flight = in_flight; }

bool isolation_enabled() {
  const char* v = std::getenv("SYNCSTRESS_NO_FORK");
  return !(v && std::strcmp(v, "1") == 0);
}

CellResult run_isolated(const std::function<CellResult()>& work, const CellResult& identity,
                        double timeout_seconds) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed: " + std::string(strerror(errno)));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork() failed: " + std::string(strerror(errno)));
  if (pid == 0) {
    ::close(fds[0]);
    child(work, fds[1]);
  }
  ::close(fds[1]);

  std::string data;
  bool hung = false;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  char buf[1 << 16];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready > 0) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) {
        data.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      if (n == 0) break;  // the child closed its end: it is exiting
      if (errno != EINTR) break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      hung = true;
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  auto starts = [&](const char* prefix) { return data.rfind(prefix, 0) == 0; };
  if (starts("RESULT ")) return from_json(json::parse(data.substr(7)));
  if (starts("USAGE ")) throw UsageError(data.substr(6));

  CellResult out = identity;
  out.verdict = Verdict::fail;
  Violation v;
  if (starts("ERROR ")) {
    out.verdict = Verdict::error;
    out.error = data.substr(6);
    return out;
  }
  if (hung) {
    v.property = "hang";
    v.message = "the cell did not finish within " + std::to_string(timeout_seconds) +
                " s: an execution never reached a scheduling point (a spin on plain memory?)";
  } else {
    json note = starts("CRASH ") ? json::parse(data.substr(6), nullptr, false) : json();
    const int sig =
        WIFSIGNALED(status) ? WTERMSIG(status) : (note.is_object() ? note.value("signal", 0) : 0);
    v.property = "crash";
    v.message = "the process died of " + signal_name(sig);
    if (note.is_object()) {
      if (note.contains("execution")) {
        v.message += " in execution " + std::to_string(note["execution"].get<std::uint64_t>());
        out.executions = note["execution"].get<std::uint64_t>();
      }
      if (note.contains("schedule")) v.schedule = note["schedule"].get<std::string>();
    }
  }
  out.violations.push_back(std::move(v));
  return out;
}

}  // namespace syncstress::scenarios
