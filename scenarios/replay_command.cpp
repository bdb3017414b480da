#include "scenarios/replay_command.hpp"

#include "util/concat.hpp"
#include "util/shell_quote.hpp"

namespace syncstress::scenarios {

namespace {

const char*& registered_name() {
  static const char* name = "syncstress";
  return name;
}

/// `syncstress VERB --schedule S --scenario NAME --primitive P [--set k=v]...`.
std::string command_for(std::string_view verb, const Preset& preset, std::string_view primitive,
                        const std::map<std::string, std::string>& overrides,
                        std::string_view schedule) {
  // A preset of the scenarios/ folder is named; a user's own preset is given by its file.
  const bool named = preset.file.empty() || !preset.file.has_parent_path() ||
                     preset.file.parent_path().filename() == "scenarios";
  std::string command = concat(registered_name(), " ", verb, " --schedule ", shell_quote(schedule));
  command += named ? concat(" --scenario ", shell_quote(preset.name))
                   : concat(" --preset ", shell_quote(preset.file.string()));
  command += concat(" --primitive ", shell_quote(primitive));
  for (const auto& [key, value] : overrides) {
    command += concat(" --set ", shell_quote(concat(key, "=", value)));
  }
  return command;
}

}  // namespace

bool register_program_name(const char* name) {
  registered_name() = name;
  return true;
}

std::string_view program_name() { return registered_name(); }

std::string replay_command(const Preset& preset, std::string_view primitive,
                           const std::map<std::string, std::string>& overrides,
                           std::string_view schedule) {
  return command_for("replay", preset, primitive, overrides, schedule);
}

std::string run_command(const Preset& preset, std::string_view primitive,
                        const std::map<std::string, std::string>& overrides,
                        std::string_view schedule) {
  return command_for("run", preset, primitive, overrides, schedule);
}

}  // namespace syncstress::scenarios
