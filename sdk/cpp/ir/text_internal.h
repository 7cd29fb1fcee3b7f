#pragma once
// Helpers shared by the `ppyir 1` printer and parser (not part of the SDK's API):
// open-addressing tables that clear in O(1), JSON string spelling and Python's
// `repr` of a string for the reference compiler's error wording.

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ppy/util/utf8.h"

namespace ppy::ir::text_detail {

struct PtrHash {
  size_t operator()(const void* p) const {
    uint64_t x = reinterpret_cast<uintptr_t>(p) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(x ^ (x >> 29));
  }
};

struct ViewHash {
  size_t operator()(std::string_view s) const {
    // FNV-1a over 8-byte words: the keys are short names and type spellings.
    uint64_t h = 0xcbf29ce484222325ull ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 32;
    }
    for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
    h *= 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (h >> 31));
  }
};

/// A linear-probing hash map for trivially copyable keys and values. clear()
/// is O(1) (slots carry a generation), so one table serves every function of a
/// module without being rebuilt.
template <class K, class V, class Hash>
class FlatMap {
 public:
  FlatMap() { slots_.resize(16); }

  void clear() {
    size_ = 0;
    if (++gen_ == 0) {
      for (auto& s : slots_) s.gen = 0;
      gen_ = 1;
    }
  }
  void reserve(size_t n) {
    while (slots_.size() < n * 2) grow();
  }
  size_t size() const { return size_; }

  V* find(const K& k) {
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.gen != gen_) return nullptr;
      if (s.key == k) return &s.value;
    }
  }

  /// Inserts `v` unless `k` is present; returns the slot's value and whether it was new.
  std::pair<V*, bool> insert(const K& k, const V& v) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(k) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.gen != gen_) {
        s.gen = gen_;
        s.key = k;
        s.value = v;
        ++size_;
        return {&s.value, true};
      }
      if (s.key == k) return {&s.value, false};
    }
  }

 private:
  struct Slot {
    K key{};
    V value{};
    uint32_t gen = 0;
  };
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (Slot& s : old) {
      if (s.gen != gen_) continue;
      size_t i = Hash{}(s.key) & mask;
      while (slots_[i].gen == gen_) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  uint32_t gen_ = 1;
  size_t size_ = 0;
};

/// `[alnum_]`, with every byte of a UTF-8 sequence counting as alphanumeric
/// (the reference uses Python's Unicode `isalnum`).
inline bool is_name_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

/// Decodes one UTF-8 sequence at `p` (generalised: surrogates allowed, so a
/// lone `\ud800` read from JSON survives). Returns the length, or 0 when the
/// bytes are not UTF-8; `cp` receives the code point.
inline size_t decode_utf8(const char* p, const char* end, uint32_t& cp) {
  auto b = [&](size_t i) { return static_cast<unsigned char>(p[i]); };
  unsigned char c = b(0);
  if (c < 0x80) return cp = c, 1;
  size_t n;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (static_cast<size_t>(end - p) < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  return n;
}

using ppy::append_utf8;

/// `json.dumps(s)`: ASCII only, `\uXXXX` (lower-case hex, surrogate pairs
/// above the BMP) for everything else; bytes that are not UTF-8 print as U+FFFD.
void append_json_string(std::string& out, std::string_view s);

/// Python's `repr(s)` of a str, as the reference's messages quote text.
std::string py_repr(std::string_view s);

}  // namespace ppy::ir::text_detail
