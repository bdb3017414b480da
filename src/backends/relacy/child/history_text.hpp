// The text of Relacy's execution history, made short and stable for a report: no template
// arguments, a function named by its class and name alone (util/function_names.hpp), paths
// from the source tree, and addresses numbered.
#pragma once

#include <cctype>
#include <map>
#include <string>
#include <string_view>

#include "util/function_names.hpp"

namespace syncstress::relacy_main {

/// A history line without the " [with P = ...]" blocks of GCC's function names, which can
/// run to a kilobyte per line and say nothing the file and line do not.
inline std::string without_template_arguments(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line.compare(i, 7, " [with ") == 0) {
      int depth = 0;
      for (; i < line.size(); ++i) {
        if (line[i] == '[') ++depth;
        if (line[i] == ']' && --depth == 0) break;
      }
      ++i;
      continue;
    }
    out += line[i++];
  }
  return out;
}

/// A history line ("[step] thread: <address> what..., in function, file(line)") with its
/// function named short (short_function_name) and its file relative to `source_dir` when it is
/// under it. A line of another shape is returned as it is.
inline std::string shorten_history_line(const std::string& line, std::string_view source_dir) {
  const auto in = line.find(", in ");
  const auto last = line.rfind(", ");
  if (in == std::string::npos || last == std::string::npos || last <= in) return line;
  const std::string function = line.substr(in + 5, last - in - 5);
  std::string where = line.substr(last + 2);
  if (!source_dir.empty() && where.compare(0, source_dir.size(), source_dir) == 0) {
    where = where.substr(source_dir.size());
  }
  std::string out = line.substr(0, in);
  if (!function.empty()) out += ", in " + short_function_name(function);
  out += ", " + where;
  return out;
}

/// Replaces the addresses of a history (which change from run to run with ASLR) by object
/// numbers in order of first appearance, so that the same schedule gives the same trace text.
class AddressNames {
 public:
  std::string rewrite(const std::string& line) {
    std::string out;
    std::size_t i = 0;
    while (i < line.size()) {
      if (line.compare(i, 2, "0x") == 0) {
        std::size_t end = i + 2;
        while (end < line.size() && std::isxdigit(static_cast<unsigned char>(line[end]))) ++end;
        const std::string address = line.substr(i, end - i);
        auto [it, added] = names_.emplace(address, "obj" + std::to_string(names_.size() + 1));
        out += it->second;
        i = end;
        continue;
      }
      out += line[i++];
    }
    return out;
  }

 private:
  std::map<std::string, std::string> names_;
};

}  // namespace syncstress::relacy_main
