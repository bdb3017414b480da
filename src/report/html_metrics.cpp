#include "report/html_metrics.hpp"

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "report/html_charts.hpp"
#include "report/html_text.hpp"
#include "report/report.hpp"
#include "report/typed_report.hpp"
#include "util/concat.hpp"

namespace syncstress::report {
namespace {

using nlohmann::json;

std::optional<double> number_of(const json& object, const char* key) {
  const json& v = field(object, key);
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

std::string tile(const std::string& value, const std::string& label) {
  return concat("<div class=\"tile\"><b>", escape_html(value), "</b><span>", escape_html(label),
                "</span></div>");
}

/// The headline figures: the cell's own counts, then the family's metrics that say most.
std::string tiles_of(const CellResult& cell) {
  const json& metrics = cell.metrics;
  const json& stress = field(metrics, "stress");
  std::string shown = format_number(static_cast<double>(cell.executions));
  if (cell.planned_executions != cell.executions) {
    shown += concat(" of ", format_number(static_cast<double>(cell.planned_executions)));
  }
  std::string tiles = tile(shown, stress.is_object() ? "trials" : "executions");
  tiles += tile(format_number(static_cast<double>(cell.steps)), "steps");
  tiles += tile(format_seconds(cell.elapsed_seconds), "time");
  tiles += tile(std::string(to_string(cell.stopped_by)), "stopped by");
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
  return tiles;
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

/// A wait's histogram buckets ([lower ns, count] pairs), the pairs of two numbers among them.
std::vector<HistogramColumn> histogram_columns(const json& buckets) {
  std::vector<HistogramColumn> columns;
  for (const auto& b : buckets) {
    if (b.is_array() && b.size() == 2 && b[0].is_number() && b[1].is_number()) {
      columns.push_back({b[0].get<double>(), b[1].get<double>()});
    }
  }
  return columns;
}

/// The simulated search's charts: the wait in steps, the executions breaking each property.
std::string sim_charts(const json& metrics) {
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
  return charts;
}

/// The charts of a run on real threads: acquisitions per actor, each wait's percentiles and
/// histogram.
std::string stress_charts(const json& stress) {
  std::string charts;
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
                          histogram_columns(buckets));
    }
  }
  return charts;
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

/// The folded table of every parameter and metric; nothing when there are none.
std::string metrics_table(const CellResult& cell) {
  std::vector<std::pair<std::string, std::string>> rows;
  flatten_metrics(cell.metrics, "", rows);
  if (rows.empty() && cell.parameters.empty()) return "";
  std::string out =
      "<details><summary>Parameters and all metrics</summary><table class=\"metrics\">";
  for (const auto& [key, value] : cell.parameters) {
    out += concat("<tr><td>parameter ", escape_html(key), "</td><td class=\"mono\">",
                  escape_html(value), "</td></tr>");
  }
  for (const auto& [key, value] : rows) {
    out += concat("<tr><td>", escape_html(key), "</td><td class=\"mono\">", escape_html(value),
                  "</td></tr>");
  }
  out += "</table></details>";
  return out;
}

}  // namespace

std::string cell_metrics_html(const CellResult& cell) {
  const std::string tiles = tiles_of(cell);
  const std::string charts =
      concat(sim_charts(cell.metrics), stress_charts(field(cell.metrics, "stress")));
  std::string out = concat("<div class=\"tiles\">", tiles, "</div>");
  if (!charts.empty()) out += concat("<div class=\"charts\">", charts, "</div>");
  out += metrics_table(cell);
  return out;
}

}  // namespace syncstress::report
