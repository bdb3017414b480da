// Another program as a child process (syncstress-relacy): its stdout and stderr captured, a
// deadline after which it is killed.
#pragma once

#include <string>
#include <vector>

namespace syncstress::supervise {

/// How a program ended, with everything it wrote.
struct Finished {
  int exit_code = -1;  ///< when it exited; 127 when it could not be started
  int signal = 0;      ///< when a signal ended it
  bool timed_out = false;
  std::string out, err;
};

/// Runs `argv` (argv[0] a path) with its stdout and stderr captured; kills it after
/// `timeout_seconds`.
Finished run_program(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace syncstress::supervise
