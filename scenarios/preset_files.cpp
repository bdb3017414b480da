#include "scenarios/preset_files.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "scenarios/preset.hpp"
#include "util/concat.hpp"
#include "util/json_input.hpp"
#include "util/usage_error.hpp"

namespace syncstress::scenarios {

namespace {
const char*& registered_scenarios_dir() {
  static const char* dir = nullptr;
  return dir;
}
}  // namespace

bool register_scenarios_dir(const char* dir) {
  registered_scenarios_dir() = dir;
  return true;
}

std::filesystem::path scenarios_dir() {
  // Read once, before any thread exists: getenv's lack of thread safety cannot bite here.
  // NOLINTNEXTLINE(concurrency-mt-unsafe)
  if (const char* dir = std::getenv("SYNCSTRESS_SCENARIOS_DIR"); dir && *dir) return dir;
  // An installed program (cmake/install.cmake): PREFIX/bin/syncstress reads
  // PREFIX/share/syncstress/scenarios, wherever the prefix was moved to.
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto installed = self.parent_path().parent_path() / "share" / "syncstress" / "scenarios";
    if (self.parent_path().filename() == "bin" && std::filesystem::is_directory(installed, ec)) {
      return installed;
    }
  }
  if (const char* dir = registered_scenarios_dir()) return dir;
  return std::filesystem::path(SYNCSTRESS_SOURCE_DIR) / "scenarios";
}

PresetSummary read_preset_summary(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw UsageError(file.string() + ": no such preset file");
  }
  std::ifstream in(file);
  return preset_summary(parse_json_input(in, file.string()), file);
}

PresetSummary preset_summary(const nlohmann::json& doc, const std::filesystem::path& file) {
  if (!doc.is_object()) throw UsageError(file.string() + ": a preset must be a JSON object");
  PresetSummary summary{file.stem().string(), "", "", "", file};
  for (auto [key, field] :
       {std::pair{"name", &summary.name}, std::pair{"description", &summary.description},
        std::pair{"family", &summary.family}, std::pair{"kind", &summary.kind}}) {
    if (!doc.contains(key)) continue;
    if (!doc[key].is_string()) {
      throw UsageError(concat(file.string(), ": \"", key, "\" must be a string"));
    }
    *field = doc[key].get<std::string>();
  }
  check_preset_name(summary.name, file);
  return summary;
}

std::vector<PresetSummary> list_presets(const std::filesystem::path& dir) {
  std::vector<PresetSummary> presets;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return presets;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json" || !entry.is_regular_file()) continue;
    presets.push_back(read_preset_summary(entry.path()));
  }
  // Directory order is the file system's; sort so the listing is stable.
  std::sort(presets.begin(), presets.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < presets.size(); ++i) {
    if (presets[i].name == presets[i - 1].name) {
      throw UsageError(concat("two presets are named '", presets[i].name, "': ",
                              presets[i - 1].path.string(), " and ", presets[i].path.string()));
    }
  }
  return presets;
}

}  // namespace syncstress::scenarios
