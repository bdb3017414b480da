#include "scenarios/isolation.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "scenarios/outcome_json.hpp"
#include "sim/runtime.hpp"
#include "util/lines.hpp"

namespace syncstress::scenarios {
namespace {

using nlohmann::json;

const InFlight* g_in_flight = nullptr;
int g_report_fd = -1;
volatile std::sig_atomic_t g_dying = 0;
// The stall watchdog's view: progress marks, the count its last tick saw, and how many ticks
// in a row saw no change. Touched only by the child's main thread and its own signal handler.
std::atomic<std::uint64_t> g_progress{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
std::uint64_t g_progress_seen = 0;
int g_still_ticks = 0;
int g_stall_ticks = 0;

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Writes `tag` and a note on the execution in flight, then ends the child. Not
// async-signal-safe (it encodes a schedule, formats a trace), and it need not be: the process
// ends either way, and a fault inside goes straight to _exit.
[[noreturn]] void report_in_flight_and_exit(const char* tag, json note, int status) {
  if (g_dying) _exit(status);
  g_dying = 1;
  try {
    if (g_in_flight) {
      if (g_in_flight->executions) note["execution"] = *g_in_flight->executions + 1;
      if (g_in_flight->schedule) note["schedule"] = g_in_flight->schedule();
      if (sim::current_step() != 0) {
        note["thread"] = sim::current_thread();
        note["step"] = sim::current_step();
      }
      if (g_in_flight->trace) note["trace"] = sim::trace_so_far();
    }
  } catch (...) {
  }
  write_all(g_report_fd, std::string(tag) + " " + note.dump());
  _exit(status);
}

void on_crash(int sig) { report_in_flight_and_exit("CRASH", json{{"signal", sig}}, 128 + sig); }

void on_tick(int) {
  const auto now = g_progress.load(std::memory_order_relaxed);
  if (now != g_progress_seen) {
    g_progress_seen = now;
    g_still_ticks = 0;
    return;
  }
  if (++g_still_ticks < g_stall_ticks) return;
  report_in_flight_and_exit("HANG", json{{"stalled_seconds", g_still_ticks}}, 0);
}

void install_handlers(double stall) {
  // Their own stack: the fault may be a fiber's stack overflowing.
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

  g_stall_ticks = std::max(1, static_cast<int>(stall + 0.999));
  struct sigaction tick {};
  tick.sa_handler = &on_tick;
  tick.sa_flags = SA_ONSTACK | SA_RESTART;
  sigemptyset(&tick.sa_mask);
  sigaction(SIGALRM, &tick, nullptr);
  itimerval every_second{};
  every_second.it_interval.tv_sec = 1;
  every_second.it_value.tv_sec = 1;
  setitimer(ITIMER_REAL, &every_second, nullptr);
}

void stop_watchdog() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
}

[[noreturn]] void child(const std::function<json()>& work, int fd, double stall) {
  g_report_fd = fd;
  install_handlers(stall);
  std::string message;
  try {
    json result = work();
    stop_watchdog();
    message = "RESULT " + result.dump();
  } catch (const UsageError& e) {
    message = std::string("USAGE ") + e.what();
  } catch (const std::exception& e) {
    message = std::string("ERROR ") + e.what();
  }
  stop_watchdog();
  write_all(fd, message);
  // No exit handlers: the parent owns stdout, the report and every static.
  _exit(0);
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

/// How a child ended, as the parent saw it.
// NOLINTNEXTLINE(bugprone-exception-escape): the members' default states allocate nothing.
struct ChildEnding {
  enum class Kind { result, error, crash, hang } kind = Kind::result;
  json result;            // Kind::result
  std::string text;       // Kind::error: the message
  json note;              // crash, hang: what the child's handler wrote (may be null)
  int signal = 0;         // crash
  bool deadline = false;  // hang: killed by the parent's deadline, not the child's watchdog
};

ChildEnding run_child(const std::function<json()>& work, double timeout_seconds, double stall) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe()");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork()");
  if (pid == 0) {
    ::close(fds[0]);
    child(work, fds[1], stall);
  }
  ::close(fds[1]);

