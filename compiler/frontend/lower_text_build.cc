// IR generation, an f-string built in one str (speedsort; docs/runtime.md,
// "Text built in place"): a builder made with room for the literal parts and a
// guess per field, each part appended to it in order (ints by `d` specs and
// floats by `.Nf` specs written straight into it, `s * n` repeated into it),
// then its end as the str. The fields are evaluated in order, each formatted
// before the next is evaluated, as Python does.
#include "lowerer.h"

namespace ppy::frontend::lowering {

namespace {

/// The room a builder starts with per field: an int's digits or a short word.
constexpr int64_t kFieldRoom = 16;

/// Whether `x` is `s * n` (or `n * s`) of a str by an int: repeated into the builder, no str made.
bool str_repeat(const Expr& x) {
  if (x.kind != ExprKind::Binary || x.str != "*" || x.ty != Ty::Str || !x.target.empty() || x.kids.size() != 2)
    return false;
  Ty a = x.kids[0]->ty, b = x.kids[1]->ty;
  return (a == Ty::Str && (b == Ty::Int || b == Ty::Bool)) || (b == Ty::Str && (a == Ty::Int || a == Ty::Bool));
}

}  // namespace

Value* FunctionLowerer::fstring_built(const Expr& e) {
  Pos p = e.pos;
  int64_t room = 0;
  for (auto& part : e.kids) room += part->kind == ExprKind::Str ? static_cast<int64_t>(part->str.size()) : kFieldRoom;
  Value* b = rt("ppy_fmt_new", {const_i64(room, p)}, str_type(), p);
  for (auto& part : e.kids) {
    if (part->kind == ExprKind::Str) {
      b = rt("ppy_fmt_str", {b, str_literal(part->str, p)}, str_type(), p);
      continue;
    }
    const Expr& x = *part->kids[0];
    if (part->ival == 0 && part->str.empty() && str_repeat(x)) {
      Value* l = expr(*x.kids[0]);
      Value* r = expr(*x.kids[1]);
      bool str_first = x.kids[0]->ty == Ty::Str;
      Value* s = str_first ? l : r;
      Value* n = str_first ? convert(r, x.kids[1]->ty, Ty::Int, p) : convert(l, x.kids[0]->ty, Ty::Int, p);
      b = rt("ppy_fmt_repeat", {b, s, n}, str_type(), p);
      continue;
    }
    Ty t;
    Value* v = fstring_field_value(*part, t, p);
    if (part->str.empty()) {
      b = t == Ty::Int ? rt("ppy_fmt_i64", {b, v, str_literal("", p)}, str_type(), p)
                       : rt("ppy_fmt_str", {b, str_of(v, t, p)}, str_type(), p);
      continue;
    }
    Value* spec = field_spec(*part, p);
    if (t == Ty::Str)
      b = rt("ppy_fmt_str", {b, rt("ppy_str_format_str", {v, spec}, str_type(), p)}, str_type(), p);
    else if (t == Ty::Float)
      b = rt("ppy_fmt_f64", {b, v, spec}, str_type(), p);
    else
      b = rt("ppy_fmt_i64", {b, cast(v, Type::i64(), p), spec}, str_type(), p);
  }
  return rt("ppy_fmt_end", {b}, str_type(), p);
}

}  // namespace ppy::frontend::lowering
