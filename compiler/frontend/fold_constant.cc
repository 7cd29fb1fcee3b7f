#include "fold_constant.h"

#include <algorithm>
#include <cstdint>

namespace ppy::frontend {

std::optional<ConstInfo> fold_unary(const std::string& op, ConstInfo v) {
  if (v.ty == Ty::Str) return std::nullopt;
  if (v.ty == Ty::Bool && op != "not") {
    v.ty = Ty::Int;
    v.i = v.b;
  }
  if (op == "+") return v;
  if (op != "-") return std::nullopt;
  if (v.ty == Ty::Int) {
    if (v.i == INT64_MIN) return std::nullopt;
    v.i = -v.i;
  } else {
    v.f = -v.f;
  }
  return v;
}

namespace {

std::optional<ConstInfo> fold_str(const std::string& op, const ConstInfo& a, const ConstInfo& b) {
  if (a.ty == Ty::Str && b.ty == Ty::Str && op == "+") {
    ConstInfo r = a;
    r.s += b.s;
    return r;
  }
  if (op != "*" || (a.ty == Ty::Str) == (b.ty == Ty::Str)) return std::nullopt;
  const ConstInfo& text = a.ty == Ty::Str ? a : b;
  const ConstInfo& count = a.ty == Ty::Str ? b : a;
  int64_t n = count.i;
  if (count.ty != Ty::Int || n > 4096 || n * static_cast<int64_t>(text.s.size()) > 4096) return std::nullopt;
  ConstInfo r = text;
  r.s.clear();
  for (int64_t k = 0; k < n; ++k) r.s += text.s;
  return r;
}

std::optional<ConstInfo> fold_int(const std::string& op, const ConstInfo& a, const ConstInfo& b) {
  int64_t r = 0;
  bool ovf = false;
  if (op == "+") {
    ovf = __builtin_add_overflow(a.i, b.i, &r);
  } else if (op == "-") {
    ovf = __builtin_sub_overflow(a.i, b.i, &r);
  } else if (op == "*") {
    ovf = __builtin_mul_overflow(a.i, b.i, &r);
  } else if (op == "**" && b.i >= 0) {
    r = 1;
    for (int64_t k = 0; k < b.i && !ovf; ++k) {
      ovf = __builtin_mul_overflow(r, a.i, &r);
      if (r == 0 || r == 1) break;
    }
  } else if ((op == "<<" || op == ">>") && b.i >= 0) {
    int64_t k = std::min<int64_t>(b.i, 63);
    if (op == ">>") {
      r = a.i >> k;
    } else if (a.i != 0) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a.i) << k);
      ovf = b.i > 63 || (r >> k) != a.i;
    }
  } else if ((op == "//" || op == "%") && b.i != 0 && !(a.i == INT64_MIN && b.i == -1)) {
    int64_t q = a.i / b.i, m = a.i % b.i;
    if (m != 0 && ((m < 0) != (b.i < 0))) {
      --q;
      m += b.i;
    }
    r = op == "//" ? q : m;
  } else {
    return std::nullopt;
  }
  ConstInfo c;
  c.ty = ovf ? Ty::Error : Ty::Int;
  c.i = r;
  return c;
}

}  // namespace

std::optional<ConstInfo> fold_binary(const std::string& op, const ConstInfo& a, const ConstInfo& b) {
  if (a.ty == Ty::Bool || b.ty == Ty::Bool) return std::nullopt;
  if (a.ty == Ty::Str || b.ty == Ty::Str) return fold_str(op, a, b);
  if (a.ty == Ty::Int && b.ty == Ty::Int) return fold_int(op, a, b);
  double x = a.ty == Ty::Int ? static_cast<double>(a.i) : a.f;
  double y = b.ty == Ty::Int ? static_cast<double>(b.i) : b.f;
  ConstInfo c;
  c.ty = Ty::Float;
  if (op == "+")
    c.f = x + y;
  else if (op == "-")
    c.f = x - y;
  else if (op == "*")
    c.f = x * y;
  else if (op == "/" && y != 0)
    c.f = x / y;
  else
    return std::nullopt;
  return c;
}

}  // namespace ppy::frontend
