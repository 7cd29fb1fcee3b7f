// Fuzzes the runtime's number formatting (backends/runtime/ppy_print.c,
// ppy_str.c): a float's repr reads back as the same float and is no longer
// than the shortest %.17g that does; an int's str is std::to_string's and
// reads back; and format(v, spec) of an int, a float or a str with an
// arbitrary spec either raises ValueError or gives a well-formed string,
// checked against printf where the spec is one C spells too.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/fuzz_support.h"

using namespace ppy::fuzz;

namespace {

void check_float_repr(double v) {
  char buf[64] = {0};
  int n = ppy_format_f64(v, buf);
  check(n > 0 && n < 40 && static_cast<size_t>(n) == std::strlen(buf), "ppy_format_f64's length");
  std::string text(buf, static_cast<size_t>(n));
  check_str(ppy_str_from_f64(v), "str(float)");
  check(T(ppy_str_from_f64(v)) == text, "str(float) and repr differ for " + text);
  if (std::isnan(v)) {
    check(text == "nan", "repr of a NaN: " + text);
    return;
  }
  if (std::isinf(v)) {
    check(text == (v > 0 ? "inf" : "-inf"), "repr of an infinity: " + text);
    return;
  }
  double back = std::strtod(buf, nullptr);
  check(back == v && std::signbit(back) == std::signbit(v), "repr " + text + " does not read back");
  // Shortest: no %.{p}g with fewer digits reads back (Python's repr).
  std::string mantissa;  // the significant digits: no sign, point, exponent, or zeros around them
  for (char c : text) {
    if (c == 'e') break;
    if (c >= '0' && c <= '9') mantissa.push_back(c);
  }
  mantissa.erase(0, mantissa.find_first_not_of('0'));
  mantissa.erase(mantissa.find_last_not_of('0') + 1);
  int digits = static_cast<int>(mantissa.size());
  for (int p = 1; p < 17; ++p) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*g", p, v);
    if (std::strtod(shorter, nullptr) == v) {
      check(digits <= p, "repr " + text + " is longer than " + shorter);
      break;
    }
  }
  check(ppy_str_to_f64(S(text)) == v, "float(repr) of " + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  begin_input();
  FuzzedDataProvider in(data, size);
  while (in.remaining_bytes() > 0) {
    try {
      switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: {
          uint64_t bits = in.ConsumeIntegral<uint64_t>();
          double v;
          std::memcpy(&v, &bits, sizeof v);
          check_float_repr(v);
          break;
        }
        case 1:
          check_float_repr(static_cast<double>(in.ConsumeIntegral<int32_t>()) /
                           static_cast<double>(in.ConsumeIntegralInRange<int32_t>(1, 1000000)));
          break;
        case 2: {
          int64_t v = in.ConsumeIntegral<int64_t>();
          ppy_str* s = ppy_str_from_i64(v);
          check(T(s) == std::to_string(v), "str(int)");
          check(ppy_str_to_i64(s) == v, "int(str(int))");
          check(T(ppy_str_format_i64(v, S(""))) == std::to_string(v), "format(int, '')");
          int width = in.ConsumeIntegralInRange<int>(0, 40);
          char want[64];
          std::snprintf(want, sizeof want, "%*lld", width, static_cast<long long>(v));
          check(T(ppy_str_format_i64(v, S(std::to_string(width)))) == want, "format(int, width)");
          std::snprintf(want, sizeof want, "%llx", static_cast<unsigned long long>(v < 0 ? -(v + 1) + 1ull : v));
          if (v >= 0) check(T(ppy_str_format_i64(v, S("x"))) == want, "format(int, 'x')");
          break;
        }
        case 3: {
          uint64_t bits = in.ConsumeIntegral<uint64_t>();
          double v;
          std::memcpy(&v, &bits, sizeof v);
          int precision = in.ConsumeIntegralInRange<int>(0, 30);
          char want[512];
          if (std::isfinite(v) && std::fabs(v) < 1e300) {
            std::snprintf(want, sizeof want, "%.*f", precision, v);
            check(T(ppy_str_format_f64(v, S("." + std::to_string(precision) + "f"))) == want,
                  std::string("format(float, '.Nf') against printf's ") + want);
            std::snprintf(want, sizeof want, "%.*e", precision, v);
            check(T(ppy_str_format_f64(v, S("." + std::to_string(precision) + "e"))) == want,
                  std::string("format(float, '.Ne') against printf's ") + want);
          }
          break;
        }
        default: {
          // An arbitrary spec: ValueError (OverflowError for 'c' past U+10FFFF), or a well-formed string.
          std::string spec = valid_utf8(in.ConsumeRandomLengthString(24));
          // A width of 10**10 is a 10 GB string, for Python too: keep runs of digits short.
          std::string bounded;
          int run = 0;
          for (char c : spec) {
            run = c >= '0' && c <= '9' ? run + 1 : 0;
            if (run <= 4) bounded.push_back(c);
          }
          spec = bounded;
          int64_t iv = in.ConsumeIntegral<int64_t>();
          double fv = in.ConsumeFloatingPoint<double>();
          std::string sv = valid_utf8(in.ConsumeRandomLengthString(16));
          for (int which = 0; which < 3; ++which) {
            try {
              ppy_str* r = which == 0   ? ppy_str_format_i64(iv, S(spec))
                           : which == 1 ? ppy_str_format_f64(fv, S(spec))
                                        : ppy_str_format_str(S(sv), S(spec));
              check_str(r, "format with spec '" + spec + "'");
            } catch (const Raised& e) {
              // python3's `format(n, 'c')` of a number past U+10FFFF is OverflowError.
              bool char_range = which == 0 && e.name == "OverflowError" && e.message == "%c arg not in range(0x110000)";
              check(e.name == "ValueError" || char_range,
                    "format with spec '" + spec + "' raised " + e.name + ": " + e.message);
            }
          }
          break;
        }
      }
    } catch (const Raised& e) {
      broken("raised " + e.name + ": " + e.message);
    }
  }
  return 0;
}
