// The text of the helpers for checked and wrapping arithmetic a unit calls
// (`ppy_c_add`, ...): what the native runtime does not spell, written into a
// unit after the runtime, only those it calls.
#include "c_syntax.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

const std::map<std::string, std::string>& helper_texts() {
  // A zero divisor raises what a zero_division guard does (the SDK's table),
  // with CPython's message for integer `//` and `%`.
  static const std::string zero_division = c_string(ir::guard_exception(ir::GuardKind::ZeroDivision).exception);
  static const auto* h = new std::map<std::string, std::string>{
      // Tracebacks (issue 34): a raising helper's last argument is the line its
      // frame shows (0 where the function has no frame), written only when it
      // raises. Upper case: the map writes it before the helpers that use it.
      {"PPY_C_AT", "#define PPY_C_AT(at) ((void)((at) && (ppy_rt_frames->line = (at))))\n"},
      {"ppy_c_add",
       "static inline int64_t ppy_c_add(int64_t a, int64_t b, int64_t at) {\n"
       "  int64_t r;\n"
       "  if (__builtin_add_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_sub",
       "static inline int64_t ppy_c_sub(int64_t a, int64_t b, int64_t at) {\n"
       "  int64_t r;\n"
       "  if (__builtin_sub_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_mul",
       "static inline int64_t ppy_c_mul(int64_t a, int64_t b, int64_t at) {\n"
       "  int64_t r;\n"
       "  if (__builtin_mul_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_neg",
       "static inline int64_t ppy_c_neg(int64_t a, int64_t at) {\n"
       "  if (a == INT64_MIN) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  return -a;\n"
       "}\n"},
      {"ppy_c_shl",
       "static inline int64_t ppy_c_shl(int64_t a, int64_t b, int64_t at) {\n"
       "  if (a == 0) return 0;\n"
       "  if (b < 0 || b > 63) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  int64_t r = (int64_t)((uint64_t)a << b);\n"
       "  if ((r >> b) != a) PPY_C_AT(at), ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_shl_wrap",
       "static inline int64_t ppy_c_shl_wrap(int64_t a, int64_t b) {\n"
       "  return b < 0 || b > 63 ? 0 : (int64_t)((uint64_t)a << b);\n"
       "}\n"},
      {"ppy_c_shr",
       "static inline int64_t ppy_c_shr(int64_t a, int64_t b) {\n"
       "  return b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b;\n"
       "}\n"},
      {"ppy_c_div_trunc", str_cat("static inline int64_t ppy_c_div_trunc(int64_t a, int64_t b, int64_t at) {\n"
                                  "  if (b == 0) PPY_C_AT(at), ppy_rt_raise(",
                                  zero_division,
                                  ", \"integer division or modulo by zero\");\n"
                                  "  if (a == INT64_MIN && b == -1) PPY_C_AT(at), ppy_rt_overflow();\n"
                                  "  return a / b;\n"
                                  "}\n")},
      {"ppy_c_mod_trunc", str_cat("static inline int64_t ppy_c_mod_trunc(int64_t a, int64_t b, int64_t at) {\n"
                                  "  if (b == 0) PPY_C_AT(at), ppy_rt_raise(",
                                  zero_division,
                                  ", \"integer modulo by zero\");\n"
                                  "  return b == -1 ? 0 : a % b;\n"
                                  "}\n")},
  };
  return *h;
}

}  // namespace ppy::backends::cgen
