// Fuzzes the runtime's strings (backends/runtime/ppy_str.c) against a code
// point model: bytes from the input become valid UTF-8 strings, and each
// operation's result is checked as a ppy_str (length, code points, NUL,
// UTF-8) and, where Python's meaning is plain, against std::u32string.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "runtime/fuzz_support.h"

using namespace ppy::fuzz;

namespace {

bool ascii(std::u32string_view s) {
  return std::all_of(s.begin(), s.end(), [](char32_t c) { return c < 0x80; });
}

/// Python's slice of a sequence of length n (PySlice_AdjustIndices).
std::u32string slice(const std::u32string& s, int64_t start, int64_t stop, int64_t step, int omitted) {
  int64_t n = static_cast<int64_t>(s.size());
  auto adjust = [&](int64_t v, bool absent, bool is_start) -> int64_t {
    if (absent) return step > 0 ? (is_start ? 0 : n) : (is_start ? n - 1 : -1);
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
    return v;
  };
  int64_t lo = adjust(start, omitted & 1, true), hi = adjust(stop, omitted & 2, false);
  std::u32string out;
  if (step > 0)
    for (int64_t i = lo; i < hi; i += step) out.push_back(s[static_cast<size_t>(i)]);
  else
    for (int64_t i = lo; i > hi; i += step) out.push_back(s[static_cast<size_t>(i)]);
  return out;
}

int64_t count(const std::u32string& s, const std::u32string& sub) {
  if (sub.empty()) return static_cast<int64_t>(s.size()) + 1;
  int64_t c = 0;
  for (size_t at = s.find(sub); at != std::u32string::npos; at = s.find(sub, at + sub.size())) ++c;
  return c;
}

std::u32string replace(const std::u32string& s, const std::u32string& old, const std::u32string& with) {
  std::u32string out;
  if (old.empty()) {
    for (char32_t c : s) out += with, out.push_back(c);
    return out + with;
  }
  size_t from = 0;
  for (size_t at = s.find(old); at != std::u32string::npos; at = s.find(old, from)) {
    out += s.substr(from, at - from) + with;
    from = at + old.size();
  }
  return out + s.substr(from);
}

std::string cut(const std::string& s) { return s.size() > 60 ? s.substr(0, 60) + "..." : s; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  begin_input();
  FuzzedDataProvider in(data, size);
  std::string a8 = valid_utf8(in.ConsumeRandomLengthString(256));
  std::string b8 = valid_utf8(in.ConsumeRandomLengthString(64));
  std::u32string a = decode(a8), b = decode(b8);
  ppy_str* sa = S(a8);
  ppy_str* sb = S(b8);
  check_str(sa, "literal");
  check_str(sb, "literal");
  auto ctx = [&] { return " of '" + cut(a8) + "' and '" + cut(b8) + "'"; };
  while (in.remaining_bytes() > 0) {
    try {
      switch (in.ConsumeIntegralInRange<int>(0, 17)) {
        case 0: {
          ppy_str* r = ppy_str_concat(sa, sb);
          check_str(r, "concat");
          check(T(r) == a8 + b8, "concat" + ctx());
          break;
        }
        case 1: {
          int64_t n = in.ConsumeIntegralInRange<int64_t>(-3, 12);
          ppy_str* r = ppy_str_repeat(sa, n);
          check_str(r, "repeat");
          std::string want;
          for (int64_t i = 0; i < n; ++i) want += a8;
          check(T(r) == want, "repeat" + ctx());
          break;
        }
        case 2: {
          int64_t i = in.ConsumeIntegralInRange<int64_t>(-300, 300);
          int64_t n = static_cast<int64_t>(a.size());
          try {
            ppy_str* r = ppy_str_index(sa, i);
            check(i >= -n && i < n, "index " + std::to_string(i) + " answered" + ctx());
            check_str(r, "index");
            check(decode(T(r)) == std::u32string(1, a[static_cast<size_t>(i < 0 ? i + n : i)]), "index" + ctx());
          } catch (const Raised& e) {
            check(e.name == "IndexError" && (i < -n || i >= n), "index raised " + e.name + ctx());
          }
          break;
        }
        case 3: {
          int64_t start = in.ConsumeIntegralInRange<int64_t>(-300, 300);
          int64_t stop = in.ConsumeIntegralInRange<int64_t>(-300, 300);
          int64_t step = in.ConsumeIntegralInRange<int64_t>(-5, 5);
          int omitted = in.ConsumeIntegralInRange<int>(0, 3);
          if (step == 0) step = 1;
          ppy_str* r = ppy_str_slice(sa, start, stop, step, omitted);
          check_str(r, "slice");
          check(decode(T(r)) == slice(a, start, stop, step, omitted),
                "slice [" + std::to_string(start) + ":" + std::to_string(stop) + ":" + std::to_string(step) +
                    "] omitted " + std::to_string(omitted) + ctx());
          break;
        }
        case 4: {
          int64_t c = ppy_str_compare(sa, sb);
          int want = a < b ? -1 : a > b ? 1 : 0;
          check((c > 0) - (c < 0) == want, "compare" + ctx());
          check((ppy_str_contains(sa, sb) != 0) == (a.find(b) != std::u32string::npos), "in" + ctx());
          check((ppy_str_startswith(sa, sb) != 0) == (a.rfind(b, 0) == 0), "startswith" + ctx());
          check((ppy_str_endswith(sa, sb) != 0) ==
                    (a.size() >= b.size() && a.compare(a.size() - b.size(), b.size(), b) == 0),
                "endswith" + ctx());
          break;
        }
        case 5: {
          size_t at = a.find(b);
          check(ppy_str_find(sa, sb) == (at == std::u32string::npos ? -1 : static_cast<int64_t>(at)), "find" + ctx());
          check(ppy_str_count(sa, sb) == count(a, b), "count" + ctx());
          break;
        }
        case 6: {
          std::string w8 = valid_utf8(in.ConsumeRandomLengthString(8));
          if (count(a, b) * static_cast<int64_t>(w8.size()) > 100000) break;
          ppy_str* r = ppy_str_replace(sa, sb, S(w8));
          check_str(r, "replace");
          check(decode(T(r)) == replace(a, b, decode(w8)), "replace with '" + w8 + "'" + ctx());
          break;
        }
        case 7: {
          for (ppy_str* r : {ppy_str_upper(sa), ppy_str_lower(sa), ppy_str_strip(sa), ppy_str_lstrip(sa),
                             ppy_str_rstrip(sa), ppy_str_repr(sa)})
            check_str(r, "upper/lower/strip/repr");
          if (ascii(a)) {
            std::string up = a8, low = a8;
            for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            check(T(ppy_str_upper(sa)) == up, "upper" + ctx());
            check(T(ppy_str_lower(sa)) == low, "lower" + ctx());
          }
          std::string repr = T(ppy_str_repr(sa));
          check(repr.size() >= 2 && (repr[0] == '\'' || repr[0] == '"') && repr.back() == repr[0], "repr" + ctx());
          break;
        }
        case 8: {
          int64_t width = in.ConsumeIntegralInRange<int64_t>(-5, 300);
          int64_t n = static_cast<int64_t>(a.size());
          for (ppy_str* r : {ppy_str_zfill(sa, width), ppy_str_center(sa, width)}) {
            check_str(r, "zfill/center");
            check(r->ncp == std::max(n, width), "zfill/center width " + std::to_string(width) + ctx());
          }
          break;
        }
        case 9: {
          if (b.empty()) {
            try {
              ppy_str_split(sa, sb);
              broken("split by an empty separator answered" + ctx());
            } catch (const Raised& e) {
              check(e.name == "ValueError", "split raised " + e.name);
            }
            break;
          }
          ppy_list* parts = ppy_str_split(sa, sb);
          check(ppy_list_len(parts) == count(a, b) + 1, "split's parts" + ctx());
          for (int64_t i = 0; i < ppy_list_len(parts); ++i)
            check_str(reinterpret_cast<ppy_str**>(PPY_LIST_I64(parts))[i], "split part");
          ppy_str* joined = ppy_str_join(sb, parts);
          check_str(joined, "join");
          check(T(joined) == a8, "join of split" + ctx());
          break;
        }
        case 10: {
          ppy_list* parts = ppy_str_split_ws(sa);
          for (int64_t i = 0; i < ppy_list_len(parts); ++i) {
            ppy_str* p = reinterpret_cast<ppy_str**>(PPY_LIST_I64(parts))[i];
            check_str(p, "split() part");
            check(p->len > 0, "split() gave an empty part" + ctx());
          }
          check_str(ppy_str_join(S(" "), parts), "join");
          break;
        }
        case 11: {
          int64_t cp = in.ConsumeIntegralInRange<int64_t>(0, 0x10FFFF);
          if (cp >= 0xD800 && cp <= 0xDFFF) break;
          ppy_str* r = ppy_str_chr(cp);
          check_str(r, "chr");
          check(ppy_str_ord(r) == cp, "ord(chr(" + std::to_string(cp) + "))");
          break;
        }
        case 12: {
          try {
            ppy_str_ord(sa);
            check(a.size() == 1, "ord of a string of length " + std::to_string(a.size()) + " answered");
          } catch (const Raised& e) {
            check(e.name == "TypeError" && a.size() != 1, "ord raised " + e.name + ctx());
          }
          break;
        }
        case 13: {
          try {
            (void)ppy_str_to_i64(sa);
          } catch (const Raised& e) {
            check(e.name == "ValueError" || e.name == "OverflowError", "int() raised " + e.name + ctx());
          }
          try {
            (void)ppy_str_to_f64(sa);
          } catch (const Raised& e) {
            check(e.name == "ValueError", "float() raised " + e.name + ctx());
          }
          (void)ppy_str_isdigit(sa);
          break;
        }
        case 14: {
          int64_t v = in.ConsumeIntegral<int64_t>();
          ppy_str* r = ppy_str_from_i64(v);
          check_str(r, "str(int)");
          check(T(r) == std::to_string(v), "str(" + std::to_string(v) + ")");
          check(ppy_str_to_i64(r) == v, "int(str(" + std::to_string(v) + "))");
          break;
        }
        case 15: {
          ppy_str* r = ppy_str_from_bool(in.ConsumeBool());
          check_str(r, "str(bool)");
          break;
        }
        case 16: {
          sa = ppy_str_concat(sa, sb);  // grow the subject, as a loop does
          a8 += b8;
          a += b;
          if (a8.size() > 4096) return 0;
          break;
        }
        default: {
          std::swap(sa, sb);
          std::swap(a8, b8);
          std::swap(a, b);
          break;
        }
      }
    } catch (const Raised& e) {
      broken("raised " + e.name + ": " + e.message + ctx());
    }
  }
  return 0;
}
