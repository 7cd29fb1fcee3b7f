#include "fold.h"

#include <cmath>
#include <string_view>

#include "ir_util.h"
#include "ppy/pipeline/semantics.h"

namespace ppy::pipeline {
namespace {

using ir::Type;
using ir::TypeKind;

/// Rounds to the type's precision (f32 results are kept as the nearest float).
double round_to(double v, Type t) { return t.kind() == TypeKind::F64 ? v : static_cast<double>(static_cast<float>(v)); }

/// An integer result that wraps or must fit, per the op's overflow mode.
std::optional<int64_t> settle(std::optional<int64_t> v, bool overflowed, sem::Overflow mode, Type t) {
  if (!v) return std::nullopt;
  if (mode == sem::Overflow::Wrap) return sem::wrap(*v, t);
  if (overflowed || !sem::fits(*v, t)) return std::nullopt;
  return v;
}

std::optional<int64_t> fold_int_binary(ir::CoreOp n, const ir::Operation& op, int64_t a, int64_t b, Type t) {
  sem::Overflow mode = sem::overflow_of(op);
  int64_t r = 0;
  int width = t.bit_width();
  switch (n) {
    case ir::CoreOp::Add:
      return settle(static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)),
                    __builtin_add_overflow(a, b, &r), mode, t);
    case ir::CoreOp::Sub:
      return settle(static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)),
                    __builtin_sub_overflow(a, b, &r), mode, t);
    case ir::CoreOp::Mul:
      return settle(static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)),
                    __builtin_mul_overflow(a, b, &r), mode, t);
    case ir::CoreOp::Div: {
      if (b == 0) return std::nullopt;
      auto q = sem::int_div(a, b, sem::rounding_of(op));
      return settle(q ? q : std::optional<int64_t>(INT64_MIN), !q, mode, t);
    }
    case ir::CoreOp::Mod:
      return settle(sem::int_mod(a, b, sem::rounding_of(op)), false, mode, t);
    case ir::CoreOp::And:
      return a & b;
    case ir::CoreOp::Or:
      return a | b;
    case ir::CoreOp::Xor:
      return a ^ b;
    case ir::CoreOp::Shl: {
      sem::Shifted s = sem::shl(a, b, width);
      return settle(s.value, s.overflowed, mode, t);
    }
    case ir::CoreOp::Shr:
      return sem::shr(a, b, width, t.is_signed() || t.kind() == TypeKind::Index);
    default:
      return std::nullopt;
  }
}

std::optional<double> fold_float_binary(ir::CoreOp n, const ir::Operation& op, double a, double b) {
  const ir::Rounding rounding = ir::rounding_of(op);
  bool floor = rounding == ir::Rounding::Floor;
  switch (n) {
    case ir::CoreOp::Add:
      return a + b;
    case ir::CoreOp::Sub:
      return a - b;
    case ir::CoreOp::Mul:
      return a * b;
    case ir::CoreOp::Div:
      if (rounding == ir::Rounding::None) return a / b;
      return floor ? sem::float_floor_div(a, b) : std::trunc(a / b);
    case ir::CoreOp::Mod:
      return floor ? sem::float_floor_mod(a, b) : std::fmod(a, b);
    case ir::CoreOp::MathPow:
      return std::pow(a, b);
    default:
      return std::nullopt;
  }
}

