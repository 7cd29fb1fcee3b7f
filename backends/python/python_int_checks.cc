// The i64 range checks of integer ops whose IR says they raise
// OverflowError, and what branches say of integers that makes a check
// needless.
#include <cstdio>
#include <unordered_map>

#include "ppy/util/str_cat.h"
#include "python_writer.h"

namespace ppy::backends::python {
namespace {

/// An op whose check is `MIN <= x <= MAX` on the exact (Python) result.
bool range_checked(const ir::Operation& op) {
  switch (ir::core_op(op)) {
    case ir::CoreOp::Add:
    case ir::CoreOp::Sub:
    case ir::CoreOp::Mul:
    case ir::CoreOp::Neg:
      return needs_check(op);
    default:
      return false;
  }
}

/// What a range-checked `core.add`/`core.sub` adds to its other operand when
/// that is a constant's: `x + k`, `k + x`, `x - k`. The operand is in `*x`.
std::optional<__int128> constant_offset(const ir::Operation& op, const ir::Value** x) {
  ir::CoreOp c = ir::core_op(op);
  if ((c != ir::CoreOp::Add && c != ir::CoreOp::Sub) || !range_checked(op)) return std::nullopt;
  if (auto k = const_int(op.operand(1))) {
    *x = op.operand(0);
    return c == ir::CoreOp::Add ? __int128(*k) : -__int128(*k);
  }
  if (auto k = const_int(op.operand(0)); k && c == ir::CoreOp::Add) {
    *x = op.operand(1);
    return *k;
  }
  return std::nullopt;
}

/// `v` as a Python literal, in hex as the range checks write their bounds.
std::string hex_literal(__int128 v) {
  unsigned __int128 m = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  char digits[24];
  std::snprintf(digits, sizeof digits, "0x%llX", static_cast<unsigned long long>(m));
  return str_cat(v < 0 ? "-" : "", digits);
}

}  // namespace

std::string_view str_attr(const ir::Operation& op, std::string_view key) {
  const ir::Attribute* a = op.attr(key);
  return a && a->is<std::string>() ? std::string_view(a->as_string()) : std::string_view();
}

bool int_type(ir::Type t) { return t.kind() == ir::TypeKind::I64 || t.kind() == ir::TypeKind::Index; }

bool safe_divisor(const ir::Operation& op) {
  std::optional<int64_t> k = ir::int_constant(op.operand(1));
  return k && *k != -1;
}

bool needs_check(const ir::Operation& op) {
  if (op.num_results() != 1 || !int_type(op.result(0)->type())) return false;
  switch (ir::core_op(op)) {
    case ir::CoreOp::Add:
    case ir::CoreOp::Sub:
    case ir::CoreOp::Mul:
    case ir::CoreOp::Neg:
      return ir::raises_on_overflow(op);
    case ir::CoreOp::Div:
      return ir::raises_on_overflow(op) && !safe_divisor(op);
    case ir::CoreOp::Cast:
      return op.operand(0)->type().is_float();
    default:
      return false;
  }
}

std::optional<int64_t> const_int(const ir::Value* v) {
  if (!int_type(v->type())) return std::nullopt;
  return ir::int_constant(v);
}

ModuleWriter::Bounds ModuleWriter::implied(const ir::Value* c, bool truth) {
  Bounds b;
  const ir::Operation* d = c->def();
  if (!d || ir::core_op(*d) != ir::CoreOp::Cmp || !int_type(d->operand(0)->type())) return b;
  std::optional<ir::Predicate> pred = ir::predicate_of(*d);
  if (!pred) return b;
  using P = ir::Predicate;
  P p = truth ? *pred : ir::negated(*pred);
  const ir::Value* x = d->operand(0);
  const ir::Value* y = d->operand(1);
  if (p == P::Gt || p == P::Ge) {
    std::swap(x, y);
    p = p == P::Gt ? P::Lt : P::Le;
  }
  constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;
  auto kx = const_int(x), ky = const_int(y);
  if (p == P::Lt) {  // x < y
    b.upper[x] = ky ? *ky - 1 : kMax - 1;
    b.lower[y] = kx ? *kx + 1 : kMin + 1;
    if (ky && *ky == kMin) b.upper.erase(x);
    if (kx && *kx == kMax) b.lower.erase(y);
  } else if (p == P::Le) {  // x <= y
    if (ky) b.upper[x] = *ky;
    if (kx) b.lower[y] = *kx;
  } else if (p == P::Eq) {
    if (ky) b.upper[x] = b.lower[x] = *ky;
    if (kx) b.upper[y] = b.lower[y] = *kx;
  }
  return b;
}

bool ModuleWriter::add_fits(const ir::Value* v, int64_t k) {
  if (auto c = const_int(v)) {
    int64_t r;
    return !__builtin_add_overflow(*c, k, &r);
  }
  if (k >= 0) {
    auto it = bounds_.upper.find(v);
    return it != bounds_.upper.end() && it->second <= INT64_MAX - k;
  }
  auto it = bounds_.lower.find(v);
  return it != bounds_.lower.end() && it->second >= INT64_MIN - k;
}

bool ModuleWriter::cannot_overflow(const ir::Operation& op) {
  ir::CoreOp c = ir::core_op(op);
  if (c != ir::CoreOp::Add && c != ir::CoreOp::Sub) return false;
  auto k1 = const_int(op.operand(1));
  if (c == ir::CoreOp::Add) {
    if (k1) return add_fits(op.operand(0), *k1);
    if (auto k0 = const_int(op.operand(0))) return add_fits(op.operand(1), *k0);
    return false;
  }
  return k1 && *k1 != INT64_MIN && add_fits(op.operand(0), -*k1);
}

void ModuleWriter::find_fused_checks(const ir::Function& f) {
  fused_.clear();
  std::unordered_map<const ir::Value*, int> uses;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) ++uses[v];
    for (auto& s : op.successors())
      for (const ir::Value* v : s.args) ++uses[v];
  });
  std::set<const ir::Operation*> sums;  // a sum that covers an inner op is not inner itself
  ir::walk(f.body(), [&](const ir::Operation& op) {
    const ir::Value* x = nullptr;
    if (!constant_offset(op, &x)) return;
    const ir::Operation* d = x->def();
    if (!d || d->parent() != op.parent() || !range_checked(*d) || uses[x] != 1 || sums.count(d)) return;
    fused_.insert(d);
    sums.insert(&op);
  });
}

