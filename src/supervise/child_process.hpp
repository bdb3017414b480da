// The one fork / pipe / poll / deadline / wait of the tool. Both kinds of children run through
// it: a forked copy of this process that runs a cell or a replay under crash and stall handlers
// (isolated.hpp), and the syncstress-relacy program (program.hpp).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace syncstress::supervise {

/// How a child ended, with everything it wrote to its pipes.
struct ChildExit {
  int exit_code = -1;      ///< when it exited
  int signal = 0;          ///< when a signal ended it
  bool timed_out = false;  ///< killed (SIGKILL) at the deadline
  /// The run was interrupted (interrupt::requested()) while the child ran: it was passed the
  /// signal, and killed if it had not finished kInterruptGraceSeconds later.
  bool interrupted = false;
  std::vector<std::string> outputs;  ///< what it wrote to each pipe, in order
};

/// How long an interrupted child has to answer before it is killed.
inline constexpr double kInterruptGraceSeconds = 0.5;

/// Forks a child with `pipes` pipes. The child runs `child_main` with the write ends and must
/// end in _exit or exec (should it return, it _exits 127); it dies with its parent
/// (PR_SET_PDEATHSIG), and its SIGINT and SIGTERM only record themselves until it installs its
/// own (interrupt.hpp). The parent reads every pipe until the child has closed them all,
/// killing it after `timeout_seconds`, then reaps it. When the run is interrupted meanwhile,
/// the parent passes the signal on and waits kInterruptGraceSeconds more at most. Throws
/// std::system_error when pipe() or fork() fails.
ChildExit run_child(int pipes, const std::function<void(std::span<const int> fds)>& child_main,
                    double timeout_seconds);

}  // namespace syncstress::supervise
