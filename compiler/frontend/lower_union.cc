// IR generation, unions (issue 32, unions.h): a union value is the tuple
// `(i64 tag, alt0, alt1, ...)`; storing one, narrowing it, testing it with
// isinstance, and what it prints (what it holds).
#include <functional>

#include "lowerer.h"
#include "unions.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::union_zero(Ty t, Pos p) {
  if (is_dict(t) || is_set(t)) return rt("ppy_obj_null", {}, str_type(), p);
  return zero_of(t, p);
}

Value* FunctionLowerer::union_make(Value* v, Ty u, int tag, Pos p) {
  std::vector<Ty> alts = union_alts(u);
  std::vector<Value*> vals{const_i64(tag, p)};
  for (size_t i = 0; i < alts.size(); ++i) vals.push_back(static_cast<int>(i) == tag ? v : union_zero(alts[i], p));
  return make_tuple(std::move(vals), u, p);
}

namespace {

/// The alternative of union `to` a value of alternative type `a` goes to: the
/// one it is assignable to, else a subclass of it (a value narrowed by isinstance).
Ty slot_of(Ty to, Ty a) {
  Ty s = union_slot_for(to, a);
  if (s != Ty::Error || !is_class(a)) return s;
  for (Ty b : union_alts(to))
    if (is_class(b) && is_subclass(b, a)) return b;
  return Ty::Error;
}

}  // namespace

Value* FunctionLowerer::union_convert(Value* v, Ty from, Ty to, Pos p) {
  std::vector<Ty> fa = union_alts(from), ta = union_alts(to);
  Value* tag = extract(v, 0, p);
  Value* new_tag = const_i64(0, p);
  std::vector<Value*> slots;
  for (Ty b : ta) slots.push_back(union_zero(b, p));
  for (size_t i = 0; i < fa.size(); ++i) {
    Ty b = slot_of(to, fa[i]);
    int j = union_tag(to, b);
    if (j < 0) continue;  // an alternative narrowing excluded
    Value* is_i = cmp("eq", tag, const_i64(static_cast<int64_t>(i), p), p);
    new_tag = select(is_i, const_i64(j, p), new_tag, p);
    slots[static_cast<size_t>(j)] =
        select(is_i, coerce(extract(v, i + 1, p), fa[i], b, p), slots[static_cast<size_t>(j)], p);
  }
  std::vector<Value*> vals{new_tag};
  vals.insert(vals.end(), slots.begin(), slots.end());
  return make_tuple(std::move(vals), to, p);
}

Value* FunctionLowerer::union_coerce(Value* v, Ty from, Ty to, Pos p) {
  if (is_union(from) && is_union(to)) return union_convert(v, from, to, p);
  if (is_union(to)) {
    Ty slot = union_slot_for(to, from);
    if (slot == Ty::Error) return v;  // the checker refused it
    return union_make(coerce(v, from, slot, p), to, union_tag(to, slot), p);
  }
  return v;
}

Value* FunctionLowerer::narrow_value(Value* v, Ty declared, Ty ty, Pos p) {
  if (declared == ty || ty == Ty::Error) return v;
  if (is_optional(declared)) {
    if (is_optional(ty)) {  // the optional of a narrower union
      Value* inner = narrow_value(extract(v, 1, p), optional_inner(declared), optional_inner(ty), p);
      return make_tuple({extract(v, 0, p), inner}, ty, p);
    }
    return narrow_value(extract(v, 1, p), optional_inner(declared), ty, p);
  }
  if (is_union(declared)) {
    if (is_union(ty)) return union_convert(v, declared, ty, p);
    int i = union_tag(declared, ty);
    if (i < 0)  // an object narrowed to a subclass of its alternative
      for (Ty a : union_alts(declared))
        if (is_class(a) && is_class(ty) && is_subclass(ty, a)) i = union_tag(declared, a);
    return i < 0 ? v : extract(v, static_cast<size_t>(i) + 1, p);
  }
  return v;  // an object narrowed to a subclass: the same handle
}

