#include "util/distinct_paths.hpp"

#include <sys/stat.h>

#include <system_error>
#include <utility>

#include "util/concat.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace {

/// What a path names: an existing file by its device and inode (symbolic links followed), a
/// file yet to be written by its absolute path with every existing link resolved.
struct Identity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::filesystem::path where;
};

Identity identify(const std::filesystem::path& path) {
  Identity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  std::error_code ec;
  id.where = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) id.where = std::filesystem::absolute(path).lexically_normal();
  return id;
}

bool same(const Identity& a, const Identity& b) {
  if (a.exists != b.exists) return false;
  if (a.exists) return a.device == b.device && a.inode == b.inode;
  return a.where == b.where;
}

}  // namespace

void DistinctPaths::input(std::string flag, std::filesystem::path path) {
  entries_.push_back({std::move(flag), std::move(path), false});
}

void DistinctPaths::output(std::string flag, std::filesystem::path path) {
  entries_.push_back({std::move(flag), std::move(path), true});
}

void DistinctPaths::check() const {
  std::vector<Identity> ids;
  ids.reserve(entries_.size());
  for (const auto& e : entries_) ids.push_back(identify(e.path));
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    for (std::size_t j = i + 1; j < entries_.size(); ++j) {
      const auto& a = entries_[i];
      const auto& b = entries_[j];
      if ((!a.output && !b.output) || !same(ids[i], ids[j])) continue;
      const auto& [written, other] = a.output ? std::pair{a, b} : std::pair{b, a};
      throw UsageError(concat(
          written.flag, " ", written.path.string(), " is the same file as ", other.flag, " ",
          other.path.string(), ": writing it would destroy the ",
          other.output ? "other output" : "input", "; give ", written.flag, " another file"));
    }
  }
}

}  // namespace syncstress
