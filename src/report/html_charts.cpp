#include "report/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "report/html_text.hpp"
#include "report/report.hpp"
#include "util/concat.hpp"

namespace syncstress::report {
namespace {

/// "%.2f" of `v`, for SVG coordinates.
std::string coordinate(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

/// A chart's frame up to its first shape: the caption (with `scale`, when not empty, beside the
/// title) and the opening <svg> of `width` x `height`.
std::string chart_start(const std::string& title, const char* scale, int width, int height) {
  return concat("<figure class=\"chart\"><figcaption>", escape_html(title), scale,
                "</figcaption><svg width=\"", std::to_string(width), "\" height=\"",
                std::to_string(height), "\" viewBox=\"0 0 ", std::to_string(width), " ",
                std::to_string(height), "\" role=\"img\" aria-label=\"", escape_html(title), "\">");
}

constexpr const char* kChartEnd = "</svg></figure>";

/// The histogram's horizontal axis: a line at `y` from `left` to `right`, and a tick with its
/// label at every power of ten of ns that `x_of` places inside it.
template <class XOf>
std::string time_axis(int left, int right, int y, const XOf& x_of) {
  std::string out =
      concat("<line class=\"axis\" x1=\"", std::to_string(left), "\" y1=\"", std::to_string(y),
             "\" x2=\"", std::to_string(right), "\" y2=\"", std::to_string(y), "\"/>");
  constexpr const char* kDecades[] = {"1 ns", "10 ns", "100 ns", "1 us", "10 us", "100 us",
                                      "1 ms", "10 ms", "100 ms", "1 s",  "10 s",  "100 s"};
  double decade = 1;
  for (const char* label : kDecades) {
    const double x = x_of(decade);
    decade *= 10;
    if (x < left - 0.01 || x > right + 0.01) continue;
    out += concat("<line class=\"axis\" x1=\"", coordinate(x), "\" y1=\"", std::to_string(y),
                  "\" x2=\"", coordinate(x), "\" y2=\"", std::to_string(y + 4), "\"/><text x=\"",
                  coordinate(x), "\" y=\"", std::to_string(y + 16), "\" text-anchor=\"middle\">",
                  label, "</text>");
  }
  return out;
}

}  // namespace

std::string bar_chart(const std::string& title, const std::vector<Bar>& bars, bool log_scale) {
  constexpr int kLabel = 150, kBarArea = 200, kRow = 20, kWidth = 420;
  constexpr std::size_t kMaxLabel = 24;
  double top = 0;
  const auto scaled = [&](double v) { return log_scale ? std::log10(1 + std::max(0.0, v)) : v; };
  for (const auto& b : bars) top = std::max(top, scaled(b.value));
  const int height = kRow * static_cast<int>(bars.size()) + 6;
  std::string out = chart_start(title, log_scale ? " <span class=\"scale\">(log scale)</span>" : "",
                                kWidth, height);
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
  out += kChartEnd;
  return out;
}

std::string histogram(const std::string& title, const std::vector<HistogramColumn>& all) {
  std::vector<HistogramColumn> columns;
  std::copy_if(all.begin(), all.end(), std::back_inserter(columns),
               [](const HistogramColumn& c) { return c.lower_ns >= 1 && c.count > 0; });
  if (columns.empty()) return "";
  constexpr int kWidth = 420, kPlot = 110, kLeft = 10;
  constexpr double kBucketsPerOctave = 8;
  double top = 0;
  for (const auto& c : columns) top = std::max(top, std::log10(1 + c.count));
  const double first = std::log2(columns.front().lower_ns);
  const double last = std::log2(columns.back().lower_ns) + 1 / kBucketsPerOctave;
  const double span = std::max(last - first, 1 / kBucketsPerOctave);
  const double usable = kWidth - 2 * kLeft;
  const auto x_of = [&](double ns) { return kLeft + (std::log2(ns) - first) / span * usable; };
  const double column_width = std::max(usable / (span * kBucketsPerOctave) - 0.5, 0.8);
  std::string out =
      chart_start(title, " <span class=\"scale\">(log time, log count)</span>", kWidth, kPlot + 24);
  for (const auto& [lower, count] : columns) {
    const double h = std::max(1.0, top > 0 ? std::log10(1 + count) / top * kPlot : 0);
    out += concat("<rect class=\"bar\" x=\"", coordinate(x_of(lower)), "\" y=\"",
                  coordinate(kPlot - h), "\" width=\"", coordinate(column_width), "\" height=\"",
                  coordinate(h), "\"><title>from ", escape_html(format_ns(lower)), ": ",
                  format_number(count), "</title></rect>");
  }
  out += time_axis(kLeft, kWidth - kLeft, kPlot, x_of);
  out += kChartEnd;
  return out;
}

}  // namespace syncstress::report
