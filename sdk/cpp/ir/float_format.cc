// Spellings the text format borrows from Python: repr(float), json.dumps(str)
// and repr(str) (the last for the reference's error messages).
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "ppy/ir/text.h"
#include "text_internal.h"

namespace ppy::ir {

std::string format_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // The shortest digits that round-trip, then Python's layout: positional when
  // the decimal exponent is in [-4, 16), scientific (`1e+16`, `1e-05`) otherwise.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, r.ptr - buf);
  bool neg = sci[0] == '-';
  if (neg) sci.remove_prefix(1);
  size_t e = sci.find('e');
  std::string digits;
  digits.push_back(sci[0]);
  if (e > 1) digits.append(sci.substr(2, e - 2));  // skip "d."
  int exp10 = std::atoi(std::string(sci.substr(e + 1)).c_str());
  int decpt = exp10 + 1;  // value = 0.DIGITS * 10^decpt
  std::string out;
  if (neg) out.push_back('-');
  if (decpt > 16 || decpt < -3) {
    out.push_back(digits[0]);
    if (digits.size() > 1) {
      out.push_back('.');
      out.append(digits, 1);
    }
    out.push_back('e');
    out.push_back(exp10 < 0 ? '-' : '+');
    int a = exp10 < 0 ? -exp10 : exp10;
    if (a < 10) out.push_back('0');
    out += std::to_string(a);
  } else if (decpt <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-decpt), '0');
    out += digits;
  } else if (static_cast<size_t>(decpt) >= digits.size()) {
    out += digits;
    out.append(decpt - digits.size(), '0');
    out += ".0";
  } else {
    out.append(digits, 0, decpt);
    out.push_back('.');
    out.append(digits, decpt);
  }
  return out;
}

namespace text_detail {

namespace {
constexpr char kHex[] = "0123456789abcdef";

void append_u16(std::string& out, uint32_t u) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(u >> shift) & 0xF]);
}
}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      // Copy a run of plain ASCII at once.
      const char* q = p + 1;
      while (q < end) {
        unsigned char d = static_cast<unsigned char>(*q);
        if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
        ++q;
      }
      out.append(p, q - p);
      p = q;
      continue;
    }
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default: append_u16(out, c);
      }
      ++p;
      continue;
    }
    uint32_t cp;
    size_t n = decode_utf8(p, end, cp);
    if (n == 0) {
      cp = 0xFFFD;
      n = 1;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      append_u16(out, 0xD800 | (cp >> 10));
      append_u16(out, 0xDC00 | (cp & 0x3FF));
    } else {
      append_u16(out, cp);
    }
    p += n;
  }
  out.push_back('"');
}

namespace {
// Code points Python's str.isprintable() refuses, as far as the messages need.
bool printable(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD) return false;
  if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
      (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF)
    return false;
  if ((cp >= 0xD800 && cp <= 0xF8FF) || cp >= 0xF0000) return false;  // surrogates, private use
  return true;
}
}  // namespace

std::string py_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    uint32_t cp;
    size_t n = decode_utf8(p, end, cp);
    if (n == 0) {  // not UTF-8: show the byte
      unsigned char b = static_cast<unsigned char>(*p);
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
      ++p;
      continue;
    }
    if (cp == '\\' || cp == static_cast<uint32_t>(quote)) {
      out.push_back('\\');
      out.push_back(static_cast<char>(cp));
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (printable(cp)) {
      out.append(p, n);
    } else {
      int width = cp < 0x100 ? 2 : cp < 0x10000 ? 4 : 8;
      out += width == 2 ? "\\x" : width == 4 ? "\\u" : "\\U";
      for (int shift = (width - 1) * 4; shift >= 0; shift -= 4) out.push_back(kHex[(cp >> shift) & 0xF]);
    }
    p += n;
  }
  out.push_back(quote);
  return out;
}

}  // namespace text_detail
}  // namespace ppy::ir
