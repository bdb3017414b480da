// What the system refused the tool, as opposed to a bug in it or a mistake in the input: a full
// disk, a permission taken away, a folder removed while a run went on, no processes or files
// left to open. The CLI gives these their own exit code and a message that says what to do.
#pragma once

#include <optional>
#include <string>
#include <system_error>

namespace syncstress {

/// What to do about `code` when the system, not the tool, is at fault; nullopt for any other
/// error (a bug of the tool's).
std::optional<std::string> environment_advice(const std::error_code& code);

}  // namespace syncstress
