// Other programs as child processes: one (syncstress-relacy) with its stdout and stderr
// captured and a deadline after which it is killed, or several side by side (the shards of a
// run --jobs).
#pragma once

#include <cstddef>
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

/// How one of several programs run side by side ended; they write to this process's stdout
/// and stderr.
struct Ended {
  bool started = false;  ///< false when a stop signal came before its turn
  int exit_code = -1;    ///< when it exited; 127 when it could not be started
  int signal = 0;        ///< when a signal ended it
};

/// Runs the argument lists of `programs` (argv[0] a path) in order, `at_once` at a time (each
/// starting as another ends), and waits for them all. A stop signal this process receives
/// (util/interrupt.hpp) is passed on once to each that runs, which then ends as it does on
/// its own signal, and no more start; none is left running.
std::vector<Ended> run_side_by_side(const std::vector<std::vector<std::string>>& programs,
                                    std::size_t at_once);

}  // namespace syncstress::supervise
