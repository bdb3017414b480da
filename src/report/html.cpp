// The page's frame: its head, the summary, the context, the cell table and each cell in
// detail. The style sheet and script (html_assets), the charts (html_charts), a cell's figures
// (html_metrics) and a violation's section (html_violation) each have a file of their own.
#include "report/html.hpp"

#include <map>
#include <string_view>

#include "report/html_assets.hpp"
#include "report/html_metrics.hpp"
#include "report/html_text.hpp"
#include "report/report.hpp"
#include "util/concat.hpp"

namespace syncstress::report {
namespace {

using nlohmann::json;

/// The verdicts in the order the summary counts them.
constexpr Verdict kSummaryOrder[] = {Verdict::pass,         Verdict::fail,        Verdict::measured,
                                     Verdict::inconclusive, Verdict::interrupted, Verdict::error};

std::string badge(Verdict verdict) {
  const std::string_view name = to_string(verdict);
  return concat("<span class=\"badge v-", name, "\">", escape_html(name), "</span>");
}

/// A name = value list of a JSON object (the context and config blocks).
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

/// "syncstress report", with the scenario run or how many.
std::string title_of(const RunOfReport& run) {
  std::string title = "syncstress report";
  if (run.scenarios.size() == 1) {
    title += concat(": ", run.scenarios.front());
  } else if (run.scenarios.size() > 1) {
    title += concat(": ", std::to_string(run.scenarios.size()), " scenarios");
  }
  return title;
}

/// What the page counts of the report's cells.
struct Counts {
  std::map<Verdict, std::size_t> by_verdict;
  std::size_t violations = 0;
};

Counts counts_of(const std::vector<CellResult>& cells) {
  Counts counts;
  for (const auto& cell : cells) {
    ++counts.by_verdict[cell.verdict];
    counts.violations += cell.violations.size();
  }
  return counts;
}

/// The document up to the opening <body>.
std::string page_start(const std::string& title) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      // Nothing may be fetched: the page is all there is.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">";
  out +=
      concat("<title>", escape_html(title), "</title><style>", kPageStyle, "</style></head><body>");
  return out;
}

/// The title and the summary: cells and violations, a badge per verdict with its count, and
/// how far an interrupted run got.
std::string page_header(const std::string& title, const TypedReport& report, const Counts& counts) {
  const std::size_t cells = report.cells.size();
  std::string out = concat("<header><h1>", escape_html(title), "</h1><p class=\"summary\">",
                           std::to_string(cells), " cell", cells == 1 ? "" : "s", ", ",
                           std::to_string(counts.violations), " violation",
                           counts.violations == 1 ? "" : "s", ": ");
  for (const Verdict verdict : kSummaryOrder) {
    if (const auto it = counts.by_verdict.find(verdict); it != counts.by_verdict.end()) {
      out += concat(badge(verdict), std::to_string(it->second), " ");
    }
  }
  if (const auto& by = report.run.interrupted_by) {
    const auto& planned = report.run.cells_planned;
    out += concat("<br>interrupted by ", escape_html(*by), " after ", std::to_string(cells), " of ",
                  escape_html(planned ? format_number(static_cast<double>(*planned)) : "none"),
                  " cells");
  }
  out += "</p></header>";
  return out;
}

/// The controls the script shows above the cell table: a checkbox per verdict present (by
/// name), and buttons that open or close every cell.
std::string table_controls(const Counts& counts) {
  std::map<std::string_view, Verdict> by_name;
  for (const auto& [verdict, count] : counts.by_verdict)
    by_name.emplace(to_string(verdict), verdict);
  std::string out = concat("<h2>Cells</h2><div class=\"controls\" id=\"verdict-filter\" hidden>",
                           "<span>Show verdicts:</span>");
  for (const auto& [name, verdict] : by_name) {
    out += concat("<label><input type=\"checkbox\" value=\"", escape_html(name), "\" checked> ",
                  badge(verdict), " ", std::to_string(counts.by_verdict.at(verdict)), "</label>");
  }
  out +=
      "</div><div class=\"controls\" id=\"fold-controls\" hidden><button type=\"button\" "
      "data-fold=\"open\">Expand every cell</button><button type=\"button\" "
      "data-fold=\"close\">Collapse every cell</button></div>";
  return out;
}

/// The cell's first violation in one line ("property: message"), or its error.
std::string first_violation(const CellResult& cell) {
  if (cell.violations.empty()) return cell.error;
  const Violation& v = cell.violations.front();
  const std::string message = v.message.substr(0, v.message.find('\n'));
  return message.rfind(v.property + ":", 0) == 0 ? message : concat(v.property, ": ", message);
}

/// A number column of the table, sorted by `value`.
std::string number_column(double value, const std::string& shown) {
  return concat("<td class=\"num\" data-sort=\"", format_number(value), "\">", escape_html(shown),
                "</td>");
}

/// Cell `number`'s row of the table; its violations are numbered from `first_violation_number`.
std::string table_row(const CellResult& cell, std::size_t number,
                      std::size_t first_violation_number) {
  const std::string_view verdict = to_string(cell.verdict);
  const std::string n = std::to_string(number);
  std::string out = concat(
      "<tr class=\"cell-row filterable\" data-verdict=\"", escape_html(verdict),
      "\"><td class=\"num\" data-sort=\"", n, "\"><a href=\"#cell-", n, "\">", n,
      "</a></td><td class=\"name\">", escape_html(cell.primitive), "</td><td class=\"name\">",
      escape_html(cell.scenario), "</td><td class=\"mono\">", escape_html(cell.schedule),
      "</td><td data-sort=\"", escape_html(verdict), "\">", badge(cell.verdict),
      cell.verdict == Verdict::pass && search_incomplete(cell.metrics) ? " (search incomplete)"
                                                                       : "",
      "</td>");
  const auto executions = static_cast<double>(cell.executions);
  const auto steps = static_cast<double>(cell.steps);
  out += number_column(executions, format_number(executions));
  out += number_column(steps, format_number(steps));
  out += number_column(cell.elapsed_seconds, format_seconds(cell.elapsed_seconds));
  const std::size_t count = cell.violations.size();
  out += concat("<td class=\"num\" data-sort=\"", std::to_string(count), "\">");
  if (count != 0) {
    out += concat("<a href=\"#violation-", std::to_string(first_violation_number), "\">",
                  std::to_string(count), "</a>");
  } else {
    out += "0";
  }
  out += concat("</td><td class=\"first\">", escape_html(first_violation(cell)), "</td></tr>");
  return out;
}

/// The table of the cells, a row each.
std::string cell_table(const std::vector<CellResult>& cells) {
  std::string out =
      concat("<table class=\"cells\" id=\"cells\" data-cells=\"", std::to_string(cells.size()),
             "\"><thead><tr><th data-type=\"number\">#</th><th>primitive</th><th>scenario</th>"
             "<th>schedule</th><th>verdict</th><th data-type=\"number\">executions</th>"
             "<th data-type=\"number\">steps</th><th data-type=\"number\">time</th>"
             "<th data-type=\"number\">violations</th><th>first violation</th></tr></thead>"
             "<tbody>");
  std::size_t violations_before = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    out += table_row(cells[i], i + 1, violations_before + 1);
    violations_before += cells[i].violations.size();
  }
  out += "</tbody></table>";
  if (cells.empty()) out += "<p class=\"muted\">The report has no cells.</p>";
  return out;
}

