#include "util/environment_error.hpp"

#include <cerrno>

namespace syncstress {

std::optional<std::string> environment_advice(const std::error_code& code) {
  if (code.category() != std::generic_category() && code.category() != std::system_category()) {
    return std::nullopt;
  }
  switch (code.value()) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return "free space on that file system, or write elsewhere (--out)";
    case EROFS:
    case EACCES:
    case EPERM:
      return "make that folder writable again, or write elsewhere (--out)";
    case ENOENT:
    case ENOTDIR:
      return "a folder it writes to was removed or renamed while it ran; make it again, or write "
             "elsewhere (--out)";
    case EIO:
      return "the disk reported an I/O error; check the device, or write elsewhere (--out)";
    case EMFILE:
    case ENFILE:
    case ENOMEM:
    case EAGAIN:
      return "the machine ran out of open files, memory or processes; close other programs, "
             "lower --jobs, or raise the limits (ulimit)";
    default:
      return std::nullopt;
  }
}

}  // namespace syncstress
