#include "supervise/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>

#include "util/interrupt.hpp"

namespace syncstress::supervise {

namespace {

/// `count` pipes: their read ends and their write ends, in order. Throws std::system_error,
/// with none left open, when one cannot be made.
void open_pipes(int count, std::vector<int>& read_ends, std::vector<int>& write_ends) {
  for (int i = 0; i < count; ++i) {
    int fds[2];
    if (::pipe(fds) != 0) {
      const int error = errno;
      for (int fd : read_ends) ::close(fd);
      for (int fd : write_ends) ::close(fd);
      throw std::system_error(error, std::generic_category(), "pipe()");
    }
    read_ends.push_back(fds[0]);
    write_ends.push_back(fds[1]);
  }
}

/// Reads child `pid`'s pipes into `out.outputs` until it closes them all, passing a stop signal
/// on once (and allowing it kInterruptGraceSeconds), or kills it at `timeout_seconds`. Closes
/// every read end.
void collect_outputs(pid_t pid, const std::vector<int>& read_ends, double timeout_seconds,
                     ChildExit& out) {
  out.outputs.resize(read_ends.size());
  std::vector<pollfd> polled;
  polled.reserve(read_ends.size());
  for (int fd : read_ends) polled.push_back({fd, POLLIN, 0});
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  std::size_t open = polled.size();
  char buf[1 << 16];
  while (open > 0) {
    const int ready = ::poll(polled.data(), polled.size(), 100);
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < polled.size() && ready > 0; ++i) {
      auto& p = polled[i];
      if (p.fd < 0 || (p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(p.fd, buf, sizeof buf);
      if (n > 0) {
        out.outputs[i].append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(p.fd);
        p.fd = -1;
        --open;
      }
    }
    if (const int sig = interrupt::requested(); sig != 0 && !out.interrupted) {
      // Once: the child ends its cell between two executions and answers.
      out.interrupted = true;
      ::kill(pid, sig);
      deadline = std::min(deadline, std::chrono::steady_clock::now() +
                                        std::chrono::duration<double>(kInterruptGraceSeconds));
    }
    if (open > 0 && std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      out.timed_out = !out.interrupted;
      break;
    }
  }
  for (const auto& p : polled) {
    if (p.fd >= 0) ::close(p.fd);
  }
}

}  // namespace

ChildExit run_child(int pipes, const std::function<void(std::span<const int> fds)>& child_main,
                    double timeout_seconds) {
  std::vector<int> read_ends, write_ends;
  open_pipes(pipes, read_ends, write_ends);
  // Whatever stdio holds would otherwise be written twice, once by each process.
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork()");
  if (pid == 0) {
    interrupt::become_child();
    // No orphans: when the parent dies (even of SIGKILL), so does the child. The parent may
    // have died before the call took effect.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    for (int fd : read_ends) ::close(fd);
    child_main(write_ends);
    ::_exit(127);
  }
  interrupt::set_child(pid);
  for (int fd : write_ends) ::close(fd);
  ChildExit out;
  collect_outputs(pid, read_ends, timeout_seconds, out);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  interrupt::set_child(0);
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  return out;
}

}  // namespace syncstress::supervise
