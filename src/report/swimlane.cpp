#include "report/swimlane.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
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

}  // namespace

std::string render_swimlane(const std::vector<std::string>& trace, const SwimlaneOptions& options) {
  std::vector<std::optional<Step>> steps;
  std::vector<std::string> threads;
  for (const auto& line : trace) {
    steps.push_back(parse(line));
    if (steps.back() &&
        std::find(threads.begin(), threads.end(), steps.back()->thread) == threads.end()) {
      threads.push_back(steps.back()->thread);
    }
  }
  std::sort(threads.begin(), threads.end(), thread_less);
  constexpr std::size_t kMaxLane = 40;
  std::map<std::string, std::size_t> width;
  for (const auto& t : threads) width[t] = t.size();
  std::size_t step_width = 4;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    if (!s) continue;
    step_width = std::max(step_width, s->step.size());
    // Shown: the primitive's steps, the harness's with all_steps, and the last step always.
    if (options.all_steps || !s->bookkeeping || i + 1 == steps.size()) {
      width[s->thread] = std::min(kMaxLane, std::max(width[s->thread], s->text.size()));
    }
  }

  std::ostringstream out;
  const auto row = [&](const std::string& mark, const std::string& step, const std::string& thread,
                       const std::string& text, const std::string& where) {
    out << mark << pad(step, step_width);
    for (const auto& t : threads) {
      std::string cell = t == thread ? text : "";
      if (cell.size() > width[t]) {
        cell.resize(width[t] - 1);
        cell += '~';
      }
      out << " | " << pad(cell, width[t]);
    }
    out << " | " << where << '\n';
  };
  std::string header = "  ";
  header += pad("step", step_width);
  for (const auto& t : threads) {
    header += " | ";
    header += pad(t, width[t]);
  }
  out << header << " | where\n";
  std::string rule = "  ";
  rule.append(step_width, '-');
  for (const auto& t : threads) {
    rule += "-+-";
    rule.append(width[t], '-');
  }
  rule += "-+------";
  out << rule << '\n';

  std::size_t folded = 0;
  std::string last_thread;
  const auto flush_folded = [&] {
    if (folded == 0) return;
    out << "  " << pad("", step_width) << "   (" << folded << " harness step"
        << (folded == 1 ? "" : "s") << " folded; --all-steps shows them)\n";
    folded = 0;
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool last = i + 1 == steps.size();
    const auto& s = steps[i];
    if (!s) {
      flush_folded();
      out << "  " << trace[i] << '\n';
      continue;
    }
    if (s->bookkeeping && !options.all_steps && !last) {
      ++folded;
      continue;
    }
    flush_folded();
    // A context switch: the thread differs from the last one shown.
    const bool switched = !last_thread.empty() && s->thread != last_thread;
    last_thread = s->thread;
    row(last && !options.breach.empty() ? "=>"
        : switched                      ? "* "
                                        : "  ",
        s->step, s->thread, s->text, s->where);
  }
  flush_folded();
  if (!options.breach.empty()) out << "=> " << options.breach << '\n';
  out << "(* marks a context switch; => the step where the property broke)\n";
  // Trailing spaces of padded last lanes are trimmed line by line.
  std::string text = out.str();
  std::string trimmed;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line.erase(line.find_last_not_of(' ') + 1);
    trimmed += line;
    trimmed += '\n';
  }
  return trimmed;
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
