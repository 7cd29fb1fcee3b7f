#pragma once
/// The arithmetic of canonical IR, shared by constant folding (canonicalize) and
/// the reference interpreter, so a folded constant and an executed op can never
/// disagree. Integers are carried as int64_t whatever their width; `fits` and
/// `wrap` bring a 64-bit result back to the op's type.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/ir.h"

namespace ppy::pipeline::sem {

/// An integer op's `overflow` and a division's `rounding`, as the SDK reads
/// them (ppy/ir/core_ops.h); here with the meaning the folder and the
/// interpreter give an op without them.
using ir::Overflow;
using ir::raises;
using ir::Rounding;

/// The op's overflow mode; an op without the attribute (or with one the
/// verifier refuses) wraps (index arithmetic).
inline Overflow overflow_of(const ir::Operation& op) {
  Overflow o = ir::overflow_of(op);
  return o == Overflow::Absent || o == Overflow::Unknown ? Overflow::Wrap : o;
}

/// The op's rounding mode; trunc unless it is floor (the C meaning of `/` and `%`).
inline Rounding rounding_of(const ir::Operation& op) {
  return ir::rounding_of(op) == Rounding::Floor ? Rounding::Floor : Rounding::Trunc;
}

/// Whether `v` is representable in integer type `t` (bool is 0 or 1).
inline bool fits(int64_t v, ir::Type t) {
  switch (t.kind()) {
    case ir::TypeKind::Bool: return v == 0 || v == 1;
    case ir::TypeKind::I8: return v >= INT8_MIN && v <= INT8_MAX;
    case ir::TypeKind::I16: return v >= INT16_MIN && v <= INT16_MAX;
    case ir::TypeKind::I32: return v >= INT32_MIN && v <= INT32_MAX;
    case ir::TypeKind::U8: return v >= 0 && v <= UINT8_MAX;
    case ir::TypeKind::U16: return v >= 0 && v <= UINT16_MAX;
    case ir::TypeKind::U32: return v >= 0 && v <= int64_t{UINT32_MAX};
    default: return true;
  }
}

/// `v` reduced modulo 2^width of `t`, as that type reads it.
inline int64_t wrap(int64_t v, ir::Type t) {
  switch (t.kind()) {
    case ir::TypeKind::Bool: return v & 1;
    case ir::TypeKind::I8: return static_cast<int8_t>(v);
    case ir::TypeKind::I16: return static_cast<int16_t>(v);
    case ir::TypeKind::I32: return static_cast<int32_t>(v);
    case ir::TypeKind::U8: return static_cast<uint8_t>(v);
    case ir::TypeKind::U16: return static_cast<uint16_t>(v);
    case ir::TypeKind::U32: return static_cast<uint32_t>(v);
    default: return v;
  }
}

/// Integer division; nullopt for a zero divisor or INT64_MIN / -1 (which only
/// a wrapping op may take, as INT64_MIN).
inline std::optional<int64_t> int_div(int64_t a, int64_t b, Rounding r) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if (r == Rounding::Floor && (a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Integer remainder; floor gives the divisor's sign (Python's `%`). Nullopt
/// for a zero divisor.
inline std::optional<int64_t> int_mod(int64_t a, int64_t b, Rounding r) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  int64_t m = a % b;
  if (r == Rounding::Floor && m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

/// Python's float `%`: the result takes the divisor's sign; NaN for b == 0.
inline double float_floor_mod(double a, double b) {
  if (b == 0) return std::fmod(a, b);
  double mod = std::fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

/// Python's float `//` (CPython's float_floor_div); IEEE a/b floored for b == 0.
inline double float_floor_div(double a, double b) {
  if (b == 0) return std::floor(a / b);
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div != 0) {
    double fl = std::floor(div);
    if (div - fl > 0.5) fl += 1.0;
    return fl;
  }
  return std::copysign(0.0, a / b);
}

/// Why an integer power has no i64 answer.
/// `a << b` at `width` bits: a count outside 0..width-1 shifts every bit out
/// (0). `overflowed` says whether a·2^b leaves the signed 64-bit range, which
/// an op with `overflow = "python"` raises as OverflowError (a nonzero `a`
/// shifted by a count outside 0..63 always does).
struct Shifted {
  int64_t value;
  bool overflowed;
};
inline Shifted shl(int64_t a, int64_t b, int width) {
  if (b < 0 || b >= width) return {0, a != 0};
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  return {r, (r >> b) != a};
}

/// `a >> b` at `width` bits: arithmetic for signed and index types, logical
/// otherwise; a count outside 0..width-1 leaves only the sign (0 or -1).
inline int64_t shr(int64_t a, int64_t b, int width, bool is_signed) {
  if (b < 0 || b >= width) return is_signed && a < 0 ? -1 : 0;
  if (is_signed) return a >> b;
  return static_cast<int64_t>(static_cast<uint64_t>(a) >> b);
}

enum class PowError : uint8_t { None, NegativeExponent, Overflow };

/// `base ** exp` on i64 (ppy_pow_i64): exact, or the reason it has no result.
inline PowError pow_i64(int64_t base, int64_t exp, int64_t& out) {
  if (exp < 0) return PowError::NegativeExponent;
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1)
      if (__builtin_mul_overflow(result, base, &result)) return PowError::Overflow;
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) {
      // base*base overflowing only matters if it is used again; |base| >= 2^32
      // with a remaining exponent always overflows the result.
      return PowError::Overflow;
    }
  }
  out = result;
  return PowError::None;
}

