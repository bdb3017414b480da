#include "report/html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>
#include <utility>

#include "report/html_assets.hpp"
#include "report/markup.hpp"
#include "report/report.hpp"
#include "util/concat.hpp"

namespace syncstress::report {

using nlohmann::json;

std::string escape_html(std::string_view text) {
  // U+FFFD for a control character: it has no place in a page.
  return escape_markup(text, {"&#39;", "\xEF\xBF\xBD", /*del_too=*/true});
}

namespace {

// --- Reading the report: every field check_report does not check may be anything ----------

const json& field(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string text_of(const json& object, const char* key) {
  const json& v = field(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::optional<double> number_of(const json& object, const char* key) {
  const json& v = field(object, key);
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

// --- Numbers as people read them ----------------------------------------------------------

std::string format_number(double v) {
  char buf[64];
  if (!std::isfinite(v)) {
    std::snprintf(buf, sizeof buf, "%g", v);
  } else if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (std::fabs(v) < 10) {
    std::snprintf(buf, sizeof buf, "%.3f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  }
  return buf;
}

std::string format_seconds(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.2f s" : "%.1f s", s);
  return buf;
}

/// A JSON value in one line: strings as they are, arrays of scalars joined, the rest as JSON.
std::string format_value(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "none";
  if (v.is_array() && std::all_of(v.begin(), v.end(), [](const json& e) {
        return e.is_string() || e.is_number() || e.is_boolean();
      })) {
    std::string out;
    for (const auto& e : v) {
      if (!out.empty()) out += ' ';
      out += format_value(e);
    }
    return out;
  }
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// --- Inline SVG charts ----------------------------------------------------------------------

struct Bar {
  std::string label;
  double value = 0;
  std::string shown;  ///< the value as printed beside the bar
};

/// Horizontal bars, one per entry, with their values; on a log scale when the values span
/// orders of magnitude (wait times on real threads).
std::string bar_chart(const std::string& title, const std::vector<Bar>& bars, bool log_scale) {
  constexpr int kLabel = 150, kBarArea = 200, kRow = 20, kWidth = 420;
  constexpr std::size_t kMaxLabel = 24;
  double top = 0;
  const auto scaled = [&](double v) { return log_scale ? std::log10(1 + std::max(0.0, v)) : v; };
  for (const auto& b : bars) top = std::max(top, scaled(b.value));
  const int height = kRow * static_cast<int>(bars.size()) + 6;
  std::string out =
      concat("<figure class=\"chart\"><figcaption>", escape_html(title),
             log_scale ? " <span class=\"scale\">(log scale)</span>" : "",
             "</figcaption><svg width=\"", std::to_string(kWidth), "\" height=\"",
             std::to_string(height), "\" viewBox=\"0 0 ", std::to_string(kWidth), " ",
             std::to_string(height), "\" role=\"img\" aria-label=\"", escape_html(title), "\">");
  int y = 3;
  for (const auto& b : bars) {
    const double fraction = top > 0 ? scaled(b.value) / top : 0;
    // A long label is cut (its whole text is in the bar's tooltip).
    const std::string short_label =
        b.label.size() > kMaxLabel ? concat(b.label.substr(0, kMaxLabel - 1), "~") : b.label;
    const int w = std::max(b.value > 0 ? 1 : 0, static_cast<int>(std::lround(fraction * kBarArea)));
    out += concat("<text x=\"", std::to_string(kLabel - 6), "\" y=\"", std::to_string(y + 13),
                  "\" text-anchor=\"end\">", escape_html(short_label),
                  "</text><rect class=\"bar\" x=\"", std::to_string(kLabel), "\" y=\"",
                  std::to_string(y + 2), "\" width=\"", std::to_string(w),
                  "\" height=\"14\"><title>", escape_html(b.label), ": ", escape_html(b.shown),
                  "</title></rect><text x=\"", std::to_string(kLabel + w + 4), "\" y=\"",
                  std::to_string(y + 13), "\">", escape_html(b.shown), "</text>");
    y += kRow;
  }
  out += "</svg></figure>";
  return out;
}

/// "%.2f" of `v`, for SVG coordinates.
std::string coordinate(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

/// A histogram of a stress wait: `buckets` holds the non-empty buckets as [lower ns, count]
/// pairs, eight buckets per power of two. Time runs on a log axis (a bucket's column where its
/// lower bound falls), counts on a log scale too, so that the tail shows beside the mode.
std::string histogram(const std::string& title, const json& buckets) {
  std::vector<std::pair<double, double>> columns;
  for (const auto& b : buckets) {
    if (b.is_array() && b.size() == 2 && b[0].is_number() && b[1].is_number() &&
        b[0].get<double>() >= 1 && b[1].get<double>() > 0) {
      columns.emplace_back(b[0].get<double>(), b[1].get<double>());
    }
  }
  if (columns.empty()) return "";
  constexpr int kWidth = 420, kPlot = 110, kLeft = 10;
  constexpr double kBucketsPerOctave = 8;
  double top = 0;
  for (const auto& c : columns) top = std::max(top, std::log10(1 + c.second));
  const double first = std::log2(columns.front().first);
  const double last = std::log2(columns.back().first) + 1 / kBucketsPerOctave;
  const double span = std::max(last - first, 1 / kBucketsPerOctave);
  const double usable = kWidth - 2 * kLeft;
  const auto x_of = [&](double ns) { return kLeft + (std::log2(ns) - first) / span * usable; };
  const double column_width = std::max(usable / (span * kBucketsPerOctave) - 0.5, 0.8);
  std::string out =
      concat("<figure class=\"chart\"><figcaption>", escape_html(title),
             " <span class=\"scale\">(log time, log count)</span></figcaption>", "<svg width=\"",
             std::to_string(kWidth), "\" height=\"", std::to_string(kPlot + 24),
             "\" viewBox=\"0 0 ", std::to_string(kWidth), " ", std::to_string(kPlot + 24),
             "\" role=\"img\" aria-label=\"", escape_html(title), "\">");
  for (const auto& [lower, count] : columns) {
    const double h = std::max(1.0, top > 0 ? std::log10(1 + count) / top * kPlot : 0);
    out += concat("<rect class=\"bar\" x=\"", coordinate(x_of(lower)), "\" y=\"",
                  coordinate(kPlot - h), "\" width=\"", coordinate(column_width), "\" height=\"",
                  coordinate(h), "\"><title>from ", escape_html(format_ns(lower)), ": ",
                  format_number(count), "</title></rect>");
  }
  out +=
      concat("<line class=\"axis\" x1=\"", std::to_string(kLeft), "\" y1=\"", std::to_string(kPlot),
             "\" x2=\"", std::to_string(kWidth - kLeft), "\" y2=\"", std::to_string(kPlot), "\"/>");
  // A tick at every power of ten inside the range.
  constexpr const char* kDecades[] = {"1 ns", "10 ns", "100 ns", "1 us", "10 us", "100 us",
                                      "1 ms", "10 ms", "100 ms", "1 s",  "10 s",  "100 s"};
  double decade = 1;
  for (const char* label : kDecades) {
    const double x = x_of(decade);
    decade *= 10;
    if (x < kLeft - 0.01 || x > kWidth - kLeft + 0.01) continue;
    out += concat("<line class=\"axis\" x1=\"", coordinate(x), "\" y1=\"", std::to_string(kPlot),
                  "\" x2=\"", coordinate(x), "\" y2=\"", std::to_string(kPlot + 4),
                  "\"/><text x=\"", coordinate(x), "\" y=\"", std::to_string(kPlot + 16),
                  "\" text-anchor=\"middle\">", label, "</text>");
  }
  out += "</svg></figure>";
  return out;
}

/// The percentiles of a wait object ({p50, p90, p99, p999, max}) as bars.
std::vector<Bar> percentile_bars(const json& wait, bool nanoseconds) {
  std::vector<Bar> bars;
  for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
           {"p50", "p50"}, {"p90", "p90"}, {"p99", "p99"}, {"p999", "p99.9"}, {"max", "max"}}) {
    if (const auto v = number_of(wait, key)) {
      bars.push_back({label, *v, nanoseconds ? format_ns(*v) : format_number(*v)});
    }
  }
  return bars;
}

// --- The page's parts -----------------------------------------------------------------------

constexpr std::string_view kVerdicts[] = {"pass",         "fail",        "measured",
                                          "inconclusive", "interrupted", "error"};

std::string verdict_class(const std::string& verdict) {
  for (const auto v : kVerdicts) {
    if (verdict == v) return concat("v-", verdict);
  }
  return "v-unknown";
}

std::string badge(const std::string& verdict) {
  return concat("<span class=\"badge ", verdict_class(verdict), "\">", escape_html(verdict),
                "</span>");
}

/// A name=value block of a JSON object (the context and config blocks).
std::string definition_list(const json& object) {
  if (!object.is_object() || object.empty()) return "<p class=\"muted\">none</p>";
  std::string out = "<dl class=\"context\">";
  for (const auto& [key, value] : object.items()) {
    out += concat("<dt>", escape_html(key), "</dt><dd class=\"mono\">",
                  escape_html(format_value(value)), "</dd>");
  }
  out += "</dl>";
  return out;
}

/// Every metric in one line each, nested objects as dotted names; histogram buckets and long
/// arrays (drawn above) as a count.
void flatten_metrics(const json& value, const std::string& name,
                     std::vector<std::pair<std::string, std::string>>& rows) {
  if (value.is_object()) {
    for (const auto& [key, inner] : value.items()) {
      flatten_metrics(inner, name.empty() ? key : concat(name, ".", key), rows);
    }
    return;
  }
  if (value.is_array() && value.size() > 16) {
    rows.emplace_back(name, concat(std::to_string(value.size()), " values (drawn above)"));
    return;
  }
  rows.emplace_back(name, format_value(value));
}

std::string tile(const std::string& value, const std::string& label) {
  return concat("<div class=\"tile\"><b>", escape_html(value), "</b><span>", escape_html(label),
                "</span></div>");
}

/// The figures of a cell: headline tiles, charts, then every metric in a folded table.
std::string cell_metrics(const json& cell) {
  const json& metrics = field(cell, "metrics");
  const json& stress = field(metrics, "stress");
  std::string tiles;
  const auto executions = number_of(cell, "executions");
  const auto planned = number_of(cell, "planned_executions");
  if (executions) {
    std::string shown = format_number(*executions);
    if (planned && *planned != *executions) shown += concat(" of ", format_number(*planned));
    tiles += tile(shown, stress.is_object() ? "trials" : "executions");
  }
  if (const auto steps = number_of(cell, "steps")) tiles += tile(format_number(*steps), "steps");
  if (const auto s = number_of(cell, "elapsed_seconds")) tiles += tile(format_seconds(*s), "time");
  if (const std::string by = text_of(cell, "stopped_by"); !by.empty())
    tiles += tile(by, "stopped by");
  if (const auto& complete = field(metrics, "search_complete"); complete.is_boolean()) {
    tiles += tile(complete.get<bool>() ? "yes" : "no", "search complete");
  }
  for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
           {"acquisitions", "acquisitions"},
           {"bypasses", "bypasses (starvation)"},
           {"max_bypassed_in_one_wait", "most bypasses in one wait"},
           {"fifo_violations", "FIFO violations"},
           {"jain_fairness_index", "Jain's fairness index"},
           {"cancelled", "cancelled"},
           {"cancel_refused", "cancellations refused"},
           {"items_processed", "items processed"}}) {
    if (const auto v = number_of(metrics, key)) tiles += tile(format_number(*v), label);
  }
  if (const auto v = number_of(stress, "acquisitions_per_second")) {
    tiles += tile(format_number(std::round(*v)), "acquisitions/s (real threads)");
  }
  if (const auto v = number_of(stress, "items_per_second")) {
    tiles += tile(format_number(std::round(*v)), "items/s (real threads)");
  }
  if (const auto v = number_of(stress, "jain_fairness_index")) {
    tiles += tile(format_number(*v), "Jain's index (real threads)");
  }

  std::string charts;
  if (const json& wait = field(metrics, "wait_steps"); wait.is_object()) {
    const auto bars = percentile_bars(wait, false);
    if (!bars.empty()) charts += bar_chart("Wait to acquire, in scheduling steps", bars, false);
  }
  if (const json& breaking = field(metrics, "executions_breaking");
      breaking.is_object() && !breaking.empty()) {
    std::vector<Bar> bars;
    for (const auto& [property, count] : breaking.items()) {
      if (count.is_number()) {
        bars.push_back({property, count.get<double>(), format_number(count.get<double>())});
      }
    }
    if (!bars.empty()) charts += bar_chart("Executions breaking each property", bars, false);
  }
  if (const json& per_actor = field(stress, "acquisitions_per_actor"); per_actor.is_array()) {
    std::vector<Bar> bars;
    for (std::size_t i = 0; i < per_actor.size(); ++i) {
      if (per_actor[i].is_number()) {
        const double v = per_actor[i].get<double>();
        bars.push_back({concat("actor ", std::to_string(i)), v, format_number(v)});
      }
    }
    if (!bars.empty()) charts += bar_chart("Acquisitions per actor (real threads)", bars, false);
  }
  for (const auto& [key, label] :
       std::vector<std::pair<const char*, const char*>>{{"wait_ns", "Wait to acquire"},
                                                        {"writer_wait_ns", "Writers' wait"},
                                                        {"reader_wait_ns", "Readers' wait"},
                                                        {"victim_wait_ns", "Victims' wait"},
                                                        {"stream_wait_ns", "Stream's wait"}}) {
    const json& wait = field(stress, key);
    if (!wait.is_object()) continue;
    const auto bars = percentile_bars(wait, true);
    if (!bars.empty()) charts += bar_chart(concat(label, " (real threads)"), bars, true);
    if (const json& buckets = field(wait, "buckets"); buckets.is_array()) {
      charts += histogram(concat(label, ": histogram (",
                                 format_number(number_of(wait, "count").value_or(0)), " waits)"),
                          buckets);
    }
  }

  std::string out;
  if (!tiles.empty()) out += concat("<div class=\"tiles\">", tiles, "</div>");
  if (!charts.empty()) out += concat("<div class=\"charts\">", charts, "</div>");
  std::vector<std::pair<std::string, std::string>> rows;
  flatten_metrics(metrics, "", rows);
  const json& parameters = field(cell, "parameters");
  if (!rows.empty() || (parameters.is_object() && !parameters.empty())) {
    out += "<details><summary>Parameters and all metrics</summary><table class=\"metrics\">";
    if (parameters.is_object()) {
      for (const auto& [key, value] : parameters.items()) {
        out += concat("<tr><td>parameter ", escape_html(key), "</td><td class=\"mono\">",
                      escape_html(format_value(value)), "</td></tr>");
      }
    }
    for (const auto& [key, value] : rows) {
      out += concat("<tr><td>", escape_html(key), "</td><td class=\"mono\">", escape_html(value),
                    "</td></tr>");
    }
    out += "</table></details>";
  }
  return out;
}

/// A sim execution as an HTML table: a column per thread, a row per step; the harness's
/// steps hidden behind a checkbox (CSS only) with a row saying how many; the last step, where
/// the property broke, in a tbody with the class "breach" and the id `<anchor>-breach`, the
/// property's message under it.
std::string swimlane_html(const SwimlaneTable& table, const std::string& anchor,
                          const std::string& breach) {
  const std::size_t columns = table.threads.size() + 2;
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
  std::size_t folded = 0;
  const auto flush = [&] {
    if (folded == 0) return;
    out += concat("<tr class=\"folded\"><td></td><td colspan=\"", std::to_string(columns - 1),
                  "\">", std::to_string(folded), " harness step", folded == 1 ? "" : "s",
                  " folded</td></tr>");
    folded = 0;
  };
  std::string last_shown;  // the thread of the last step shown with the harness's folded
  const auto row = [&](const SwimlaneStep& s, bool harness_step, bool last) {
    if (!s.parsed) {
      out += concat("<tr class=\"raw\"><td colspan=\"", std::to_string(columns), "\">",
                    escape_html(s.text), "</td></tr>");
      return;
    }
    // A switch: another thread ran the step before, or (the harness's steps folded) the
    // primitive's step shown before.
    const bool switched =
        s.switched || (!harness_step && !last_shown.empty() && s.thread != last_shown);
    if (!harness_step) last_shown = s.thread;
    std::string classes = "step";
    if (harness_step) classes += " harness";
    if (switched) classes += " switch";
    out += concat("<tr class=\"", classes, "\"><td class=\"n\">",
                  last       ? "&rArr; "
                  : switched ? "* "
                             : "",
                  escape_html(s.step), "</td>");
    for (const auto& t : table.threads) {
      out += t == s.thread ? concat("<td class=\"lane op\">", escape_html(s.text), "</td>")
                           : std::string("<td class=\"lane\"></td>");
    }
    out += concat("<td class=\"where\">", escape_html(s.where), "</td></tr>");
  };
  for (std::size_t i = 0; i < table.steps.size(); ++i) {
    const auto& s = table.steps[i];
    const bool last = i + 1 == table.steps.size();
    // The harness's steps are there, hidden by the style sheet until the checkbox shows them;
    // a row after each run of them says how many.
    if (s.parsed && s.bookkeeping && !last) {
      ++folded;
      row(s, true, false);
      continue;
    }
    flush();
    if (!last) {
      row(s, false, false);
      continue;
    }
    // The breach: a tbody of its own, the step and the property's message under it.
    out += concat("</tbody><tbody class=\"breach\" id=\"", anchor, "-breach\">");
    row(s, false, true);
    if (!breach.empty()) {
      out += concat("<tr class=\"breach-note\"><td></td><td class=\"breach-message\" colspan=\"",
                    std::to_string(columns - 1), "\">&rArr; ", escape_html(breach), "</td></tr>");
    }
  }
  flush();
  out +=
      "</tbody></table><p class=\"legend\">* a context switch (another thread ran than the step "
      "before); &rArr; the step where the property broke.</p></div>";
  return out;
}

std::string violation_html(const json& v, std::size_t number, const ViolationTrace* trace) {
  const std::string anchor = concat("violation-", std::to_string(number));
  const std::string property = text_of(v, "property");
  const std::string message = text_of(v, "message");
  const std::string schedule = text_of(v, "schedule");
  const std::string command = text_of(v, "replay_command");
  std::string out = concat("<section class=\"violation\" id=\"", anchor, "\"><h4>Violation ",
                           std::to_string(number), ": ", escape_html(property), "</h4>");
  out += concat("<p class=\"message\">", escape_html(message), "</p>");
  out += "<dl class=\"context\">";
  if (const json& seed = field(v, "seed"); seed.is_number()) {
    out += concat("<dt>seed</dt><dd class=\"mono\">", escape_html(seed.dump()), "</dd>");
  }
  if (!schedule.empty()) {
    out += concat("<dt>schedule</dt><dd class=\"mono\">", escape_html(schedule), "</dd>");
  }
  // Whatever else the report says of it (preemptions, what shrinking started from, ...).
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      if (key == "property" || key == "message" || key == "seed" || key == "schedule" ||
          key == "replay_command" || key == "trace") {
        continue;
      }
      out += concat("<dt>", escape_html(key), "</dt><dd class=\"mono\">",
                    escape_html(format_value(value)), "</dd>");
    }
  }
  out += "</dl>";
  if (!command.empty()) {
    // A trial on real threads has no schedule: its command is the sim search to try next.
    out += concat("<div class=\"command\"><span class=\"label\">",
                  schedule.empty() ? "try next:" : "replay:", "</span><pre><code id=\"", anchor,
                  "-command\">", escape_html(command), "</code></pre><button type=\"button\" ",
                  "class=\"copy\" data-copy=\"", anchor, "-command\" hidden>Copy</button></div>");
  }
  if (trace != nullptr && !trace->note.empty()) {
    out += concat("<p class=\"muted\">", escape_html(trace->note), "</p>");
  }
  if (trace != nullptr && trace->lanes) {
    out += swimlane_html(*trace->lanes, anchor, concat(property, ": ", message));
  } else if (const json& lines = field(v, "trace"); lines.is_array() && !lines.empty()) {
    out += "<pre class=\"trace\">";
    for (const auto& line : lines) {
      out += escape_html(line.is_string() ? line.get<std::string>() : line.dump());
      out += '\n';
    }
    out += "</pre>";
  }
  out += "</section>";
  return out;
}

std::string first_violation(const json& cell) {
  const json& violations = field(cell, "violations");
  if (!violations.is_array() || violations.empty()) return text_of(cell, "error");
  const std::string property = text_of(violations[0], "property");
  std::string message = text_of(violations[0], "message");
  message = message.substr(0, message.find('\n'));
  return message.rfind(property + ":", 0) == 0 ? message : concat(property, ": ", message);
}

}  // namespace

std::string render_html(const json& report, const std::vector<ViolationTrace>& traces) {
  const json& cells = field(report, "cells");
  const json& context = field(report, "context");
  const json& summary = field(report, "summary");
  const std::size_t cell_count = cells.is_array() ? cells.size() : 0;

  std::map<std::string, std::size_t> by_verdict;
  std::size_t violation_count = 0;
  for (const auto& cell : cells) {
    ++by_verdict[text_of(cell, "verdict")];
    const json& v = field(cell, "violations");
    if (v.is_array()) violation_count += v.size();
  }
  std::string title = "syncstress report";
  const auto scenarios = field(field(report, "config"), "scenarios");
  if (scenarios.is_array() && scenarios.size() == 1 && scenarios[0].is_string()) {
    title += concat(": ", scenarios[0].get<std::string>());
  } else if (scenarios.is_array() && scenarios.size() > 1) {
    title += concat(": ", std::to_string(scenarios.size()), " scenarios");
  }

  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      // Nothing may be fetched: the page is all there is.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">";
  out +=
      concat("<title>", escape_html(title), "</title><style>", kPageStyle, "</style></head><body>");
  out +=
      concat("<header><h1>", escape_html(title), "</h1><p class=\"summary\">",
             std::to_string(cell_count), " cell", cell_count == 1 ? "" : "s", ", ",
             std::to_string(violation_count), " violation", violation_count == 1 ? "" : "s", ": ");
  for (const auto verdict : kVerdicts) {
    const auto it = by_verdict.find(std::string(verdict));
    if (it != by_verdict.end()) {
      out += concat(badge(std::string(verdict)), std::to_string(it->second), " ");
    }
  }
  if (const json& by = field(summary, "interrupted_by"); by.is_string()) {
    out += concat("<br>interrupted by ", escape_html(by.get<std::string>()), " after ",
                  std::to_string(cell_count), " of ",
                  escape_html(format_value(field(summary, "cells_planned"))), " cells");
  }
  out += "</p></header>";

  out += concat("<h2>Context</h2>", definition_list(context),
                "<details><summary>Run configuration</summary>",
                definition_list(field(report, "config")), "</details>");

  // The cell table.
  out += concat("<h2>Cells</h2><div class=\"controls\" id=\"verdict-filter\" hidden>",
                "<span>Show verdicts:</span>");
  for (const auto& [verdict, count] : by_verdict) {
    out += concat("<label><input type=\"checkbox\" value=\"", escape_html(verdict), "\" checked> ",
                  badge(verdict), " ", std::to_string(count), "</label>");
  }
  out +=
      "</div><div class=\"controls\" id=\"fold-controls\" hidden><button type=\"button\" "
      "data-fold=\"open\">Expand every cell</button><button type=\"button\" "
      "data-fold=\"close\">Collapse every cell</button></div>";
  out += concat("<table class=\"cells\" id=\"cells\" data-cells=\"", std::to_string(cell_count),
                "\"><thead><tr><th data-type=\"number\">#</th><th>primitive</th><th>scenario</th>"
                "<th>schedule</th><th>verdict</th><th data-type=\"number\">executions</th>"
                "<th data-type=\"number\">steps</th><th data-type=\"number\">time</th>"
                "<th data-type=\"number\">violations</th><th>first violation</th></tr></thead>"
                "<tbody>");
  std::size_t number = 0;
  std::size_t violation_number = 0;
  for (const auto& cell : cells) {
    ++number;
    const std::string id = concat("cell-", std::to_string(number));
    const std::string verdict = text_of(cell, "verdict");
    const json& violations = field(cell, "violations");
    const std::size_t count = violations.is_array() ? violations.size() : 0;
    const auto num_cell = [](std::optional<double> v, const std::string& shown) {
      return concat("<td class=\"num\" data-sort=\"", v ? format_number(*v) : "0", "\">",
                    escape_html(shown), "</td>");
    };
    const auto executions = number_of(cell, "executions");
    const auto steps = number_of(cell, "steps");
    const auto elapsed = number_of(cell, "elapsed_seconds");
    out += concat("<tr class=\"cell-row filterable\" data-verdict=\"", escape_html(verdict),
                  "\"><td class=\"num\" data-sort=\"", std::to_string(number), "\"><a href=\"#", id,
                  "\">", std::to_string(number), "</a></td><td class=\"name\">",
                  escape_html(text_of(cell, "primitive")), "</td><td class=\"name\">",
                  escape_html(text_of(cell, "scenario")), "</td><td class=\"mono\">",
                  escape_html(text_of(cell, "schedule")), "</td><td data-sort=\"",
                  escape_html(verdict), "\">", badge(verdict), "</td>");
    out += num_cell(executions, executions ? format_number(*executions) : "");
    out += num_cell(steps, steps ? format_number(*steps) : "");
    out += num_cell(elapsed, elapsed ? format_seconds(*elapsed) : "");
    out += concat("<td class=\"num\" data-sort=\"", std::to_string(count), "\">");
    if (count != 0) {
      out += concat("<a href=\"#violation-", std::to_string(violation_number + 1), "\">",
                    std::to_string(count), "</a>");
    } else {
      out += "0";
    }
    out += concat("</td><td class=\"first\">", escape_html(first_violation(cell)), "</td></tr>");
    violation_number += count;
  }
  out += "</tbody></table>";
  if (cell_count == 0) out += "<p class=\"muted\">The report has no cells.</p>";

  // Each cell: its figures and its violations.
  out += "<h2>Cells in detail</h2>";
  number = 0;
  violation_number = 0;
  for (const auto& cell : cells) {
    ++number;
    const std::string verdict = text_of(cell, "verdict");
    const json& violations = field(cell, "violations");
    const bool has_violations = violations.is_array() && !violations.empty();
    const bool open = has_violations || !text_of(cell, "error").empty();
    out +=
        concat("<details class=\"cell filterable\" id=\"cell-", std::to_string(number),
               "\" data-verdict=\"", escape_html(verdict), "\"", open ? " open" : "", "><summary>",
               std::to_string(number), ". ", escape_html(text_of(cell, "primitive")), " &times; ",
               escape_html(text_of(cell, "scenario")), " <span class=\"mono\">[",
               escape_html(text_of(cell, "schedule")), "]</span> ", badge(verdict), "</summary>");
    if (const std::string error = text_of(cell, "error"); !error.empty()) {
      out += concat("<p class=\"message\"><b>error:</b> ", escape_html(error), "</p>");
    }
    out += cell_metrics(cell);
    if (has_violations) {
      for (const auto& v : violations) {
        const ViolationTrace* trace =
            violation_number < traces.size() ? &traces[violation_number] : nullptr;
        ++violation_number;
        out += violation_html(v, violation_number, trace);
      }
    }
    out += "</details>";
  }
  out += concat(
      "<footer>Written by syncstress from a ", escape_html(text_of(report, "schema")),
      " report. Self-contained: nothing on this page is loaded from anywhere. Without "
      "JavaScript every part shows; with it the table sorts (click a heading) and filters by "
      "verdict.</footer><script>",
      kPageScript, "</script></body></html>\n");
  return out;
}

}  // namespace syncstress::report
