#include "util/source_path.hpp"

namespace syncstress {

std::string_view source_relative(const char* file) {
  if (file == nullptr || *file == '\0') return "-";
  std::string_view f(file);
#ifdef SYNCSTRESS_SOURCE_DIR
  constexpr std::string_view root = SYNCSTRESS_SOURCE_DIR;
  if (f.size() > root.size() && f.substr(0, root.size()) == root && f[root.size()] == '/') {
    return f.substr(root.size() + 1);
  }
#endif
  return f;
}

}  // namespace syncstress
