// Writing a file so that readers see either the old content or the whole new content.
#pragma once

#include <filesystem>
#include <string_view>

namespace syncstress::report {

/// Writes `content` to `path` atomically: a temporary file in the same directory, fsync,
/// rename over `path`, fsync of the directory. On any failure the temporary file is removed,
/// `path` is left as it was, and std::system_error (or filesystem_error) is thrown.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace syncstress::report
