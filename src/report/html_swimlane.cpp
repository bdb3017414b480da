#include "report/html_swimlane.hpp"

#include <string>
#include <vector>

#include "report/html_text.hpp"
#include "report/swimlane.hpp"
#include "util/concat.hpp"

namespace syncstress::report {
namespace {

/// The rows of a swimlane table, written one step at a time into `out`; a run of the harness's
/// steps is followed by a row that says how many it folds.
class LaneRows {
 public:
  LaneRows(const SwimlaneTable& table, std::string& out)
      : table_(table), out_(out), columns_(table.threads.size() + 2) {}

  /// A step of the harness's, hidden until the checkbox shows it.
  void harness_step(const SwimlaneStep& s) {
    ++folded_;
    row(s, true, false);
  }

  /// A step of the primitive's (or a line that does not parse), before the last.
  void step(const SwimlaneStep& s) {
    flush();
    row(s, false, false);
  }

  /// The last step, where the property broke: a tbody of its own, `message` under the step.
  void breach_step(const SwimlaneStep& s, const std::string& anchor, const std::string& message) {
    flush();
    out_ += concat("</tbody><tbody class=\"breach\" id=\"", anchor, "-breach\">");
    row(s, false, true);
    if (!message.empty()) {
      out_ +=
          concat("<tr class=\"breach-note\"><td></td><td class=\"breach-message\" colspan=\"",
                 std::to_string(columns_ - 1), "\">&rArr; ", escape_html(message), "</td></tr>");
    }
  }

  /// One row for the `more` copies of the block of `period` rows above it, steps `from` to `to`.
  void repeat(const Repeat& r, const std::string& from, const std::string& to) {
    flush();
    out_ += concat("<tr class=\"repeat\"><td></td><td colspan=\"", std::to_string(columns_ - 1),
                   "\">the ", std::to_string(r.period),
                   r.period == 1 ? " row above repeats " : " rows above repeat ",
                   std::to_string(r.more), r.more == 1 ? " more time" : " more times", ", steps ",
                   escape_html(from), " to ", escape_html(to), "</td></tr>");
  }

  /// After the last step: the count of a run of the harness's steps that ends the table.
  void finish() { flush(); }

 private:
  void flush() {
    if (folded_ == 0) return;
    out_ += concat("<tr class=\"folded\"><td></td><td colspan=\"", std::to_string(columns_ - 1),
                   "\">", std::to_string(folded_), " harness step", folded_ == 1 ? "" : "s",
                   " folded</td></tr>");
    folded_ = 0;
  }

  void row(const SwimlaneStep& s, bool harness_step, bool last) {
    if (!s.parsed) {
      out_ += concat("<tr class=\"raw\"><td colspan=\"", std::to_string(columns_), "\">",
                     escape_html(s.text), "</td></tr>");
      return;
    }
    // A switch: another thread ran the step before, or (the harness's steps folded) the
    // primitive's step shown before.
    const bool switched =
        s.switched || (!harness_step && !last_shown_.empty() && s.thread != last_shown_);
    if (!harness_step) last_shown_ = s.thread;
    std::string classes = "step";
    if (harness_step) classes += " harness";
    if (switched) classes += " switch";
    out_ += concat("<tr class=\"", classes, "\"><td class=\"n\">",
                   last       ? "&rArr; "
                   : switched ? "* "
                              : "",
                   escape_html(s.step), "</td>");
    for (const auto& t : table_.threads) {
      out_ += t == s.thread ? concat("<td class=\"lane op\">", escape_html(s.text), "</td>")
                            : std::string("<td class=\"lane\"></td>");
    }
    out_ += concat("<td class=\"where\">", escape_html(s.where), "</td></tr>");
  }

  const SwimlaneTable& table_;
  std::string& out_;
  const std::size_t columns_;  ///< the step's, one per thread, where's
  std::size_t folded_ = 0;     ///< the harness's steps since the last step shown
  std::string last_shown_;     ///< the thread of the last step shown with the harness's folded
};

/// The table's opening: the checkbox that shows the harness's steps (when there are any before
/// the last), and a heading per thread.
std::string table_start(const SwimlaneTable& table, const std::string& anchor) {
  std::size_t harness = 0;
  for (std::size_t i = 0; i + 1 < table.steps.size(); ++i) {
    if (table.steps[i].bookkeeping) ++harness;
  }
  std::string out = "<div class=\"lanes\">";
  if (harness != 0) {
    out +=
        concat("<input type=\"checkbox\" class=\"show-harness\" id=\"", anchor,
               "-all\"> <label for=\"", anchor, "-all\">Show the harness's ",
               std::to_string(harness), " steps (task resumes, scenario counters, exits)</label>");
  }
  out += "<table class=\"swimlane\"><thead><tr><th>step</th>";
  for (const auto& t : table.threads) out += concat("<th>", escape_html(t), "</th>");
  out += "<th>where</th></tr></thead><tbody>";
  return out;
}

}  // namespace

std::string swimlane_html(const SwimlaneTable& table, const std::string& anchor,
                          const std::string& breach) {
  std::string out = table_start(table, anchor);
  LaneRows rows(table, out);
  // The primitive's steps before the last (and lines that do not parse, which break runs):
  // blocks of them that repeat are drawn once, their copies as one row.
  std::vector<std::size_t> shown;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i + 1 < table.steps.size(); ++i) {
    const auto& s = table.steps[i];
    if (s.parsed && s.bookkeeping) continue;
    shown.push_back(i);
    keys.push_back(s.parsed ? concat(s.thread, " ", s.text, " ", s.where) : std::string());
  }
  const std::vector<Repeat> repeats = find_repeats(keys);
  std::size_t next_repeat = 0;
  std::size_t row = 0;  // shown steps drawn or folded so far
  for (std::size_t i = 0; i < table.steps.size(); ++i) {
    const auto& s = table.steps[i];
    if (row < shown.size() && shown[row] == i) {
      if (next_repeat < repeats.size() &&
          row == repeats[next_repeat].first + repeats[next_repeat].period) {
        const Repeat& r = repeats[next_repeat++];
        const std::size_t end = row + r.period * r.more;
        rows.repeat(r, s.step, table.steps[shown[end - 1]].step);
        row = end;
        i = shown[end - 1];
        continue;
      }
      ++row;
    }
    if (i + 1 == table.steps.size()) {
      rows.breach_step(s, anchor, breach);
    } else if (s.parsed && s.bookkeeping) {
      rows.harness_step(s);
    } else {
      rows.step(s);
    }
  }
  rows.finish();
  out +=
      "</tbody></table><p class=\"legend\">* a context switch (another thread ran than the step "
      "before); &rArr; the step where the property broke.</p></div>";
  return out;
}

}  // namespace syncstress::report
