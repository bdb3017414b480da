// Ctrl-C and SIGTERM: a run stops promptly and still writes its report.
//
// The first SIGINT or SIGTERM only records itself: the supervisor passes it on to the child
// running the cell (which ends the cell between two executions and answers), stops starting
// cells, and the run writes what it has and exits 128 + the signal. A second one ends the
// process at once: it kills the child, removes a report's temporary file if one is being
// written, and exits 128 + that signal. A child process (after fork) only records: its
// parent decides when it dies.
#pragma once

#include <sys/types.h>

namespace syncstress::interrupt {

/// Installs the handlers for SIGINT and SIGTERM in this process (idempotent).
void install();

/// The signal that asked the run to stop (SIGINT or SIGTERM), or 0. Async-signal-safe.
int requested() noexcept;

/// In a forked child: from now on signals only record themselves, and nothing of the
/// parent's (its child, its temporary file) is touched. Async-signal-safe.
void become_child() noexcept;

/// The child process a second signal kills (0: none).
void set_child(pid_t pid) noexcept;

/// The file a second signal removes (nullptr: none); the text is copied (at most 4 KiB, a
/// longer path is not registered).
void set_temp_file(const char* path) noexcept;

/// Tests only: forget a recorded request.
void reset_for_tests() noexcept;

}  // namespace syncstress::interrupt
