// Finding the scenario presets (scenarios/*.json): for `list scenarios`, and for the CLI to
// check a preset name and load the preset it names.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace syncstress::scenarios {

/// What `list scenarios` shows of one preset file.
struct PresetSummary {
  std::string name;  ///< the "name" field, or the file name without .json
  std::string description;
  std::string family;
  std::string kind;
  std::filesystem::path path;
};

/// The directory of the presets: $SYNCSTRESS_SCENARIOS_DIR if set; else, for a program
/// installed by `cmake --install`, PREFIX/share/syncstress/scenarios beside its PREFIX/bin;
/// else the directory a tool registered (register_scenarios_dir); else the source tree's
/// scenarios/ (SYNCSTRESS_SOURCE_DIR, baked in at build time).
std::filesystem::path scenarios_dir();

/// Where a tool built with syncstress_add_tool against the installed package finds the
/// installed presets (its own binary lives outside the install prefix): called from a static
/// initializer, before main. `dir` must outlive the program. Returns true.
bool register_scenarios_dir(const char* dir);

/// Reads one preset file's summary. Throws UsageError if it is not a JSON object or a
/// summary field is not a string.
PresetSummary read_preset_summary(const std::filesystem::path& file);

/// The summary of the parsed contents of preset file `file` (parse_json_input's result).
PresetSummary preset_summary(const nlohmann::json& doc, const std::filesystem::path& file);

/// Every *.json in `dir`, sorted by name; an absent directory has none. Throws UsageError on
/// a malformed file or two files with the same name.
std::vector<PresetSummary> list_presets(const std::filesystem::path& dir);

}  // namespace syncstress::scenarios
