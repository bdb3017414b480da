// A counterexample for people: an execution's trace (the report's "trace", one step per line)
// drawn as swimlanes, one column per thread, one row per step, so that who ran when and where
// the context switched is seen at a glance. The harness's own bookkeeping (coroutine resumes
// of the task type, the scenario's counters, thread exits) is folded into a count unless all
// steps are asked for; the primitive's operations are shown in full with their object, values
// and file:line; the last step, where the property broke, is marked with its message.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace syncstress::report {

struct SwimlaneOptions {
  bool all_steps = false;  ///< show the harness's bookkeeping too
  /// The broken property and its message, shown at the last step; empty for none.
  std::string breach;
};

/// The swimlane text of `trace` (lines as Trace::format writes them: "step thread op object
/// [values] file:line"). A line that does not parse is shown as it is, across all lanes.
std::string render_swimlane(const std::vector<std::string>& trace, const SwimlaneOptions& options);

/// One step of a trace, parsed for drawing it elsewhere (the HTML report).
struct SwimlaneStep {
  bool parsed = false;       ///< false: a line that does not parse; `text` is all of it
  std::string step{};        ///< "12"
  std::string thread{};      ///< "t1"
  std::string text{};        ///< op, object and values
  std::string where{};       ///< file:line, or "-"
  bool bookkeeping = false;  ///< the harness's own step, which render_swimlane folds
  bool switched = false;     ///< a context switch: another thread than the step before ran
};

/// A trace as swimlanes without the drawing: its threads in order ("t0", "t1", ..., "t10") and
/// its steps parsed as render_swimlane parses them. The last step is where the property broke.
struct SwimlaneTable {
  std::vector<std::string> threads{};
  std::vector<SwimlaneStep> steps{};
};

SwimlaneTable swimlane_table(const std::vector<std::string>& trace);

/// A block of rows that repeats: rows [first, first + period) of a sequence are drawn, and the
/// `more` copies of them right after are folded into one row with the count (a spin, a retry
/// loop: long executions are mostly these).
struct Repeat {
  std::size_t first = 0;
  std::size_t period = 0;
  std::size_t more = 0;
};

/// The repeats of a sequence of rows, each row given by `keys` (what it shows but its step
/// number): blocks of 1 to 4 rows that occur at least 3 times in a row, the shortest block
/// first, leftmost first, not overlapping. An empty key never repeats (a row that breaks runs).
std::vector<Repeat> find_repeats(const std::vector<std::string>& keys);

}  // namespace syncstress::report
