// The text runtime (ppy_str_more.h, ppy_num.h, ppy_math.h) against python3's
// answers: edge cases first, Python's exceptions through the raise hook.
#include <gc.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ppy_math.h"
#include "ppy_num.h"
#include "ppy_runtime.h"
#include "ppy_str_more.h"
#include "ppy_vformat.h"
#include "runtime_test_support.h"

namespace {

using namespace ppy::runtime_test;  // NOLINT: the runtime tests' shared helpers

class Text : public RuntimeTest {};

std::vector<std::string> L(const ppy_list* l) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < l->len; ++i) out.push_back(T(static_cast<ppy_str**>(l->data)[i]));
  return out;
}
ppy_list* floats(std::vector<double> v) {
  ppy_list* l = ppy_list_new_f64(static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) PPY_LIST_F64(l)[i] = v[i];
  return l;
}

constexpr int64_t kEnd = INT64_MAX;

TEST_F(Text, FormatsATemplateKnownAtRunTime) {  // ppy_vformat.h, against python3's answers
  ppy_str* b = ppy_vfmt_f64(ppy_vfmt_new(S("{:c}")), S(""), 3.14159);
  ppy_str* c = ppy_vfmt_new(S("{:{w}.{p}f}|{:c}|{!r:>6}|{}|{}"));
  c = ppy_vfmt_f64(c, S(""), 3.14159);
  c = ppy_vfmt_i64(c, S(""), 65);
  c = ppy_vfmt_str(c, S(""), S("ab"));
  c = ppy_vfmt_bool(c, S(""), 1);
  c = ppy_vfmt_obj(c, S(""), S("[1]"), S("[1]"), S("list"));
  c = ppy_vfmt_i64(ppy_vfmt_i64(c, S("w"), 8), S("p"), 2);
  EXPECT_EQ(T(ppy_vfmt_format(c)), "    3.14|A|  'ab'|True|[1]");
  Raised r = raised([&] { ppy_vfmt_format(b); });
  EXPECT_EQ(raised([&] { ppy_vfmt_format(ppy_vfmt_new(S("{:{w}}"))); }).message,
            "Replacement index 0 out of range for positional args tuple");  // the field before its spec
  EXPECT_EQ(r.name, "ValueError");
  EXPECT_EQ(r.message, "Unknown format code 'c' for object of type 'float'");
  ppy_str* p = ppy_vfmt_new(S("%*d|%-*d|%.*f|%+.3d|%(k)s"));
  for (int64_t v : {5, 42, -4, 7, 2}) p = ppy_vfmt_i64(p, S(""), v);
  p = ppy_vfmt_f64(p, S(""), 3.14159);
  p = ppy_vfmt_i64(p, S(""), 5);
  EXPECT_EQ(raised([&] { ppy_vfmt_percent(p, 1); }).message, "format requires a mapping");
  ppy_str* q = ppy_vfmt_new(S("%*d|%-*d|%.*f|%+.3d|%x"));
  for (int64_t v : {5, 42, -4, 7, 2}) q = ppy_vfmt_i64(q, S(""), v);
  q = ppy_vfmt_i64(ppy_vfmt_f64(q, S(""), 3.14159), S(""), 5);
  q = ppy_vfmt_f64(q, S(""), 1.5);
  r = raised([&] { ppy_vfmt_percent(q, 1); });
  EXPECT_EQ(r.name, "TypeError");
  EXPECT_EQ(r.message, "%x format: an integer is required, not float");
  ppy_str* d = ppy_vfmt_i64(ppy_vfmt_i64(ppy_vfmt_new(S("(%(x)+d, %(y)05d) %(x)x")), S("x"), 3), S("y"), -4);
  EXPECT_EQ(T(ppy_vfmt_percent(d, 2)), "(+3, -0004) 3");
  EXPECT_EQ(raised([&] { ppy_vfmt_percent(ppy_vfmt_new(S("%(z)s")), 2); }).message, "'z'");
}

