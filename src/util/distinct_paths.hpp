// The files one command reads and writes, checked before it does anything: an output that is
// one of its inputs, or another of its outputs, would destroy what the user asked to keep.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace syncstress {

class DistinctPaths {
 public:
  /// A file the command reads, given by `flag` ("--resume", "REPORT.json", ...).
  void input(std::string flag, std::filesystem::path path);
  /// A file the command writes, given by `flag`.
  void output(std::string flag, std::filesystem::path path);

  /// Throws UsageError naming both flags when an output is the same file as an input or as
  /// another output: the same spelling, another spelling of the same path, a symbolic link to
  /// it or a hard link of it. Paths that do not exist yet are compared by where they would be.
  void check() const;

 private:
  struct Entry {
    std::string flag;
    std::filesystem::path path;
    bool output;
  };
  std::vector<Entry> entries_;
};

}  // namespace syncstress
