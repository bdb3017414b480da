#include "report/markup.hpp"

namespace syncstress::report {

std::string escape_markup(std::string_view text, const MarkupEscape& how) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += how.apostrophe;
        break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') ||
            (how.del_too && c == 0x7f)) {
          out += how.control;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace syncstress::report
