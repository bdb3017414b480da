// Verdict names as reports and baselines spell them.
#include "scenarios/outcome.hpp"

#include <array>
#include <utility>

namespace syncstress {
namespace {
constexpr std::array<std::pair<Verdict, std::string_view>, 4> kVerdictNames{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::measured, "measured"},
    {Verdict::error, "error"},
}};
}  // namespace

std::string_view to_string(Verdict verdict) {
  for (const auto& [v, name] : kVerdictNames) {
    if (v == verdict) return name;
  }
  return "error";
}

std::optional<Verdict> verdict_from_string(std::string_view text) {
  for (const auto& [v, name] : kVerdictNames) {
    if (name == text) return v;
  }
  return std::nullopt;
}

}  // namespace syncstress
