#include "util/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace syncstress::interrupt {
namespace {

// Read and written by the handlers: lock-free atomics only.
std::atomic<int> g_signal{0};
std::atomic<pid_t> g_child{0};
std::atomic<bool> g_child_mode{false};
std::atomic<bool> g_has_temp{false};
char g_temp[4096];
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free &&
              std::atomic<bool>::is_always_lock_free);

void on_signal(int sig) {
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig) || g_child_mode.load()) return;
  // The second: no waiting for anyone.
  if (const pid_t child = g_child.load(); child > 0) ::kill(child, SIGKILL);
  if (g_has_temp.load()) ::unlink(g_temp);
  ::_exit(128 + sig);
}

}  // namespace

void install() {
  struct sigaction sa {};
  sa.sa_handler = &on_signal;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: a blocking read or poll returns EINTR and its loop looks at requested().
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int requested() noexcept { return g_signal.load(); }

void become_child() noexcept {
  g_child_mode.store(true);
  g_child.store(0);
  g_has_temp.store(false);
}

void set_child(pid_t pid) noexcept { g_child.store(pid); }

void set_temp_file(const char* path) noexcept {
  g_has_temp.store(false);
  if (path == nullptr || std::strlen(path) >= sizeof g_temp) return;
  std::strcpy(g_temp, path);
  g_has_temp.store(true);
}

void reset_for_tests() noexcept { g_signal.store(0); }

}  // namespace syncstress::interrupt
