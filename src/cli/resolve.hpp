// Names given on the command line (or read from a report) resolved, once, into what the layers
// below take: a primitive of the catalogue, a loaded preset. Unknown names are UsageErrors that
// name the flag, list the valid names and suggest the nearest.
#pragma once

#include <string>
#include <vector>

#include "primitives/catalog.hpp"
#include "scenarios/preset.hpp"

namespace syncstress::cli {

/// Every primitive's name, in catalogue order.
std::vector<std::string> primitive_names();

/// The primitive `name` (--primitive).
const PrimitiveInfo& resolve_primitive(const std::string& name);

/// The names of the presets in scenarios::scenarios_dir(), sorted.
std::vector<std::string> preset_names();

/// The presets `names` (--scenario), loaded from scenarios::scenarios_dir(), in that order.
std::vector<scenarios::Preset> load_named_presets(const std::vector<std::string>& names);

}  // namespace syncstress::cli