TEST_F(Text, SplitsOnWhitespaceAtMostNTimes) {
  EXPECT_EQ(L(ppy_str_split_ws_max(S("  a b  c "), 1)), (std::vector<std::string>{"a", "b  c "}));
  EXPECT_EQ(L(ppy_str_rsplit_ws_max(S("  a b  c "), 1)), (std::vector<std::string>{"  a b", "c"}));
  EXPECT_EQ(L(ppy_str_split_ws_max(S("   "), 0)), (std::vector<std::string>{}));
  EXPECT_EQ(L(ppy_str_splitlines_keep(S("a\r\nb\rc\n"), 1)), (std::vector<std::string>{"a\r\n", "b\r", "c\n"}));
}

TEST_F(Text, SearchesARangeAsASlice) {
  ppy_str* path = S("/usr/local/lib/python3/site.py");
  EXPECT_EQ(ppy_str_rfind_range(path, S("/"), 0, kEnd), 22);
  EXPECT_EQ(ppy_str_find_range(path, S("lib"), 0, 8), -1);
  EXPECT_EQ(ppy_str_find_range(S("abc"), S(""), 4, kEnd), -1);  // past the end, even empty
  EXPECT_EQ(ppy_str_find_range(S("abc"), S(""), 3, kEnd), 3);
  EXPECT_EQ(ppy_str_find_range(S("héllo"), S("l"), -2, kEnd), 3);  // code points, from the end
  EXPECT_EQ(ppy_str_count_range(S("abc"), S(""), 1, 2), 2);
  EXPECT_EQ(ppy_str_count_range(S("aaaa"), S("aa"), 0, kEnd), 2);
  EXPECT_EQ(ppy_str_startswith_range(path, S("local"), 5, kEnd), 1);
  EXPECT_EQ(ppy_str_endswith_range(path, S(".py"), -3, kEnd), 1);
  EXPECT_EQ(ppy_str_startswith_range(S("abc"), S(""), 4, kEnd), 0);
  Raised r = raised([&] { ppy_str_index_range(path, S("zz"), 0, kEnd); });
  EXPECT_EQ(r.name, "ValueError");
  EXPECT_EQ(r.message, "substring not found");
}

