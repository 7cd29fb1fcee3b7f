#pragma once
/// UTF-8 encoding shared by the readers of text (the ppyir parser, the frontend's lexer).

#include <cstdint>
#include <cstddef>
#include <string>
#include <string_view>

namespace ppy {

/// Appends code point `cp` as UTF-8. A lone surrogate is written in its 3-byte
/// form, as both readers need to round-trip what they were given.
inline void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace ppy

namespace ppy {

/// Where UTF-8 text first goes wrong: the byte's offset and why, in the words
/// of Python's codec ("invalid start byte", "invalid continuation byte",
/// "unexpected end of data"). Surrogates and overlong forms are invalid, as there.
struct Utf8Error {
  size_t offset = 0;
  const char* reason = nullptr;  ///< null when the text is valid
  explicit operator bool() const { return reason != nullptr; }
};

/// Checks that `text` is UTF-8; the first problem, or a null reason.
inline Utf8Error check_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0) return {i, "invalid start byte"};
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    for (size_t k = 1; k < len; ++k) {
      if (i + k >= n) return {i, "unexpected end of data"};
      unsigned char b = s[i + k];
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return {i, "invalid continuation byte"};
    }
    i += len;
  }
  return {};
}

}  // namespace ppy