/// The float ops of the math dialect, by name (without `math.`).
enum class MathFn : uint8_t { Sqrt, Sin, Cos, Tan, Exp, Exp2, Log, Log2, Log10, Floor, Ceil, Trunc, Abs, Pow };

/// The function for `math.<name>`, or nullopt for another op.
inline std::optional<MathFn> math_fn(std::string_view op_name) {
  static constexpr std::pair<std::string_view, MathFn> kFns[] = {
      {"math.sqrt", MathFn::Sqrt}, {"math.sin", MathFn::Sin},     {"math.cos", MathFn::Cos},
      {"math.tan", MathFn::Tan},   {"math.exp", MathFn::Exp},     {"math.exp2", MathFn::Exp2},
      {"math.log", MathFn::Log},   {"math.log2", MathFn::Log2},   {"math.log10", MathFn::Log10},
      {"math.floor", MathFn::Floor}, {"math.ceil", MathFn::Ceil}, {"math.trunc", MathFn::Trunc},
      {"math.abs", MathFn::Abs},   {"math.pow", MathFn::Pow}};
  for (auto& [n, f] : kFns)
    if (n == op_name) return f;
  return std::nullopt;
}

/// Applies a math function (`b` is read by Pow only).
inline double apply_math(MathFn f, double a, double b = 0) {
  switch (f) {
    case MathFn::Sqrt: return std::sqrt(a);
    case MathFn::Sin: return std::sin(a);
    case MathFn::Cos: return std::cos(a);
    case MathFn::Tan: return std::tan(a);
    case MathFn::Exp: return std::exp(a);
    case MathFn::Exp2: return std::exp2(a);
    case MathFn::Log: return std::log(a);
    case MathFn::Log2: return std::log2(a);
    case MathFn::Log10: return std::log10(a);
    case MathFn::Floor: return std::floor(a);
    case MathFn::Ceil: return std::ceil(a);
    case MathFn::Trunc: return std::trunc(a);
    case MathFn::Abs: return std::fabs(a);
    case MathFn::Pow: return std::pow(a, b);
  }
  return a;
}

/// Comparison predicates of core.cmp (ppy/ir/core_ops.h).
using Pred = ir::Predicate;

/// The predicate of a core.cmp, or nullopt when it has none.
inline std::optional<Pred> pred_of(const ir::Operation& op) { return ir::predicate_of(op); }

template <class T>
inline bool compare(Pred p, T a, T b) {
  switch (p) {
    case Pred::Eq: return a == b;
    case Pred::Ne: return a != b;
    case Pred::Lt: return a < b;
    case Pred::Le: return a <= b;
    case Pred::Gt: return a > b;
    case Pred::Ge: return a >= b;
  }
  return false;
}

/// Float to integer conversion (toward zero); nullopt for NaN, infinities and
/// values outside `t`.
inline std::optional<int64_t> float_to_int(double v, ir::Type t) {
  if (!std::isfinite(v)) return std::nullopt;
  double tv = std::trunc(v);
  if (t.kind() == ir::TypeKind::U64) {
    if (tv < 0 || tv >= 18446744073709551616.0) return std::nullopt;
    return static_cast<int64_t>(static_cast<uint64_t>(tv));
  }
  if (tv < -9223372036854775808.0 || tv >= 9223372036854775808.0) return std::nullopt;
  int64_t i = static_cast<int64_t>(tv);
  if (!fits(i, t)) return std::nullopt;
  return i;
}

/// Integer to float: signedness from the source type.
inline double int_to_float(int64_t v, ir::Type from) {
  return from.kind() == ir::TypeKind::U64 ? static_cast<double>(static_cast<uint64_t>(v))
                                          : static_cast<double>(v);
}

}  // namespace ppy::pipeline::sem
