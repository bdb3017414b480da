#include "report/swimlane.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string_view>
#include <utility>

namespace syncstress::report {
namespace {

struct Step {
  std::string step;
  std::string thread;  // "t1"
  std::string text;    // op, object and values
  std::string where;   // file:line, or "-"
  bool bookkeeping = false;
};

/// Whether a step is the harness's, not the primitive's: what the task type and the scenario
/// harness do around the primitive, the runtime's own (a pool worker waiting for work), and a
/// thread's exit.
bool is_bookkeeping(std::string_view op, std::string_view where) {
  if (op == "exit") return true;
  for (std::string_view prefix : {"scenarios/", "src/platform/task.hpp", "src/sim/"}) {
    if (where.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::optional<Step> parse(const std::string& line) {
  // step thread op rest... where
  std::vector<std::string_view> words;
  std::string_view rest(line);
  for (int i = 0; i < 3; ++i) {
    const auto space = rest.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    words.push_back(rest.substr(0, space));
    rest.remove_prefix(space + 1);
  }
  const auto last_space = rest.rfind(' ');
  const std::string_view where =
      last_space == std::string_view::npos ? rest : rest.substr(last_space + 1);
  const std::string_view middle =
      last_space == std::string_view::npos ? std::string_view() : rest.substr(0, last_space);
  unsigned long long n = 0;
  const auto [end, ec] = std::from_chars(words[0].data(), words[0].data() + words[0].size(), n);
  if (ec != std::errc() || end != words[0].data() + words[0].size() || words[1].empty() ||
      words[1][0] != 't') {
    return std::nullopt;
  }
  // Appended, not concatenated with +: g++ 12 at -O3 flags that with a false -Wrestrict (GCC
  // bug 105329).
  std::string text(words[2]);
  if (!middle.empty()) {
    text += ' ';
    text += middle;
  }
  Step s{std::string(words[0]), std::string(words[1]), std::move(text), std::string(where), false};
  s.bookkeeping = is_bookkeeping(words[2], where);
  return s;
}

/// Orders "t0", "t1", ..., "t10" by number.
bool thread_less(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

/// The columns of the drawing: the threads in order, each lane's width, and the step column's.
struct Lanes {
  std::vector<std::string> threads;
  std::map<std::string, std::size_t> width;
  std::size_t step_width = 4;
};

/// Each line of `trace` parsed; nullopt for a line that does not parse.
std::vector<std::optional<Step>> parse_all(const std::vector<std::string>& trace) {
  std::vector<std::optional<Step>> steps;
  steps.reserve(trace.size());
  for (const auto& line : trace) steps.push_back(parse(line));
  return steps;
}

/// The lanes of `steps`: each as wide as its name and the widest step it shows (at most 40
/// characters: a longer step is cut), the step column as wide as the widest step number.
Lanes lanes_of(const std::vector<std::optional<Step>>& steps, const SwimlaneOptions& options) {
  Lanes lanes;
  for (const auto& s : steps) {
    if (s &&
        std::find(lanes.threads.begin(), lanes.threads.end(), s->thread) == lanes.threads.end()) {
      lanes.threads.push_back(s->thread);
    }
  }
  std::sort(lanes.threads.begin(), lanes.threads.end(), thread_less);
  constexpr std::size_t kMaxLane = 40;
  for (const auto& t : lanes.threads) lanes.width[t] = t.size();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    if (!s) continue;
    lanes.step_width = std::max(lanes.step_width, s->step.size());
    // Shown: the primitive's steps, the harness's with all_steps, and the last step always.
    if (options.all_steps || !s->bookkeeping || i + 1 == steps.size()) {
      auto& width = lanes.width[s->thread];
      width = std::min(kMaxLane, std::max(width, s->text.size()));
    }
  }
  return lanes;
}

/// The header row, which names the lanes, and the rule under it.
void draw_header(std::ostream& out, const Lanes& lanes) {
  std::string header = "  ";
  header += pad("step", lanes.step_width);
  for (const auto& t : lanes.threads) {
    header += " | ";
    header += pad(t, lanes.width.at(t));
  }
  out << header << " | where\n";
  std::string rule = "  ";
  rule.append(lanes.step_width, '-');
  for (const auto& t : lanes.threads) {
    rule += "-+-";
    rule.append(lanes.width.at(t), '-');
  }
  rule += "-+------";
  out << rule << '\n';
}

/// The row of step `s` after `mark`: its text in its thread's lane (cut with a '~' where it is
/// wider), the other lanes empty, and where it ran.
void draw_row(std::ostream& out, const Lanes& lanes, const std::string& mark, const Step& s) {
  out << mark << pad(s.step, lanes.step_width);
  for (const auto& t : lanes.threads) {
    const std::size_t width = lanes.width.at(t);
    std::string cell = t == s.thread ? s.text : "";
    if (cell.size() > width) {
      cell.resize(width - 1);
      cell += '~';
    }
    out << " | " << pad(cell, width);
  }
  out << " | " << s.where << '\n';
}

/// The line that stands for `folded` harness steps in a row; nothing for none.
void draw_folded(std::ostream& out, const Lanes& lanes, std::size_t folded) {
  if (folded == 0) return;
  out << "  " << pad("", lanes.step_width) << "   (" << folded << " harness step"
      << (folded == 1 ? "" : "s") << " folded; --all-steps shows them)\n";
}

/// A row per step of `trace`: a line that does not parse as it is, the harness's steps folded
/// into a count unless all are asked for, the last step always shown (marked where the property
/// broke), and each context switch marked.
void draw_steps(std::ostream& out, const std::vector<std::string>& trace,
                const std::vector<std::optional<Step>>& steps, const Lanes& lanes,
                const SwimlaneOptions& options) {
  std::size_t folded = 0;
  std::string last_thread;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool last = i + 1 == steps.size();
    const auto& s = steps[i];
    if (!s) {
      draw_folded(out, lanes, std::exchange(folded, 0));
      out << "  " << trace[i] << '\n';
      continue;
    }
    if (s->bookkeeping && !options.all_steps && !last) {
      ++folded;
      continue;
    }
    draw_folded(out, lanes, std::exchange(folded, 0));
    // A context switch: the thread differs from the last one shown.
    const bool switched = !last_thread.empty() && s->thread != last_thread;
    last_thread = s->thread;
    draw_row(out, lanes, last && !options.breach.empty() ? "=>" : switched ? "* " : "  ", *s);
  }
  draw_folded(out, lanes, folded);
}

/// `text` with the trailing spaces of each line trimmed.
std::string trim_line_ends(const std::string& text) {
  std::string trimmed;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line.erase(line.find_last_not_of(' ') + 1);
    trimmed += line;
    trimmed += '\n';
  }
  return trimmed;
}

}  // namespace

std::string render_swimlane(const std::vector<std::string>& trace, const SwimlaneOptions& options) {
  const auto steps = parse_all(trace);
  const Lanes lanes = lanes_of(steps, options);
  std::ostringstream out;
  draw_header(out, lanes);
  draw_steps(out, trace, steps, lanes, options);
  if (!options.breach.empty()) out << "=> " << options.breach << '\n';
  out << "(* marks a context switch; => the step where the property broke)\n";
  // The padded last lanes leave spaces at the ends of lines.
  return trim_line_ends(out.str());
}

SwimlaneTable swimlane_table(const std::vector<std::string>& trace) {
  SwimlaneTable table;
  std::string previous_thread;
  for (const auto& line : trace) {
    auto s = parse(line);
    SwimlaneStep step;
    if (!s) {
      step.text = line;
      table.steps.push_back(std::move(step));
      continue;
    }
    step.parsed = true;
    step.switched = !previous_thread.empty() && s->thread != previous_thread;
    previous_thread = s->thread;
    if (std::find(table.threads.begin(), table.threads.end(), s->thread) == table.threads.end()) {
      table.threads.push_back(s->thread);
    }
    step.step = std::move(s->step);
    step.thread = std::move(s->thread);
    step.text = std::move(s->text);
    step.where = std::move(s->where);
    step.bookkeeping = s->bookkeeping;
    table.steps.push_back(std::move(step));
  }
  std::sort(table.threads.begin(), table.threads.end(), thread_less);
  return table;
}

}  // namespace syncstress::report
