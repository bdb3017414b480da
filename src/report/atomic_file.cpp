// An unnamed file (or a temp file) + fsync + rename: a crash, a kill or a full disk never leaves a
// half-written report.
#include "report/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

#include "util/concat.hpp"
#include "util/interrupt.hpp"
#include "util/usage_error.hpp"

namespace syncstress::report {
namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), concat(what, " ", path.string()));
}

/// Owns the temporary file until it is renamed into place. Where the file system allows, the
/// file has no name while it is written (O_TMPFILE): a process killed then leaves nothing behind.
/// It gets a name (in the target's folder) only just before the rename, or, for a file that must
/// be new, straight the target's. Elsewhere it is a named temporary file from the start.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& target) : target_(target) {
    const auto dir =
        target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
    const std::string pattern = dir / concat(".", target.filename().string(), ".tmp.XXXXXX");
    name_.assign(pattern.begin(), pattern.end());
    name_.push_back('\0');
    // Linking an unnamed file needs /proc/self/fd; without it, or on a file system without
    // O_TMPFILE, the named file below reports any error the way it always has.
    if (::access("/proc/self/fd", X_OK) == 0) {
      fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    }
    if (fd_ >= 0) return;
    fd_ = ::mkostemp(name_.data(), O_CLOEXEC);
    if (fd_ < 0) throw_errno("cannot create a temporary file for", target);
    named_ = true;
    // A second Ctrl-C ends the process at once: it removes this file on the way out.
    interrupt::set_temp_file(name_.data());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    interrupt::set_temp_file(nullptr);
    if (fd_ >= 0) ::close(fd_);
    if (named_ && !renamed_) ::unlink(name_.data());
  }

  void write_all(std::string_view content) {
    while (!content.empty()) {
      const ssize_t n = ::write(fd_, content.data(), content.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        throw_errno("cannot write", target_);
      }
      content.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  /// Makes the file `target`: over what is there when `replace`, else only if nothing is (then
  /// returns false, the temporary file removed, when something is).
  bool sync_close_and_rename(const std::filesystem::path& target, bool replace) {
    if (::fchmod(fd_, 0644) != 0) throw_errno("cannot set the mode of the new", target_);
    if (::fsync(fd_) != 0) throw_errno("cannot write", target_);
    if (!named_) {
      if (!replace) return link_unnamed_as_new(target);
      name_unnamed();
    }
    close_checked();
    if (replace) {
      if (::rename(name_.data(), target.c_str()) != 0) throw_errno("cannot rename onto", target);
    } else if (!link_new(target)) {
      return false;
    }
    interrupt::set_temp_file(nullptr);
    renamed_ = true;
    return true;
  }

 private:
  /// The unnamed file's path through /proc, which linkat follows to the file itself.
  std::string proc_path() const { return concat("/proc/self/fd/", std::to_string(fd_)); }

  /// Gives the unnamed file its temporary name: the pattern's six X's from the process id and a
  /// count, the next count while the name is taken.
  void name_unnamed() {
    const auto digits = name_.end() - 1 - 6;
    for (unsigned attempt = 0;; ++attempt) {
      const auto n = (static_cast<unsigned long>(::getpid()) * 100 + attempt) % 1000000;
      std::string six = std::to_string(n);
      six.insert(0, 6 - six.size(), '0');
      std::copy(six.begin(), six.end(), digits);
      if (::linkat(AT_FDCWD, proc_path().c_str(), AT_FDCWD, name_.data(), AT_SYMLINK_FOLLOW) == 0) {
        break;
      }
      if (errno != EEXIST || attempt >= 99) throw_errno("cannot name the new", target_);
    }
    named_ = true;
    interrupt::set_temp_file(name_.data());
  }

  /// Links the unnamed file as `target` unless `target` exists (anything: false then).
  bool link_unnamed_as_new(const std::filesystem::path& target) {
    if (::linkat(AT_FDCWD, proc_path().c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      if (errno == EEXIST) return false;
      throw_errno("cannot link onto", target);
    }
    renamed_ = true;
    close_checked();
    return true;
  }

  /// Closes the file, whose last writes a failed close may have lost.
  void close_checked() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_errno("cannot write", target_);
  }

  /// Renames the temporary file to `target` unless `target` exists (a file, a folder, a link:
  /// anything): false then. File systems without RENAME_NOREPLACE get a hard link, which
  /// fails the same way, and the temporary name is removed.
  bool link_new(const std::filesystem::path& target) {
    if (::renameat2(AT_FDCWD, name_.data(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
      return true;
    }
    if (errno == EEXIST) return false;
    if (errno != EINVAL && errno != ENOSYS) throw_errno("cannot rename onto", target);
    if (::link(name_.data(), target.c_str()) != 0) {
      if (errno == EEXIST) return false;
      throw_errno("cannot link onto", target);
    }
    ::unlink(name_.data());
    return true;
  }

  std::filesystem::path target_;
  std::vector<char> name_;
  int fd_ = -1;
  bool named_ = false;  // the file has a name of its own (name_) to remove if it is not renamed
  bool renamed_ = false;
};

/// The rename is durable only once the directory entry is on disk.
void sync_directory_of(const std::filesystem::path& path) {
  const auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  // A device or a pipe would be replaced by the rename (a directory makes the rename fail).
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_directory(status)) {
    throw UsageError(concat(path.string(), " is not a regular file; give a file name"));
  }
  TempFile temp(path);
  temp.write_all(content);
  temp.sync_close_and_rename(path, /*replace=*/true);
  sync_directory_of(path);
}

bool write_new_file_atomically(const std::filesystem::path& path, std::string_view content) {
  TempFile temp(path);
  temp.write_all(content);
  if (!temp.sync_close_and_rename(path, /*replace=*/false)) return false;
  sync_directory_of(path);
  return true;
}

void check_writable(std::string_view flag, const std::filesystem::path& path) {
  std::error_code ec;
  const auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  if (!std::filesystem::is_directory(dir, ec)) {
    throw UsageError(concat(flag, ": directory ", dir.string(), " does not exist"));
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw UsageError(concat(flag, ": ", path.string(), " is a directory; give a file name"));
  }
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    // A device or a pipe: the file's rename would replace it (as root, /dev/null too).
    throw UsageError(concat(flag, ": ", path.string(),
                            " is not a regular file (the report replaces the file it writes); "
                            "give a file name"));
  }
  try {
    TempFile probe(path);  // removed again when it goes out of scope
  } catch (const std::system_error& e) {
    throw UsageError(concat(flag, ": cannot create a file in ", dir.string(), " (",
                            e.code().message(), "); give a writable directory"));
  }
}

std::filesystem::path make_temporary_dir(const std::filesystem::path& dir,
                                         std::string_view prefix) {
  std::string name = (dir / prefix).string();
  name += "XXXXXX";
  if (::mkdtemp(name.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(),
                            "cannot make a folder in " + dir.string());
  }
  return name;
}

}  // namespace syncstress::report
