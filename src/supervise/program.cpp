#include "supervise/program.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "supervise/child_process.hpp"
#include "util/concat.hpp"

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

}  // namespace syncstress::supervise
