// Checking a user-given name against the valid ones, with a "did you mean" for typos.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace syncstress {

/// Levenshtein distance between `a` and `b` (insertions, deletions, substitutions).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `name` by edit distance (the first on ties); empty if none.
std::string nearest_name(std::string_view name, std::span<const std::string> candidates);

/// Throws UsageError unless `name` is one of `candidates`. The message names the flag, lists
/// every valid name and suggests the nearest one; `what` is "primitive", "scenario", ...
void require_known_name(std::string_view what, std::string_view flag, std::string_view name,
                        std::span<const std::string> candidates);

}  // namespace syncstress
