#include "supervise/program.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

#include "supervise/child_process.hpp"
#include "util/concat.hpp"
#include "util/interrupt.hpp"

namespace syncstress::supervise {

Finished run_program(const std::vector<std::string>& argv, double timeout_seconds) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto exit = run_child(
      2,
      [&](std::span<const int> fds) {
        ::dup2(fds[0], STDOUT_FILENO);
        ::dup2(fds[1], STDERR_FILENO);
        for (int fd : fds) ::close(fd);
        ::execv(args[0], args.data());
        // NOLINTNEXTLINE(concurrency-mt-unsafe): the forked child has one thread.
        const std::string why = concat("cannot start ", argv[0], ": ", std::strerror(errno), "\n");
        (void)!::write(STDERR_FILENO, why.data(), why.size());
        ::_exit(127);
      },
      timeout_seconds);
  return Finished{exit.exit_code, exit.signal, exit.timed_out, exit.outputs[0], exit.outputs[1]};
}

namespace {

/// Starts `argv` in a process group of its own, so that a terminal's Ctrl-C reaches only this
/// process, which passes it on once; the child dies with this process. 0 when fork fails.
pid_t start_in_own_group(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::execv(args[0], args.data());
    // NOLINTNEXTLINE(concurrency-mt-unsafe): the forked child has one thread.
    const std::string why = concat("cannot start ", argv[0], ": ", std::strerror(errno), "\n");
    (void)!::write(STDERR_FILENO, why.data(), why.size());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

std::vector<Ended> run_side_by_side(const std::vector<std::vector<std::string>>& programs,
                                    std::size_t at_once) {
  std::vector<Ended> out(programs.size());
  std::vector<pid_t> pids(programs.size(), 0);
  std::size_t next = 0, running = 0;
  bool passed_on = false;
  while (running > 0 || (next < programs.size() && !passed_on)) {
    while (!passed_on && running < at_once && next < programs.size()) {
      pids[next] = start_in_own_group(programs[next]);
      out[next].started = true;
      if (pids[next] == 0) {
        out[next].exit_code = 127;
      } else {
        ++running;
      }
      ++next;
    }
    if (const int sig = interrupt::requested(); sig != 0 && !passed_on) {
      passed_on = true;
      for (const pid_t pid : pids) {
        if (pid != 0) ::kill(pid, sig);
      }
    }
    for (std::size_t i = 0; i < next; ++i) {
      if (pids[i] == 0) continue;
      int status = 0;
      const pid_t done = ::waitpid(pids[i], &status, WNOHANG);
      if (done == 0 || (done < 0 && errno == EINTR)) continue;
      if (done == pids[i]) {
        if (WIFEXITED(status)) out[i].exit_code = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) out[i].signal = WTERMSIG(status);
      }
      pids[i] = 0;
      --running;
    }
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return out;
}

}  // namespace syncstress::supervise
