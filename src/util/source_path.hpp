// A source file's path as reports print it: relative to the source tree when inside it, so the
// text does not depend on where the tree is checked out.
#pragma once

#include <string_view>

namespace syncstress {

/// `file` relative to the source tree (SYNCSTRESS_SOURCE_DIR) when inside it, else as given;
/// "-" for none.
std::string_view source_relative(const char* file);

}  // namespace syncstress
