#pragma once
/// `str_cat(a, b, ...)`: absl::StrCat for std::string_view too. Debian's Abseil is
/// built with its own string_view, which absl::StrCat does not take from std.

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>

namespace ppy {

namespace detail {
inline void append_one(std::string& out, std::string_view s) { out.append(s); }
inline void append_one(std::string& out, char c) { out.push_back(c); }
template <std::integral T>
  requires(!std::same_as<T, char> && !std::same_as<T, bool>)
void append_one(std::string& out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}
}  // namespace detail

template <class... Args>
std::string str_cat(const Args&... args) {
  std::string out;
  (detail::append_one(out, args), ...);
  return out;
}

template <class... Args>
void str_append(std::string& out, const Args&... args) {
  (detail::append_one(out, args), ...);
}

}  // namespace ppy
