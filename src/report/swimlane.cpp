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

/// The line that stands for the `more` copies of the `period` rows above it, from step `from`
/// to step `to`.
void draw_repeat(std::ostream& out, const Lanes& lanes, const Repeat& r, const std::string& from,
                 const std::string& to) {
  out << "  " << pad("", lanes.step_width) << "   (the " << r.period
      << (r.period == 1 ? " row above repeats " : " rows above repeat ") << r.more
      << (r.more == 1 ? " more time" : " more times") << ", steps " << from << " to " << to
      << ")\n";
}

/// A row per step of `trace`: a line that does not parse as it is, the harness's steps folded
/// into a count unless all are asked for, rows that repeat a block folded into a count, the
/// last step always shown (marked where the property broke), and each context switch marked.
void draw_steps(std::ostream& out, const std::vector<std::string>& trace,
                const std::vector<std::optional<Step>>& steps, const Lanes& lanes,
                const SwimlaneOptions& options) {
  // The rows drawn (each step shown but the last, which is always drawn on its own), and what
  // each shows; a line that does not parse breaks any run.
  std::vector<std::size_t> rows;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    const auto& s = steps[i];
    if (s && s->bookkeeping && !options.all_steps) continue;
    rows.push_back(i);
    keys.push_back(s ? s->thread + ' ' + s->text + ' ' + s->where : std::string());
  }
  const std::vector<Repeat> repeats = find_repeats(keys);
  std::size_t next_repeat = 0;
  std::size_t row = 0;  // rows drawn or folded so far
  std::size_t folded = 0;
  std::string last_thread;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool last = i + 1 == steps.size();
    const auto& s = steps[i];
    if (!last && row < rows.size() && rows[row] == i && next_repeat < repeats.size() &&
        row == repeats[next_repeat].first + repeats[next_repeat].period) {
      // The copies of the block just drawn: one row for all of them, the harness's steps
      // among them included.
      const Repeat& r = repeats[next_repeat++];
      const std::size_t end = row + r.period * r.more;  // the first row after the copies
      const std::size_t last_copied = rows[end - 1];
      draw_folded(out, lanes, std::exchange(folded, 0));
      draw_repeat(out, lanes, r, steps[i]->step, steps[last_copied]->step);
      row = end;
      i = last_copied;
      continue;
    }
    if (!last && row < rows.size() && rows[row] == i) ++row;
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

std::vector<Repeat> find_repeats(const std::vector<std::string>& keys) {
  constexpr std::size_t kLongestBlock = 4;
  constexpr std::size_t kFewestCopies = 3;
  std::vector<Repeat> out;
  std::size_t i = 0;
  while (i < keys.size()) {
    bool found = false;
    for (std::size_t period = 1; period <= kLongestBlock && i + period <= keys.size(); ++period) {
      const auto block_ok = std::none_of(keys.begin() + static_cast<std::ptrdiff_t>(i),
                                         keys.begin() + static_cast<std::ptrdiff_t>(i + period),
                                         [](const std::string& k) { return k.empty(); });
      if (!block_ok) break;
      // How many rows after the block copy it, row for row.
      std::size_t same = 0;
      while (i + period + same < keys.size() &&
             keys[i + period + same] == keys[i + same % period]) {
        ++same;
      }
      const std::size_t copies = same / period;
      if (copies + 1 >= kFewestCopies) {
        out.push_back({i, period, copies});
        i += period * (copies + 1);
        found = true;
        break;
      }
    }
    if (!found) ++i;
  }
  return out;
}

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
