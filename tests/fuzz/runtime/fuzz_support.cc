// The runtime fuzz targets' allocator, raise hook and string helpers.
#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <unordered_set>

namespace ppy::fuzz {
namespace {

/// Every block the runtime holds now.
std::unordered_set<void*>& live() {
  static auto* blocks = new std::unordered_set<void*>;
  return *blocks;
}

void throw_raised(const char* name, const char* message) { throw Raised{name, message ? message : ""}; }

}  // namespace

void begin_input() {
  for (void* p : live()) std::free(p);
  live().clear();
  ppy_rt_gc_init();
  ppy_rt_set_raise_hook(throw_raised);
}

void broken(const std::string& what) {
  std::fprintf(stderr, "runtime fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

std::string valid_utf8(std::string_view b) {
  std::string out;
  size_t i = 0;
  auto cont = [&](size_t k) { return i + k < b.size() && (static_cast<unsigned char>(b[i + k]) & 0xC0) == 0x80; };
  while (i < b.size()) {
    unsigned char c = static_cast<unsigned char>(b[i]);
    size_t n = c < 0x80                   ? 1
               : (c >= 0xC2 && c <= 0xDF) ? 2
               : (c >= 0xE0 && c <= 0xEF) ? 3
               : (c >= 0xF0 && c <= 0xF4) ? 4
                                          : 0;
    bool ok = n > 0;
    for (size_t k = 1; ok && k < n; ++k) ok = cont(k);
    if (ok && n == 3) {
      unsigned char d = static_cast<unsigned char>(b[i + 1]);
      ok = !(c == 0xE0 && d < 0xA0) && !(c == 0xED && d >= 0xA0);  // overlong, surrogate
    }
    if (ok && n == 4) {
      unsigned char d = static_cast<unsigned char>(b[i + 1]);
      ok = !(c == 0xF0 && d < 0x90) && !(c == 0xF4 && d >= 0x90);  // overlong, past U+10FFFF
    }
    if (ok) {
      out.append(b.substr(i, n));
      i += n;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

std::u32string decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}

std::string encode(std::u32string_view cps) {
  std::string out;
  for (char32_t c : cps) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

ppy_str* S(std::string_view s) { return ppy_str_literal(s.data(), static_cast<int64_t>(s.size())); }

std::string T(const ppy_str* s) { return std::string(PPY_STR_BYTES(s), static_cast<size_t>(s->len)); }

void check_str(const ppy_str* s, const std::string& where) {
  check(s != nullptr, where + ": a null string");
  check(s->len >= 0 && PPY_STR_BYTES(s)[s->len] == '\0', where + ": no NUL after the bytes");
  std::string bytes = T(s);
  check(valid_utf8(bytes) == bytes, where + ": not valid UTF-8: " + bytes);
  check(static_cast<int64_t>(decode(bytes).size()) == s->ncp,
        where + ": code point count " + std::to_string(s->ncp) + " for '" + bytes + "'");
}

}  // namespace ppy::fuzz

extern "C" void* ppy_fuzz_alloc(size_t n, int zeroed) {
  void* p = zeroed ? std::calloc(1, n ? n : 1) : std::malloc(n ? n : 1);
  if (p) ppy::fuzz::live().insert(p);
  return p;
}

extern "C" void* ppy_fuzz_realloc(void* p, size_t n) {
  if (p) ppy::fuzz::live().erase(p);
  void* q = std::realloc(p, n ? n : 1);
  if (q) ppy::fuzz::live().insert(q);
  return q;
}