TEST_F(Text, SplitsAndPartitions) {
  ppy_str* path = S("/usr/local/lib");
  EXPECT_EQ(L(ppy_str_rsplit_max(path, S("/"), 1)), (std::vector<std::string>{"/usr/local", "lib"}));
  EXPECT_EQ(L(ppy_str_split_max(path, S("/"), 2)), (std::vector<std::string>{"", "usr", "local/lib"}));
  EXPECT_EQ(L(ppy_str_split_max(path, S("/"), 0)), (std::vector<std::string>{"/usr/local/lib"}));
  EXPECT_EQ(L(ppy_str_splitlines(S("a\nb\r\nc\rd\n"))), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(L(ppy_str_splitlines(S(""))), (std::vector<std::string>{}));
  EXPECT_EQ(L(ppy_str_partition(S("k=v=w"), S("="))), (std::vector<std::string>{"k", "=", "v=w"}));
  EXPECT_EQ(L(ppy_str_rpartition(S("k=v=w"), S("="))), (std::vector<std::string>{"k=v", "=", "w"}));
  EXPECT_EQ(L(ppy_str_rpartition(S("abc"), S(";"))), (std::vector<std::string>{"", "", "abc"}));
  EXPECT_EQ(raised([&] { ppy_str_partition(S("abc"), S("")); }).message, "empty separator");
}

TEST_F(Text, CasesPadsAndStrips) {
  EXPECT_EQ(T(ppy_str_title(S("they're bill's 3rd"))), "They'Re Bill'S 3Rd");
  EXPECT_EQ(T(ppy_str_capitalize(S("hELLO wORLD"))), "Hello world");
  EXPECT_EQ(T(ppy_str_swapcase(S("aBc1"))), "AbC1");
  EXPECT_EQ(ppy_str_isupper(S("A1")), 1);
  EXPECT_EQ(ppy_str_islower(S("1")), 0);
  EXPECT_EQ(ppy_str_isalpha(S("")), 0);
  EXPECT_EQ(ppy_str_isspace(S(" \t\n")), 1);
  EXPECT_EQ(T(ppy_str_center_fill(S("mid"), 8, S("*"))), "**mid***");  // CPython puts the odd one right here
  EXPECT_EQ(T(ppy_str_ljust(S("é"), 4, S("ü"))), "éüüü");
  EXPECT_EQ(raised([&] { ppy_str_rjust(S("x"), 3, S("ab")); }).message,
            "The fill character must be exactly one character long");
  EXPECT_EQ(T(ppy_str_strip_chars(S("xyhixy"), S("yx"))), "hi");
  EXPECT_EQ(T(ppy_str_rstrip_chars(S("aéé"), S("é"))), "a");
  EXPECT_EQ(T(ppy_str_expandtabs(S("a\tbc\td"), 4)), "a   bc  d");
  EXPECT_EQ(T(ppy_str_removeprefix(S("test_x"), S("test_"))), "x");
}

TEST_F(Text, IntOfAStrInABase) {
  EXPECT_EQ(ppy_str_to_i64_base(S("0x1f"), 16), 31);
  EXPECT_EQ(ppy_str_to_i64_base(S(" -0b101 "), 0), -5);
  EXPECT_EQ(ppy_str_to_i64_base(S("zz"), 36), 1295);
  EXPECT_EQ(ppy_str_to_i64_base(S("0"), 0), 0);
  EXPECT_EQ(raised([&] { ppy_str_to_i64_base(S("010"), 0); }).message, "invalid literal for int() with base 0: '010'");
  EXPECT_EQ(raised([&] { ppy_str_to_i64_base(S("9"), 8); }).message, "invalid literal for int() with base 8: '9'");
  EXPECT_EQ(raised([&] { ppy_str_to_i64_base(S("1"), 37); }).message, "int() base must be >= 2 and <= 36, or 0");
  EXPECT_EQ(raised([&] { ppy_str_to_i64_base(S("1__0"), 10); }).name, "ValueError");
}

TEST_F(Text, RoundsAsCPython) {
  EXPECT_EQ(ppy_f64_round(2.675, 2), 2.67);
  EXPECT_EQ(ppy_f64_round(0.125, 2), 0.12);
  EXPECT_EQ(ppy_f64_round(2.5, 0), 2.0);
  EXPECT_EQ(ppy_f64_round(1234.5678, -2), 1200.0);
  EXPECT_TRUE(std::signbit(ppy_f64_round(-0.4, 0)));
  EXPECT_EQ(ppy_i64_round(1250, -2), 1200);
  EXPECT_EQ(ppy_i64_round(1350, -2), 1400);
  EXPECT_EQ(ppy_i64_round(-1250, -2), -1200);
  EXPECT_EQ(ppy_pow_mod_i64(3, -1, 7), 5);
  EXPECT_EQ(ppy_pow_mod_i64(3, 2, -5), -1);
  EXPECT_EQ(ppy_pow_mod_i64(5, 0, 1), 0);
  EXPECT_EQ(raised([] { ppy_pow_mod_i64(2, -1, 4); }).message, "base is not invertible for the given modulus");
}

TEST_F(Text, MathAsCPython) {
  EXPECT_EQ(ppy_math_fsum(floats({0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1})), 1.0);
  EXPECT_EQ(ppy_math_fsum(floats({1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50})), 1e-100);
  EXPECT_EQ(raised([&] { ppy_math_fsum(floats({INFINITY, -INFINITY})); }).message, "-inf + inf in fsum");
  EXPECT_EQ(ppy_math_isqrt(INT64_MAX), 3037000499);
  EXPECT_EQ(ppy_math_comb(60, 30), 118264581564861424);
  EXPECT_EQ(raised([] { ppy_math_comb(70, 35); }).name, "OverflowError");
  EXPECT_EQ(ppy_math_gcd(-12, 18), 6);
  EXPECT_EQ(ppy_math_lcm(-4, 6), 12);
  EXPECT_EQ(ppy_math_isclose(1.0, 1.0 + 1e-10, 1e-9, 0.0), 1);
  EXPECT_EQ(ppy_math_isclose(INFINITY, 1e308, 1.0, 0.0), 0);
  EXPECT_EQ(raised([] { ppy_math_asin(1.5); }).message, "math domain error");
  EXPECT_EQ(raised([] { ppy_math_cosh(1000.0); }).message, "math range error");
  EXPECT_EQ(raised([] { ppy_math_log_base(2.0, 1.0); }).name, "ZeroDivisionError");
  EXPECT_EQ(ppy_math_hypot(INFINITY, NAN), INFINITY);
  EXPECT_EQ(ppy_math_degrees(3.141592653589793), 180.0);
}

}  // namespace
