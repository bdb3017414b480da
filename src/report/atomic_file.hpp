// Writing a file so that readers see either the old content or the whole new content.
#pragma once

#include <filesystem>
#include <string_view>

namespace syncstress::report {

/// Writes `content` to `path` atomically: a temporary file in the same directory, fsync,
/// rename over `path`, fsync of the directory. On any failure the temporary file is removed,
/// `path` is left as it was, and std::system_error (or filesystem_error) is thrown. An existing
/// `path` that is a device, a pipe or a socket (the rename would replace it, /dev/null
/// included) is refused with UsageError.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

/// Writes `content` to `path` as write_file_atomically does, but only as a new file: when
/// anything exists at `path` (even a dangling symbolic link), writes nothing and returns false.
bool write_new_file_atomically(const std::filesystem::path& path, std::string_view content);

/// Checks, before any work, that write_file_atomically can write `path` (given as `flag`, e.g.
/// "--out"): its directory exists and takes a new file (one is created and removed), and the
/// path is no directory and nothing but a regular file if it exists. Throws UsageError naming
/// `flag` and what to change.
void check_writable(std::string_view flag, const std::filesystem::path& path);

/// Makes a new, empty directory in `dir`, named `prefix` and six random characters, and
/// returns its path. Throws std::system_error when it cannot.
std::filesystem::path make_temporary_dir(const std::filesystem::path& dir, std::string_view prefix);

}  // namespace syncstress::report
