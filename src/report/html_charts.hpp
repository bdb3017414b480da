// The page's charts as inline SVG: horizontal bars, and a histogram on log axes.
#pragma once

#include <string>
#include <vector>

namespace syncstress::report {

/// One bar of a bar chart.
struct Bar {
  std::string label;
  double value = 0;
  std::string shown;  ///< the value as printed beside the bar
};

/// Horizontal bars, one per entry, with their values; on a log scale when the values span
/// orders of magnitude (wait times on real threads).
std::string bar_chart(const std::string& title, const std::vector<Bar>& bars, bool log_scale);

/// One non-empty bucket of a wait histogram.
struct HistogramColumn {
  double lower_ns = 0;  ///< the bucket's lower bound
  double count = 0;     ///< the waits that fell in it
};

/// A histogram of a stress wait, its buckets eight per power of two, in ascending order. Time
/// runs on a log axis (a bucket's column where its lower bound falls), counts on a log scale
/// too, so that the tail shows beside the mode. Columns that have no place on those axes (a
/// bound below 1 ns, no waits) are left out; nothing is drawn when none is left.
std::string histogram(const std::string& title, const std::vector<HistogramColumn>& columns);

}  // namespace syncstress::report
