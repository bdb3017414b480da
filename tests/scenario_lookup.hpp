// The tests' way to name a preset of scenarios/ and a primitive of the catalogue, as the CLI's
// --scenario and --primitive do (without its messages: a test naming a wrong one throws).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "primitives/catalog.hpp"
#include "scenarios/preset.hpp"
#include "scenarios/preset_files.hpp"

namespace syncstress::testing {

/// The preset `name` of scenarios/.
inline scenarios::Preset preset(const std::string& name) {
  for (const auto& s : scenarios::list_presets(scenarios::scenarios_dir())) {
    if (s.name == name) return scenarios::load_preset(s.path);
  }
  throw std::invalid_argument("no preset " + name);
}

/// The catalogue's primitive `name`.
inline const PrimitiveInfo& primitive(std::string_view name) {
  for (const auto& p : all_primitives()) {
    if (p.name == name) return p;
  }
  throw std::invalid_argument("no primitive " + std::string(name));
}

}  // namespace syncstress::testing