std::optional<ir::Attribute> fold_cast(const ir::Operation& op, Type from, Type to) {
  if (from.is_float()) {
    auto v = float_of(op.operand(0));
    if (!v) return std::nullopt;
    if (to.is_float()) return ir::Attribute(round_to(*v, to));
    if (to.is_bool()) return ir::Attribute(*v != 0);
    if (to.is_integer_like()) {
      auto i = sem::float_to_int(*v, to);
      if (!i) return std::nullopt;
      return ir::Attribute(*i);
    }
    return std::nullopt;
  }
  auto v = int_of(op.operand(0));
  if (!v || !(from.is_integer_like() || from.is_bool())) return std::nullopt;
  if (to.is_float()) return ir::Attribute(round_to(sem::int_to_float(*v, from), to));
  if (to.is_bool()) return ir::Attribute(*v != 0);
  if (to.is_integer_like()) {
    if (!sem::fits(*v, to)) {
      // Only an explicit `wrap` wraps: any other cast that does not fit raises.
      if (ir::overflow_of(op) != ir::Overflow::Wrap) return std::nullopt;
      return ir::Attribute(sem::wrap(*v, to));
    }
    return ir::Attribute(*v);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> int_of(const ir::Value* v) {
  const ir::Attribute* a = const_value(v);
  if (!a || v->type().is_float()) return std::nullopt;
  if (a->is<int64_t>()) return a->as_int();
  if (a->is<bool>()) return a->as_bool() ? 1 : 0;
  return std::nullopt;
}

std::optional<double> float_of(const ir::Value* v) {
  const ir::Attribute* a = const_value(v);
  if (!a || !v->type().is_float()) return std::nullopt;
  if (a->is<double>()) return a->as_float();
  if (a->is<int64_t>()) return static_cast<double>(a->as_int());
  return std::nullopt;
}

ir::Attribute int_attr(int64_t v, Type t) {
  if (t.is_bool()) return ir::Attribute(v != 0);
  return ir::Attribute(v);
}

std::optional<ir::Attribute> fold_constant(const ir::Operation& op) {
  if (op.num_results() != 1 || op.num_operands() == 0) return std::nullopt;
  for (const ir::Value* v : op.operands())
    if (!const_value(v)) return std::nullopt;
  const ir::CoreOp n = ir::core_op(op);
  Type t = op.result()->type();
  Type ot = op.operand(0)->type();
  if (!t.is_scalar()) return std::nullopt;
  if (n == ir::CoreOp::Cast) return fold_cast(op, ot, t);
  if (n == ir::CoreOp::Select) return std::nullopt;  // canonicalize picks the operand
  if (n == ir::CoreOp::Cmp) {
    auto p = sem::pred_of(op);
    if (!p) return std::nullopt;
    if (ot.is_float()) {
      auto a = float_of(op.operand(0)), b = float_of(op.operand(1));
      if (!a || !b) return std::nullopt;
      return ir::Attribute(sem::compare(*p, *a, *b));
    }
    auto a = int_of(op.operand(0)), b = int_of(op.operand(1));
    if (!a || !b) return std::nullopt;
    if (ot.is_int() && !ot.is_signed())
      return ir::Attribute(sem::compare(*p, static_cast<uint64_t>(*a), static_cast<uint64_t>(*b)));
    return ir::Attribute(sem::compare(*p, *a, *b));
  }
  if (t.is_float()) {
    auto a = float_of(op.operand(0));
    if (!a) return std::nullopt;
    if (n == ir::CoreOp::Neg) return ir::Attribute(-*a);
    if (op.num_operands() == 1) {
      auto fn = sem::math_fn(op.name());
      if (!fn || *fn == sem::MathFn::Pow) return std::nullopt;
      return ir::Attribute(round_to(sem::apply_math(*fn, *a), t));
    }
    auto b = float_of(op.operand(1));
    if (!b) return std::nullopt;
    auto r = fold_float_binary(n, op, *a, *b);
    if (!r) return std::nullopt;
    return ir::Attribute(round_to(*r, t));
  }
  if (!t.is_integer_like() && !t.is_bool()) return std::nullopt;
  auto a = int_of(op.operand(0));
  if (!a) return std::nullopt;
  if (n == ir::CoreOp::Neg) {
    if (*a == INT64_MIN && sem::raises(sem::overflow_of(op))) return std::nullopt;
    auto r = settle(static_cast<int64_t>(0 - static_cast<uint64_t>(*a)), *a == INT64_MIN, sem::overflow_of(op), t);
    if (!r) return std::nullopt;
    return int_attr(*r, t);
  }
  if (op.num_operands() != 2) return std::nullopt;
  auto b = int_of(op.operand(1));
  if (!b) return std::nullopt;
  auto r = fold_int_binary(n, op, *a, *b, t);
  if (!r) return std::nullopt;
  return int_attr(*r, t);
}

}  // namespace ppy::pipeline