bool ModuleWriter::covers_inner(const ir::Operation& op) {
  const ir::Value* x = nullptr;
  return constant_offset(op, &x) && values_->inlined(x) && fused_.count(x->def());
}

std::string ModuleWriter::check_text(const ir::Operation& op, const std::string& name) {
  if (covers_inner(op)) {
    const ir::Value* x = nullptr;
    __int128 k = *constant_offset(op, &x);
    __int128 hi = std::min<__int128>(INT64_MAX, INT64_MAX + k), lo = std::max<__int128>(INT64_MIN, INT64_MIN + k);
    return str_cat("if ", name, " > ", hex_literal(hi), " or ", name, " < ", hex_literal(lo), ":");
  }
  int side = 0;  // +1: can only pass the top; -1: only the bottom
  ir::CoreOp c = ir::core_op(op);
  if (c == ir::CoreOp::Add || c == ir::CoreOp::Sub) {
    auto k = const_int(op.operand(1));
    if (!k && c == ir::CoreOp::Add) k = const_int(op.operand(0));
    if (k && *k != 0) side = (*k > 0) == (c == ir::CoreOp::Add) ? 1 : -1;
  }
  if (side > 0) return str_cat("if ", name, " > 0x7FFFFFFFFFFFFFFF:");
  if (side < 0) return str_cat("if ", name, " < -0x8000000000000000:");
  // Two plain comparisons: CPython runs them about a quarter faster than the
  // chained `not MIN <= x <= MAX`, and the value is almost always in range.
  return str_cat("if ", name, " > 0x7FFFFFFFFFFFFFFF or ", name, " < -0x8000000000000000:");
}

}  // namespace ppy::backends::python
