// A checked report read once into typed values: each cell through the one codec
// (scenarios/outcome_json.hpp), and the few parts of its config and summary that readers act
// on. The page (report/html.hpp), the gate (report/gate.hpp) and `syncstress html` work on these
// instead of looking fields up in the document.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/outcome.hpp"

namespace syncstress::report {

/// `object[key]`, or null when `object` is not an object or has no such field: for the parts of
/// a checked report whose fields may be anything (context, metrics).
const nlohmann::json& field(const nlohmann::json& object, const char* key);

/// The cells of `report` (a document check_report accepted), each read through the codec, in
/// report order. Throws UsageError naming `path` and the cell when the codec cannot read one: a
/// cell that is not as `syncstress run` writes it.
std::vector<CellResult> read_cells(const nlohmann::json& report, const std::filesystem::path& path);

/// What a report says of its run besides its cells. check_report does not check these fields:
/// each is taken when it has the type results/SCHEMA.md gives it, and left empty otherwise,
/// except an override that is not a string, which read_typed_report refuses.
struct RunOfReport {
  std::vector<std::string> scenarios{};                ///< config.scenarios
  std::optional<std::filesystem::path> preset_file{};  ///< config.preset_file, when it names one
  std::map<std::string, std::string> overrides{};      ///< config.overrides, its string values
  std::optional<std::string> interrupted_by{};         ///< summary.interrupted_by
  std::optional<std::uint64_t> cells_planned{};        ///< summary.cells_planned
};

/// A checked report read once.
struct TypedReport {
  std::vector<CellResult> cells{};
  RunOfReport run{};
  /// The context and config blocks as the report has them, for showing field by field.
  nlohmann::json context{};
  nlohmann::json config{};
};

/// `report` (a document check_report accepted) read once; throws UsageError as read_cells does.
TypedReport read_typed_report(const nlohmann::json& report, const std::filesystem::path& path);

}  // namespace syncstress::report
