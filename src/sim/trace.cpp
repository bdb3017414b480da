// Trace text and names of outcomes.
#include <string>
#include <string_view>

#include "sim/runtime.hpp"
#include "util/source_path.hpp"

namespace syncstress::sim {

namespace detail {

/// A source file as traces print it (util/source_path.hpp).
std::string_view short_file(const char* file) { return source_relative(file); }

}  // namespace detail

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::completed:
      return "completed";
    case Outcome::violation:
      return "violation";
    case Outcome::deadlock:
      return "deadlock";
    case Outcome::step_bound:
      return "step_bound";
    case Outcome::frame_misuse:
      return "frame_misuse";
    case Outcome::pruned:
      return "pruned";
    case Outcome::exception:
      return "exception";
  }
  return "unknown";
}

std::string ExecutionResult::format_trace() const {
  std::string out;
  out.reserve(trace.size() * 64);
  for (const TraceEntry& e : trace) {
    out += std::to_string(e.step);
    out += " t";
    out += std::to_string(e.thread);
    out += ' ';
    out += e.op;
    out += ' ';
    out += e.object;
    if (!e.values.empty()) {
      out += " [";
      out += e.values;
      out += ']';
    }
    out += ' ';
    out += detail::short_file(e.file);
    if (e.line != 0) {
      out += ':';
      out += std::to_string(e.line);
    }
    out += '\n';
  }
  return out;
}

}  // namespace syncstress::sim
