#include "supervise/watchdog.hpp"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace syncstress::supervise {
namespace {

using nlohmann::json;

const scenarios::ExecutionWatch::Note* g_in_flight = nullptr;
int g_report_fd = -1;
volatile std::sig_atomic_t g_dying = 0;
// The stall watchdog's view: progress marks, the count its last tick saw, and how many ticks
// in a row saw no change. Touched only by the child's main thread and its own signal handler.
std::atomic<std::uint64_t> g_progress{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
std::uint64_t g_progress_seen = 0;
int g_still_ticks = 0;
int g_stall_ticks = 0;
int g_timer = ITIMER_REAL;  // ITIMER_PROF when the stall is counted in CPU time

class HandlerWatch final : public scenarios::ExecutionWatch {
 public:
  void in_flight(const Note* note) override { g_in_flight = note; }
  void progress() noexcept override { g_progress.fetch_add(1, std::memory_order_relaxed); }
};

// Writes `tag` and a note on the execution in flight, then ends the child. Not
// async-signal-safe (it encodes a schedule, formats a trace), and it need not be: the process
// ends either way, and a fault inside goes straight to _exit.
[[noreturn]] void report_in_flight_and_exit(const char* tag, json note, int status) {
  if (g_dying) _exit(status);
  g_dying = 1;
  try {
    if (g_in_flight) (*g_in_flight)(note);
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
  report_in_flight_and_exit(
      "HANG", json{{"stalled_seconds", g_still_ticks}, {"cpu_time", g_timer == ITIMER_PROF}}, 0);
}

}  // namespace

void write_all(int fd, std::string_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

void install_handlers(int fd, Stall stall) {
  g_report_fd = fd;
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

  g_stall_ticks = std::max(1, static_cast<int>(stall.seconds + 0.999));
  g_timer = stall.clock == StallClock::cpu ? ITIMER_PROF : ITIMER_REAL;
  struct sigaction tick {};
  tick.sa_handler = &on_tick;
  tick.sa_flags = SA_ONSTACK | SA_RESTART;
  sigemptyset(&tick.sa_mask);
  sigaction(stall.clock == StallClock::cpu ? SIGPROF : SIGALRM, &tick, nullptr);
  itimerval every_second{};
  every_second.it_interval.tv_sec = 1;
  every_second.it_value.tv_sec = 1;
  setitimer(g_timer, &every_second, nullptr);
}

void stop_watchdog() {
  itimerval off{};
  setitimer(g_timer, &off, nullptr);
}

scenarios::ExecutionWatch& handler_watch() {
  static HandlerWatch watch;
  return watch;
}

Stall sim_stall(std::uint64_t max_steps) {
  return {5.0 + static_cast<double>(max_steps) * 1e-6, StallClock::cpu};
}

}  // namespace syncstress::supervise
