// Verdict and stop-reason names as reports and baselines spell them, and how a cell's stop
// settles its verdict.
#include "scenarios/outcome.hpp"

#include <array>
#include <utility>

namespace syncstress {
namespace {
constexpr std::array<std::pair<Verdict, std::string_view>, 6> kVerdictNames{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::measured, "measured"},
    {Verdict::inconclusive, "inconclusive"},
    {Verdict::interrupted, "interrupted"},
    {Verdict::error, "error"},
}};
constexpr std::array<std::pair<StopReason, std::string_view>, 6> kStopNames{{
    {StopReason::executions, "executions"},
    {StopReason::exhausted, "exhausted"},
    {StopReason::violation, "violation"},
    {StopReason::time_budget, "time_budget"},
    {StopReason::interrupted, "interrupted"},
    {StopReason::error, "error"},
}};

/// Lowest first: what severity() counts.
constexpr std::array kVerdictSeverity{Verdict::pass,         Verdict::measured,
                                      Verdict::inconclusive, Verdict::interrupted,
                                      Verdict::fail,         Verdict::error};
constexpr std::array kStopSeverity{StopReason::exhausted,   StopReason::executions,
                                   StopReason::time_budget, StopReason::interrupted,
                                   StopReason::violation,   StopReason::error};

/// `value`'s place in `order`.
template <class E, std::size_t N>
int place_in(const std::array<E, N>& order, E value) {
  for (std::size_t i = 0; i < N; ++i) {
    if (order[i] == value) return static_cast<int>(i);
  }
  return static_cast<int>(N);
}

template <class E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& names, E value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return "error";
}

template <class E, std::size_t N>
std::optional<E> value_of(const std::array<std::pair<E, std::string_view>, N>& names,
                          std::string_view text) {
  for (const auto& [v, name] : names) {
    if (name == text) return v;
  }
  return std::nullopt;
}
}  // namespace

std::string_view to_string(Verdict verdict) { return name_of(kVerdictNames, verdict); }

std::optional<Verdict> verdict_from_string(std::string_view text) {
  return value_of(kVerdictNames, text);
}

int severity(Verdict verdict) { return place_in(kVerdictSeverity, verdict); }

std::string_view to_string(StopReason reason) { return name_of(kStopNames, reason); }

int severity(StopReason reason) { return place_in(kStopSeverity, reason); }

std::optional<StopReason> stop_reason_from_string(std::string_view text) {
  return value_of(kStopNames, text);
}

std::string position_owner(const CellResult& cell) {
  std::string out = cell.primitive + " x " + cell.scenario + " (" + cell.schedule + ")";
  char separator = ' ';
  for (const auto& [key, value] : cell.parameters) {
    out += separator;
    out += key;
    out += '=';
    out += value;
    separator = ',';
  }
  return out;
}

void settle_verdict(CellResult& cell, bool soak) {
  const bool open = cell.verdict == Verdict::pass || cell.verdict == Verdict::measured;
  if (cell.stopped_by == StopReason::time_budget && !soak && open) {
    cell.verdict = Verdict::inconclusive;
  }
  if (cell.stopped_by == StopReason::interrupted && cell.verdict != Verdict::fail &&
      cell.verdict != Verdict::error) {
    cell.verdict = Verdict::interrupted;
  }
}

}  // namespace syncstress
