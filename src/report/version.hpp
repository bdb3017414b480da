// What the tool says about itself in the report's context block and in --version.
#pragma once

namespace syncstress {

/// The tool's version, from CMakeLists.txt's project().
inline constexpr const char* kVersion = SYNCSTRESS_VERSION;
/// CMAKE_BUILD_TYPE of this binary.
inline constexpr const char* kBuildType = SYNCSTRESS_BUILD_TYPE;
/// The short git revision the binary was built from, "-dirty" if the tree had changes,
/// "unknown" outside a git checkout. Generated at build time (scripts/git_revision.cmake).
const char* git_revision();

}  // namespace syncstress
