// The one place the `syncstress replay ...` command of a violation is spelled: the sim cells,
// the replays, the crash notes of the supervisor and the Relacy backend all fill a Violation's
// replay_command with it.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "scenarios/preset.hpp"

namespace syncstress::scenarios {

/// Names the program in the commands below instead of `syncstress`: a tool of
/// syncstress_add_tool registers its own name from a static initializer, before main, so that
/// the commands it prints run it (only it knows its primitives). `name` must outlive the
/// program. Returns true.
bool register_program_name(const char* name);

/// The program's name as registered (`syncstress` unless a tool registered its own), for the
/// commands a message tells the user to run.
std::string_view program_name();

/// `syncstress replay --schedule S --scenario NAME --primitive P [--set k=v]...`, quoted for a
/// POSIX shell. A preset of a scenarios/ directory is named by --scenario; a user's own preset
/// file by --preset FILE.
std::string replay_command(const Preset& preset, std::string_view primitive,
                           const std::map<std::string, std::string>& overrides,
                           std::string_view schedule);

/// `syncstress run --schedule S --scenario NAME --primitive P [--set k=v]...`: the search to
/// try next for what a trial on real threads found (it has no schedule to replay).
std::string run_command(const Preset& preset, std::string_view primitive,
                        const std::map<std::string, std::string>& overrides,
                        std::string_view schedule);

}  // namespace syncstress::scenarios