/// Cell `number` in detail, open when it has something to show: its error, its figures and its
/// violations, numbered from `violations_before + 1` (their traces in `traces` at the same
/// places, counted from 0).
std::string cell_details(const CellResult& cell, std::size_t number, std::size_t violations_before,
                         const std::vector<ViolationTrace>& traces) {
  const bool open = !cell.violations.empty() || !cell.error.empty();
  std::string out =
      concat("<details class=\"cell filterable\" id=\"cell-", std::to_string(number),
             "\" data-verdict=\"", escape_html(to_string(cell.verdict)), "\"", open ? " open" : "",
             "><summary>", std::to_string(number), ". ", escape_html(cell.primitive), " &times; ",
             escape_html(cell.scenario), " <span class=\"mono\">[", escape_html(cell.schedule),
             "]</span> ", badge(cell.verdict), "</summary>");
  if (!cell.error.empty()) {
    out += concat("<p class=\"message\"><b>error:</b> ", escape_html(cell.error), "</p>");
  }
  out += cell_metrics_html(cell);
  std::size_t index = violations_before;
  for (const auto& v : cell.violations) {
    const ViolationTrace* trace = index < traces.size() ? &traces[index] : nullptr;
    ++index;
    out += violation_html(v, index, trace);
  }
  out += "</details>";
  return out;
}

}  // namespace

std::string render_html(const TypedReport& report, const std::vector<ViolationTrace>& traces) {
  const std::string title = title_of(report.run);
  const Counts counts = counts_of(report.cells);
  std::string out = page_start(title);
  out += page_header(title, report, counts);
  out += concat("<h2>Context</h2>", definition_list(report.context),
                "<details><summary>Run configuration</summary>", definition_list(report.config),
                "</details>");
  out += table_controls(counts);
  out += cell_table(report.cells);
  out += "<h2>Cells in detail</h2>";
  std::size_t violations_before = 0;
  for (std::size_t i = 0; i < report.cells.size(); ++i) {
    out += cell_details(report.cells[i], i + 1, violations_before, traces);
    violations_before += report.cells[i].violations.size();
  }
  out += concat(
      "<footer>Written by syncstress from a ", escape_html(kReportSchema),
      " report. Self-contained: nothing on this page is loaded from anywhere. Without "
      "JavaScript every part shows; with it the table sorts (click a heading) and filters by "
      "verdict.</footer><script>",
      kPageScript, "</script></body></html>\n");
  return out;
}

}  // namespace syncstress::report