  std::string data;
  bool killed = false;
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
      killed = true;
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  auto starts = [&](const char* prefix) { return data.rfind(prefix, 0) == 0; };
  ChildEnding out;
  if (starts("RESULT ")) {
    out.result = json::parse(data.substr(7));
    return out;
  }
  if (starts("USAGE ")) throw UsageError(data.substr(6));
  if (starts("ERROR ")) {
    out.kind = ChildEnding::Kind::error;
    out.text = data.substr(6);
    return out;
  }
  if (starts("HANG ") || killed) {
    out.kind = ChildEnding::Kind::hang;
    out.deadline = killed;
    if (starts("HANG ")) out.note = json::parse(data.substr(5), nullptr, false);
    return out;
  }
  out.kind = ChildEnding::Kind::crash;
  if (starts("CRASH ")) out.note = json::parse(data.substr(6), nullptr, false);
  out.signal = WIFSIGNALED(status) ? WTERMSIG(status)
                                   : (out.note.is_object() ? out.note.value("signal", 0) : 0);
  return out;
}

/// The violation for a child that crashed or hung; fills `v` from the handler's note.
void describe_ending(const ChildEnding& e, double timeout_seconds, Violation& v) {
  const bool has_note = e.note.is_object();
  std::string where;
  if (has_note && e.note.contains("execution")) {
    where = " in execution " + std::to_string(e.note["execution"].get<std::uint64_t>());
  }
  if (has_note && e.note.contains("thread")) {
    where += " (thread t" + std::to_string(e.note["thread"].get<std::uint64_t>()) +
             ", after step " + std::to_string(e.note["step"].get<std::uint64_t>()) + ")";
  }
  if (e.kind == ChildEnding::Kind::hang) {
    v.property = "hang";
    v.message = e.deadline ? "the run did not finish within " +
                                 std::to_string(static_cast<int>(timeout_seconds)) + " s"
                           : "no progress for " +
                                 std::to_string(e.note.value("stalled_seconds", 0)) + " s" + where +
                                 ": a thread loops without reaching a scheduling point (a spin on "
                                 "plain memory, or a walk around a cyclic list?)";
  } else {
    v.property = "crash";
    v.message = "the process died of " + signal_name(e.signal) + where;
  }
  if (has_note && e.note.contains("schedule")) {
    v.schedule = e.note["schedule"].get<std::string>();
  }
  if (has_note && e.note.contains("trace")) {
    v.trace = split_lines(e.note["trace"].get<std::string>());
  }
}

}  // namespace

void set_in_flight(const InFlight* in_flight) { g_in_flight = in_flight; }

void note_progress() noexcept { g_progress.fetch_add(1, std::memory_order_relaxed); }

double stall_seconds(std::uint64_t max_steps) {
  return 5.0 + static_cast<double>(max_steps) * 1e-6;
}

bool isolation_enabled() {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in the process sets the environment.
  const char* v = std::getenv("SYNCSTRESS_NO_FORK");
  return !(v && std::strcmp(v, "1") == 0);
}

CellResult run_isolated(const std::function<CellResult()>& work, const CellResult& identity,
                        double timeout_seconds, double stall) {
  const auto started = std::chrono::steady_clock::now();
  const auto e = run_child([&] { return to_json(work()); }, timeout_seconds, stall);
  if (e.kind == ChildEnding::Kind::result) return cell_result_from_json(e.result);
  CellResult out = identity;
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (e.kind == ChildEnding::Kind::error) {
    out.verdict = Verdict::error;
    out.error = e.text;
    return out;
  }
  out.verdict = Verdict::fail;
  Violation v;
  describe_ending(e, timeout_seconds, v);
  if (e.note.is_object() && e.note.contains("execution")) {
    out.executions = e.note["execution"].get<std::uint64_t>();
  }
  out.violations.push_back(std::move(v));
  return out;
}

ReplayOutcome replay_isolated(const std::function<ReplayOutcome()>& work, const Violation& identity,
                              double timeout_seconds, double stall) {
  const auto e = run_child([&] { return to_json(work()); }, timeout_seconds, stall);
  if (e.kind == ChildEnding::Kind::result) return replay_outcome_from_json(e.result);
  if (e.kind == ChildEnding::Kind::error) throw std::runtime_error(e.text);
  ReplayOutcome out;
  Violation v = identity;
  describe_ending(e, timeout_seconds, v);
  v.schedule = identity.schedule;  // the replayed schedule, not the prefix the child reached
  if (e.note.is_object() && e.note.contains("step")) {
    out.steps = e.note["step"].get<std::uint64_t>();
  }
  out.trace = v.trace;
  out.violation = std::move(v);
  return out;
}

}  // namespace syncstress::scenarios
