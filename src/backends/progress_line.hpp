// A progress line on stderr while a cell runs, when stderr is a terminal (nothing otherwise):
// rewritten in place at most twice a second, erased when the cell ends. The stress cells show
// trials, rate and budget; the exhaustive searches executions, rate, depth and bound.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

namespace syncstress::scenarios {

class ProgressLine {
 public:
  explicit ProgressLine(std::string label)
      : on_(::isatty(STDERR_FILENO) == 1), label_(std::move(label)) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

  /// Whether a line is due at `elapsed` seconds (cheap: call it before formatting one).
  bool due(double elapsed) const { return on_ && elapsed >= next_; }

  /// Shows "<label>: <text>" if one is due.
  void show(double elapsed, const std::string& text) {
    if (!due(elapsed)) return;
    next_ = elapsed + 0.5;
    shown_ = true;
    std::fprintf(stderr, "\r\033[K%s: %s", label_.c_str(), text.c_str());
  }

 private:
  bool on_;
  std::string label_;
  double next_ = 0.5;
  bool shown_ = false;
};

}  // namespace syncstress::scenarios
