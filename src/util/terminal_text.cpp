#include "util/terminal_text.hpp"

#include <cstdint>

namespace syncstress {
namespace {

/// The length of the valid UTF-8 sequence at the start of `s` (1 to 4), or 0 if there is none.
std::size_t utf8_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
  const auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
  const std::uint8_t b = byte(0);
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return continuation(1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (b == 0xE0 && byte(1) < 0xA0) return 0;   // overlong
    if (b == 0xED && byte(1) >= 0xA0) return 0;  // a UTF-16 surrogate
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (b == 0xF0 && byte(1) < 0x90) return 0;   // overlong
    if (b == 0xF4 && byte(1) >= 0x90) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

void append_escape(std::string& out, std::uint8_t b) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xF];
}

std::string neutralize(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t n = utf8_length(text);
    const auto b = static_cast<std::uint8_t>(text.front());
    if (n == 1 && b == '\n' && keep_newlines) {
      out += '\n';
    } else if (n == 0 || (n == 1 && (b < 0x20 || b == 0x7F))) {
      append_escape(out, b);
      text.remove_prefix(1);
      continue;
    } else if (n == 2 && b == 0xC2 && static_cast<std::uint8_t>(text[1]) < 0xA0) {
      // U+0080..U+009F, the C1 controls (CSI among them).
      append_escape(out, b);
      append_escape(out, static_cast<std::uint8_t>(text[1]));
    } else {
      out.append(text.substr(0, n));
    }
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) { return neutralize(text, false); }

std::string printable_lines(std::string_view text) { return neutralize(text, true); }

}  // namespace syncstress
