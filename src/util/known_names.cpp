// Unknown names get the list of valid ones and the nearest, so a typo costs one retry.
#include "util/known_names.hpp"

#include <algorithm>
#include <vector>

#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view name, std::span<const std::string> candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (best.empty() || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

void require_known_name(std::string_view what, std::string_view flag, std::string_view name,
                        std::span<const std::string> candidates) {
  if (std::find(candidates.begin(), candidates.end(), name) != candidates.end()) return;
  std::string message = concat(flag, ": unknown ", what, " '", name, "'");
  if (candidates.empty()) {
    message += concat("; no ", what, " is available yet");
    throw UsageError(message);
  }
  message +=
      concat("; did you mean '", nearest_name(name, candidates), "'?\nvalid ", what, " names:");
  for (const auto& candidate : candidates) message += concat("\n  ", candidate);
  throw UsageError(message);
}

}  // namespace syncstress
