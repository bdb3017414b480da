// A mistake in the user's input, as opposed to a bug in the tool: every layer may throw it, and
// the CLI turns it into its message on stderr and exit code 2.
#pragma once

#include <stdexcept>

namespace syncstress {

/// A mistake in the user's input: a message that says what to fix. Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `run --resume`: a cell's position that the cell itself showed not to be its own (its search
/// left the position's path); what() says how, the run adds the report and the cell.
class PositionRefused : public UsageError {
 public:
  using UsageError::UsageError;
};

}  // namespace syncstress
