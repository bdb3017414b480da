#include "report/typed_report.hpp"

#include <cstdint>
#include <utility>

#include "scenarios/outcome_json.hpp"
#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {

const nlohmann::json& field(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

namespace {

using nlohmann::json;

RunOfReport run_of(const json& report, const std::filesystem::path& path) {
  RunOfReport run;
  const json& config = field(report, "config");
  const json& summary = field(report, "summary");
  if (const json& scenarios = field(config, "scenarios"); scenarios.is_array()) {
    for (const auto& s : scenarios) {
      if (s.is_string()) run.scenarios.push_back(s.get<std::string>());
    }
  }
  if (const json& file = field(config, "preset_file"); file.is_string()) {
    if (auto name = file.get<std::string>(); !name.empty()) run.preset_file = std::move(name);
  }
  if (const json& overrides = field(config, "overrides"); overrides.is_object()) {
    for (const auto& [key, value] : overrides.items()) {
      // A run's --set values are what its violations replay with: one that is not text is not
      // dropped, it makes the report unreadable.
      if (!value.is_string()) {
        throw UsageError(concat(path.string(), ": not a syncstress report: config.overrides.", key,
                                " is not a string"));
      }
      run.overrides[key] = value.get<std::string>();
    }
  }
  if (const json& by = field(summary, "interrupted_by"); by.is_string()) {
    run.interrupted_by = by.get<std::string>();
  }
  // A count: a whole number not below 0 (unsigned as parsed, perhaps signed as built).
  if (const json& planned = field(summary, "cells_planned");
      planned.is_number_unsigned() ||
      (planned.is_number_integer() && planned.get<std::int64_t>() >= 0)) {
    run.cells_planned = planned.get<std::uint64_t>();
  }
  return run;
}

}  // namespace

std::vector<CellResult> read_cells(const json& report, const std::filesystem::path& path) {
  std::vector<CellResult> cells;
  const json& in = report.at("cells");
  cells.reserve(in.size());
  for (const auto& cell : in) {
    try {
      cells.push_back(cell_result_from_json(cell));
    } catch (const json::exception& e) {
      throw UsageError(concat(path.string(), ": not a syncstress report: cells[",
                              std::to_string(cells.size()),
                              "] is not as syncstress run writes it (", json_error_text(e), ")"));
    }
  }
  return cells;
}

TypedReport read_typed_report(const json& report, const std::filesystem::path& path) {
  return {read_cells(report, path), run_of(report, path), field(report, "context"),
          field(report, "config")};
}

}  // namespace syncstress::report
