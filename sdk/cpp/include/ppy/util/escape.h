#pragma once
/// Text from outside the compiler (what a backend says, a source line) made safe
/// to print on a terminal. A control character could move the cursor, retitle
/// the window, clear the screen or write the clipboard (OSC 52), so each is
/// written as an escape instead: C0 controls, DEL and bytes that are not UTF-8
/// as `\xNN`, C1 controls and the bidirectional overrides (which reorder what
/// the reader sees) as `\uNNNN`. Tabs stay; newlines stay only when asked for.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ppy {

namespace detail {
inline void append_hex_escape(std::string& out, const char* prefix, uint32_t v, int digits) {
  static const char hex[] = "0123456789abcdef";
  out += prefix;
  for (int d = digits - 1; d >= 0; --d) out.push_back(hex[(v >> (4 * d)) & 0xF]);
}
}  // namespace detail

/// Appends the character that starts at `text[i]` to `out`, escaped if it is a
/// control, and returns the index of the next one.
inline size_t escape_one(std::string_view text, size_t i, std::string& out, bool keep_newlines = false) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) {
    if ((c >= 0x20 && c != 0x7F) || c == '\t' || (c == '\n' && keep_newlines)) {
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      detail::append_hex_escape(out, "\\x", c, 2);
    }
    return i + 1;
  }
  // A well-formed sequence: its length and code point; anything else is one bad byte.
  size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  uint32_t cp = len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
  for (size_t k = 1; k < len; ++k) {
    auto b = i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
    if ((b & 0xC0) != 0x80) {
      len = 0;
      break;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (len == 0 || overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
    detail::append_hex_escape(out, "\\x", c, 2);
    return i + 1;
  }
  bool control = cp <= 0x9F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
  if (control) detail::append_hex_escape(out, "\\u", cp, 4);
  else out.append(text.substr(i, len));
  return i + len;
}

/// `text` with every control character escaped (see above).
inline std::string escape_control(std::string_view text, bool keep_newlines = false) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) i = escape_one(text, i, out, keep_newlines);
  return out;
}

}  // namespace ppy
