// The runtime library (compiled as C) against the interpreter's own spellings:
// the float repr against ppy::ir::format_float over many doubles, printing,
// raising, lists and the arithmetic helpers.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy_obj.h"
#include "ppy_runtime.h"
#include "ppy_str.h"

namespace {

std::string repr(double v) {
  char buf[40];
  int n = ppy_format_f64(v, buf);
  EXPECT_EQ(n, static_cast<int>(std::strlen(buf)));
  return std::string(buf, static_cast<size_t>(n));
}

TEST(RuntimeFloatRepr, KnownSpellings) {
  EXPECT_EQ(repr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(repr(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(repr(1e16), "1e+16");
  EXPECT_EQ(repr(1e-5), "1e-05");
  EXPECT_EQ(repr(123456789.0), "123456789.0");
  EXPECT_EQ(repr(0.5), "0.5");
  EXPECT_EQ(repr(-0.0), "-0.0");
  EXPECT_EQ(repr(0.0), "0.0");
  EXPECT_EQ(repr(1e308 * 10.0), "inf");
  EXPECT_EQ(repr(-1e308 * 10.0), "-inf");
  EXPECT_EQ(repr(std::nan("")), "nan");
  EXPECT_EQ(repr(9999999999999998.0), "9999999999999998.0");
  EXPECT_EQ(repr(0.0001), "0.0001");
  EXPECT_EQ(repr(5e-324), "5e-324");
  EXPECT_EQ(repr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(repr(2.0 * std::pow(2.0, 0.5) / 2.0), "1.4142135623730951");
}

/// Every double class the interpreter's formatter sees, compared with it.
TEST(RuntimeFloatRepr, MatchesTheInterpreterOverManyDoubles) {
  std::mt19937_64 rng(20261203);
  int checked = 0;
  auto check = [&](double v) {
    ASSERT_EQ(repr(v), ppy::ir::format_float(v)) << "bits " << std::hex << std::bit_cast<uint64_t>(v);
    ++checked;
  };
  // Random bit patterns: every exponent, subnormals included.
  for (int i = 0; i < 60000; ++i) {
    double v = std::bit_cast<double>(rng());
    if (!std::isnan(v)) check(v);
  }
  // Powers of two and their neighbours (the lopsided rounding intervals).
  for (int e = -1074; e <= 1023; ++e) {
    double p = std::ldexp(1.0, e);
    check(p);
    check(std::nextafter(p, 0.0));
    check(std::nextafter(p, INFINITY));
    check(-p);
  }
  // Short decimals and their neighbours at every scale, as programs write them.
  std::uniform_int_distribution<int> digits(1, 999999), scale(-30, 30);
  for (int i = 0; i < 30000; ++i) {
    double v = digits(rng) * std::pow(10.0, scale(rng));
    check(v);
    check(std::nextafter(v, 0.0));
  }
  // Exponent boundaries of the layout: 1e-5 .. 1e17.
  for (int e = -6; e <= 17; ++e)
    for (double m : {1.0, 1.5, 9.999999999999999, 2.5}) check(m * std::pow(10.0, e));
  EXPECT_GT(checked, 100000);
}

/// Output and error text captured through the hooks.
struct Captured {
  std::string out, err;
  static void out_fn(void* ctx, const char* b, size_t n) { static_cast<Captured*>(ctx)->out.append(b, n); }
  static void err_fn(void* ctx, const char* b, size_t n) { static_cast<Captured*>(ctx)->err.append(b, n); }
  Captured() { ppy_rt_set_output(out_fn, err_fn, this); }
  ~Captured() { ppy_rt_set_output(nullptr, nullptr, nullptr); }
};

void prints() {
  ppy_print_i64(-9223372036854775807LL - 1);
  ppy_print_space();
  ppy_print_f64(2.5);
  ppy_print_space();
  ppy_print_bool(1);
  ppy_print_space();
  ppy_print_bool(0);
  ppy_print_str("a\0b", 3);
  ppy_print_newline();
}

TEST(Runtime, PrintsAsPython) {
  Captured c;
  EXPECT_EQ(ppy_rt_run(prints), 0);
  EXPECT_EQ(c.out, std::string("-9223372036854775808 2.5 True Falsea\0b\n", 39));
  EXPECT_EQ(c.err, "");
}

void raises_after_printing() {
  ppy_print_i64(7);
  ppy_print_newline();
  ppy_list_new_i64(10);
  ppy_int_floordiv(1, 0);
  ppy_print_i64(8);  // never reached
}

TEST(Runtime, ARaiseFlushesStdoutThenNamesTheExceptionAndEndsWithStatusOne) {
  Captured c;
  EXPECT_EQ(ppy_rt_run(raises_after_printing), 1);
  EXPECT_EQ(c.out, "7\n");
  EXPECT_EQ(c.err, "ZeroDivisionError: integer division or modulo by zero\n");
}

void memory_error() { ppy_list_new_f64((int64_t{1} << 31) + 1); }
void assert_error() { ppy_rt_raise("AssertionError", ""); }
void negative_exponent() { ppy_pow_i64(2, -1); }
void pow_overflow() { ppy_pow_i64(2, 63); }
void nan_to_int() { ppy_float_to_i64(std::nan("")); }
void inf_to_int() { ppy_float_to_i64(-INFINITY); }
void big_to_int() { ppy_float_to_i64(1e19); }
void index_store() {
  ppy_list* l = ppy_list_new_i64(3);
  ppy_list_check(l, 3, 1);
}
void recursion() {
  ppy_rt_set_recursion_limit(50);
  for (int i = 0; i < 60; ++i) ppy_rt_enter();
}

TEST(Runtime, EachErrorHasPythonsWords) {
  struct Case {
    void (*fn)();
    const char* err;
  } cases[] = {
      {memory_error, "MemoryError\n"},
      {assert_error, "AssertionError\n"},
      {negative_exponent, "ValueError: negative exponent\n"},
      {pow_overflow, "OverflowError: integer overflow\n"},
      {nan_to_int, "ValueError: cannot convert float NaN to integer\n"},
      {inf_to_int, "OverflowError: cannot convert float infinity to integer\n"},
      {big_to_int, "OverflowError: integer overflow\n"},
      {index_store, "IndexError: list assignment index out of range\n"},
      {recursion, "RecursionError: maximum recursion depth exceeded\n"},
  };
  for (auto& k : cases) {
    Captured c;
    EXPECT_EQ(ppy_rt_run(k.fn), 1) << k.err;
    EXPECT_EQ(c.err, k.err);
  }
  ppy_rt_set_recursion_limit(1000);
}

TEST(Runtime, ListsAreZeroFilledGrowAndPopWithPythonsWords) {
  ppy_list* a = ppy_list_new_i64(4);
  ppy_list* b = ppy_list_new_f64(-3);
  EXPECT_EQ(ppy_list_len(a), 4);
  EXPECT_EQ(ppy_list_len(b), 0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(PPY_LIST_I64(a)[i], 0);
  for (int i = 0; i < 1000; ++i) ppy_list_append_i64(a, i);
  EXPECT_EQ(ppy_list_len(a), 1004);
  EXPECT_EQ(PPY_LIST_I64(a)[1003], 999);
  EXPECT_EQ(ppy_list_pop_i64(a), 999);
  EXPECT_EQ(ppy_list_len(a), 1003);
  ppy_list_append_f64(b, 2.5);
  ppy_list_append_f64(b, -0.0);
  EXPECT_EQ(std::string(PPY_STR_BYTES(ppy_list_repr(b, ppy_str_literal("f", 1)))), "[2.5, -0.0]");
  ppy_list* nested = ppy_list_new_ptr(0);
  ppy_list* inner = ppy_list_new_ptr(0);
  ppy_list_append_ptr(inner, ppy_str_literal("it's", 4));
  ppy_list_append_ptr(nested, inner);
  ppy_list_append_ptr(nested, ppy_list_new_ptr(0));
  EXPECT_EQ(std::string(PPY_STR_BYTES(ppy_list_repr(nested, ppy_str_literal("[s", 2)))), "[[\"it's\"], []]");
  ppy_list* same = ppy_list_new_ptr(0);
  ppy_list_append_ptr(same, inner);
  ppy_list_append_ptr(same, ppy_list_new_ptr(0));
  EXPECT_EQ(ppy_list_eq(nested, same, ppy_str_literal("[s", 2)), 1);
  ppy_list_append_ptr(inner, ppy_str_literal("x", 1));
  EXPECT_EQ(ppy_list_eq(nested, nested, ppy_str_literal("[s", 2)), 1);
  ppy_list* other = ppy_list_new_ptr(0);
  ppy_list_append_ptr(other, ppy_list_new_ptr(0));
  ppy_list_append_ptr(other, ppy_list_new_ptr(0));
  EXPECT_EQ(ppy_list_eq(nested, other, ppy_str_literal("[s", 2)), 0);
}

void pop_empty() { ppy_list_pop_ptr(ppy_list_new_ptr(0)); }

TEST(Runtime, PopOfAnEmptyListRaisesIndexError) {
  Captured c;
  EXPECT_EQ(ppy_rt_run(pop_empty), 1);
  EXPECT_EQ(c.err, "IndexError: pop from empty list\n");
}

TEST(Runtime, IntegerArithmeticAsPython) {
  EXPECT_EQ(ppy_pow_i64(3, 4), 81);
  EXPECT_EQ(ppy_pow_i64(-2, 63), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ppy_pow_i64(0, 0), 1);
  EXPECT_EQ(ppy_pow_i64(3037000499, 2), 9223372030926249001);
  EXPECT_EQ(ppy_int_floordiv(-7, 2), -4);
  EXPECT_EQ(ppy_int_floordiv(7, -2), -4);
  EXPECT_EQ(ppy_int_floordiv(-7, -2), 3);
  EXPECT_EQ(ppy_int_floordiv(std::numeric_limits<int64_t>::min(), 1), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ppy_int_floormod(-7, 2), 1);
  EXPECT_EQ(ppy_int_floormod(7, -2), -1);
  EXPECT_EQ(ppy_int_floormod(std::numeric_limits<int64_t>::min(), -1), 0);
  EXPECT_EQ(ppy_float_to_i64(-3.9), -3);
}

TEST(Runtime, FloatFloorDivisionAndModuloAsPython) {
  EXPECT_EQ(ppy_float_floordiv(7.5, 2.0), 3.0);
  EXPECT_EQ(ppy_float_floordiv(-7.5, 2.0), -4.0);
  EXPECT_EQ(ppy_float_floormod(-7.5, 2.0), 0.5);
  EXPECT_EQ(ppy_float_floormod(7.5, -2.0), -0.5);
  EXPECT_TRUE(std::signbit(ppy_float_floormod(4.0, -2.0)));
  EXPECT_EQ(ppy_float_floordiv(-0.5, 2.0), -1.0);
  EXPECT_TRUE(std::signbit(ppy_float_floordiv(0.0, -2.0)));
}

TEST(Runtime, TheEmbeddedTextIsEveryFileInDependencyOrder) {
  std::string_view text = ppy::runtime::source();
  // The headers first, the core's before any other: every declaration is
  // there before any definition.
  std::vector<std::string_view> parts = {
      "#ifndef PPY_RUNTIME_H", "#ifndef PPY_LIST_H", "#ifndef PPY_PRINT_H", "#ifndef PPY_EXC_H",
      "#ifndef PPY_STR_H",     "#ifndef PPY_OBJ_H",  "#ifndef PPY_DICT_H",  "/* ppy_runtime.c:",
      "/* ppy_print.c:",       "/* ppy_list.c:",     "/* ppy_value.c:",     "/* ppy_str.c:",
      "/* ppy_exc.c:",         "/* ppy_obj.c:",      "/* ppy_dict.c:",      "/* ppy_set.c:"};
  size_t at = 0;
  for (std::string_view part : parts) {
    size_t found = text.find(part, at);
    ASSERT_NE(found, std::string_view::npos) << part;
    at = found + part.size();
  }
  // What needs the collector is compiled only under PPY_RT_STRINGS.
  EXPECT_TRUE(text.ends_with("#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */\n"));
  // The text stands alone: the files' includes of one another are dropped.
  EXPECT_EQ(text.find("#include \"ppy_"), std::string_view::npos);
  EXPECT_NE(text.find("ppy_format_f64"), std::string_view::npos);
  EXPECT_NE(text.find("ppy_str_concat"), std::string_view::npos);
  EXPECT_NE(text.find("ppy_obj_new"), std::string_view::npos);
  EXPECT_NE(text.find("ppy_dict_set_ptr_ptr"), std::string_view::npos);
}

TEST(Runtime, AnObjectIsZeroWithItsTypeIdFirst) {
  auto* o = static_cast<int64_t*>(ppy_obj_new(40, 7));
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o[0], 7);
  for (int i = 1; i < 5; ++i) EXPECT_EQ(o[i], 0) << i;
  auto* small = static_cast<int64_t*>(ppy_obj_new(0, 3));  // at least the type id
  EXPECT_EQ(small[0], 3);
  EXPECT_EQ(ppy_obj_null(), nullptr);
}

TEST(Runtime, ObjectsInAContainerPrintAsTheReprsGivenForThem) {  // issue 32 (ppy_value.c)
  void* a = ppy_obj_new(8, 1);
  void* b = ppy_obj_new(8, 2);
  ppy_list* outer = ppy_list_new_ptr(0);  // [[a, b], [b]]
  ppy_list* first = ppy_list_new_ptr(0);
  ppy_list* second = ppy_list_new_ptr(0);
  ppy_list_append_ptr(first, a);
  ppy_list_append_ptr(first, b);
  ppy_list_append_ptr(second, b);
  ppy_list_append_ptr(outer, first);
  ppy_list_append_ptr(outer, second);
  ppy_list* objs = ppy_obj_collect(outer, ppy_str_literal("[O", 2));
  ASSERT_EQ(ppy_list_len(objs), 3);
  EXPECT_EQ(static_cast<void**>(objs->data)[0], a);
  EXPECT_EQ(static_cast<void**>(objs->data)[2], b);
  EXPECT_EQ(ppy_list_len(ppy_obj_collect(outer, ppy_str_literal("[o", 2))), 0);  // another class's leaves
  ppy_list* reprs = ppy_list_new_ptr(0);
  ppy_list_append_ptr(reprs, ppy_str_literal("A", 1));
  ppy_list_append_ptr(reprs, ppy_str_literal("B", 1));
  ppy_list_append_ptr(reprs, ppy_str_literal("B", 1));
  EXPECT_EQ(std::string(PPY_STR_BYTES(ppy_list_repr_objs(outer, ppy_str_literal("[o", 2), objs, reprs))),
            "[[A, B], [B]]");
  EXPECT_EQ(std::string(PPY_STR_BYTES(ppy_list_repr(second, ppy_str_literal("o", 1)))), "[<object>]");  // no table now
}

TEST(Runtime, TheDigestIsSixteenHexDigitsOfTheText) {
  std::string_view d = ppy::runtime::digest();
  ASSERT_EQ(d.size(), 16u);
  EXPECT_EQ(d.find_first_not_of("0123456789abcdef"), std::string_view::npos);
}

}  // namespace
