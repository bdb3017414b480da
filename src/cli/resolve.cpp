#include "cli/resolve.hpp"

#include "scenarios/preset_files.hpp"
#include "util/known_names.hpp"
#include "util/usage_error.hpp"

namespace syncstress::cli {

std::vector<std::string> primitive_names() {
  std::vector<std::string> names;
  for (const auto& p : all_primitives()) names.emplace_back(p.name);
  return names;
}

const PrimitiveInfo& resolve_primitive(const std::string& name) {
  for (const auto& p : all_primitives()) {
    if (p.name == name) return p;
  }
  require_known_name("primitive", "--primitive", name, primitive_names());
  throw UsageError("primitive '" + name + "' is in the catalogue's names but not in its rows");
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& p : scenarios::list_presets(scenarios::scenarios_dir())) {
    names.push_back(p.name);
  }
  return names;
}

std::vector<scenarios::Preset> load_named_presets(const std::vector<std::string>& names) {
  const auto summaries = scenarios::list_presets(scenarios::scenarios_dir());
  std::vector<std::string> known;
  known.reserve(summaries.size());
  for (const auto& s : summaries) known.push_back(s.name);
  std::vector<scenarios::Preset> presets;
  for (const auto& name : names) {
    require_known_name("scenario", "--scenario", name, known);
    for (const auto& s : summaries) {
      if (s.name == name) presets.push_back(scenarios::load_preset(s.path));
    }
  }
  return presets;
}

}  // namespace syncstress::cli