Value* FunctionLowerer::on_tag(Value* u, Ty ut, Type result, const std::function<Value*(Value*, Ty)>& fn, Pos p) {
  std::vector<Ty> alts = union_alts(ut);
  Value* tag = extract(u, 0, p);
  std::function<Value*(size_t)> from = [&](size_t i) -> Value* {
    if (i + 1 == alts.size()) return fn(extract(u, i + 1, p), alts[i]);
    return choose(
        cmp("eq", tag, const_i64(static_cast<int64_t>(i), p), p), {"union.is", "union.not", "union.end"},
        [&] { return fn(extract(u, i + 1, p), alts[i]); }, [&] { return from(i + 1); }, result, p);
  };
  return from(0);
}

Value* FunctionLowerer::union_text(Value* v, Ty t, bool repr, Pos p) {
  return on_tag(
      v, t, str_type(), [&](Value* x, Ty a) { return repr ? repr_of(x, a, p) : str_of(x, a, p); }, p);
}

Value* FunctionLowerer::union_truth(Value* v, Ty t, Pos p) {
  return on_tag(
      v, t, Type::i1(), [&](Value* x, Ty a) { return truth(x, a, p); }, p);
}

Value* FunctionLowerer::instance_test(Value* v, Ty t, Ty k, Pos p) {
  if (is_optional(t)) return and_(extract(v, 0, p), instance_test(extract(v, 1, p), optional_inner(t), k, p), p);
  if (is_none_value(t)) return const_bool(false, p);
  if (is_union(t)) {
    std::vector<Ty> alts = union_alts(t);
    Value* tag = extract(v, 0, p);
    Value* r = const_bool(false, p);
    for (size_t i = 0; i < alts.size(); ++i) {
      InstanceSplit s = isinstance_split(alts[i], {k});
      if (s.pass == Ty::Error) continue;
      Value* is_i = cmp("eq", tag, const_i64(static_cast<int64_t>(i), p), p);
      r = or_(r, s.fail == Ty::Error ? is_i : and_(is_i, instance_test(extract(v, i + 1, p), alts[i], k, p), p), p);
    }
    return r;
  }
  if (is_class(t) && is_class(k)) {
    if (is_subclass(t, k)) return const_bool(true, p);
    if (!is_subclass(k, t)) return const_bool(false, p);
    return tid_in(type_id(v, t, p), k, p);
  }
  return const_bool(isinstance_split(t, {k}).pass != Ty::Error, p);
}

Value* FunctionLowerer::isinstance_any(const Expr& e) {
  Pos p = e.pos;
  Value* v = expr(*e.kids[1]);
  std::vector<Ty> ks;
  if (e.kids[2]->kind == ExprKind::Tuple)
    for (auto& k : e.kids[2]->kids) ks.push_back(k->ty);
  else
    ks.push_back(e.kids[2]->ty);
  Value* r = const_bool(false, p);
  for (Ty k : ks) r = or_(r, instance_test(v, e.kids[1]->ty, k, p), p);
  return r;
}

namespace {

/// Whether values of types `a` and `b` (neither a union) compare with `==` (check_tuple.cc's rule).
bool equatable(Ty a, Ty b) {
  if (is_numeric(a) && is_numeric(b)) return true;
  if (a == b) return true;
  if (is_class(a) && is_class(b)) return is_subclass(a, b) || is_subclass(b, a);
  return false;
}

}  // namespace

Value* FunctionLowerer::union_equal(Value* a, Ty at, Value* b, Ty bt, Pos p) {
  if (!is_union(at)) return union_equal(b, bt, a, at, p);
  return on_tag(
      a, at, Type::i1(),
      [&](Value* x, Ty xt) -> Value* {
        if (is_union(bt))
          return on_tag(
              b, bt, Type::i1(),
              [&](Value* y, Ty yt) { return equatable(xt, yt) ? equal(x, xt, y, yt, p) : const_bool(false, p); }, p);
        return equatable(xt, bt) ? equal(x, xt, b, bt, p) : const_bool(false, p);
      },
      p);
}

}  // namespace ppy::frontend::lowering
