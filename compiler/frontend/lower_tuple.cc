// IR generation, tuples and optional values (docs/runtime.md, "Tuples and optional
// values"): making, coercing, comparing.
#include <algorithm>
#include <map>

#include "callable.h"
#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::extract(Value* t, size_t i, Pos p) {
  return emit("core.tuple_extract", {t}, {t->type().elem(i)}, {{"index", static_cast<int64_t>(i)}}, p);
}

Value* FunctionLowerer::make_tuple(std::vector<Value*> vals, Ty t, Pos p) {
  return emit("core.tuple_make", std::move(vals), {ir_type(t)}, {}, p);
}

Value* FunctionLowerer::zero_of(Ty t, Pos p) {
  if (is_union(t)) return union_make(union_zero(union_alts(t)[0], p), t, 0, p);  // issue 32
  if (is_class(t) || is_iterator(t) || is_callable(t)) return rt("ppy_obj_null", {}, str_type(), p);  // handles
  if (t == Ty::Float) return const_f64(0.0, p);
  if (t == Ty::Str) return str_literal("", p);
  if (t == Ty::Bool || is_none_value(t)) return const_bool(false, p);
  if (is_optional(t)) return none_of(t, p);
  if (is_list(t)) return new_list(t, const_index(0, p), p);
  if (is_tuple(t)) {
    std::vector<Value*> vals;
    for (Ty e : tuple_elems(t)) vals.push_back(zero_of(e, p));
    return make_tuple(std::move(vals), t, p);
  }
  return const_i64(0, p);
}

Value* FunctionLowerer::none_of(Ty opt, Pos p) {
  return make_tuple({const_bool(false, p), zero_of(optional_inner(opt), p)}, opt, p);
}

Value* FunctionLowerer::coerce(Value* v, Ty from, Ty to, Pos p) {
  if (from == to || from == Ty::Error || to == Ty::Error) return v;
  if (from == Ty::Bool && to == Ty::Int) return convert(v, from, to, p);  // unions: a bool where an int is declared
  if (to == Ty::Exc && is_class(from)) return exception_value(v, from, p);  // issue 32: `e: Exception`
  if (to == Ty::Exc && is_none_value(from)) {  // `__exit__`'s exc_type and exc when nothing was raised
    Value* none = rt("ppy_obj_null", {}, str_type(), p);
    return make_tuple({none, none, none, none, none}, Ty::Exc, p);
  }
  if (is_optional(to)) {
    Ty inner = optional_inner(to);
    if (is_none_value(from)) return none_of(to, p);
    if (is_optional(from))
      return make_tuple({extract(v, 0, p), coerce(extract(v, 1, p), optional_inner(from), inner, p)}, to, p);
    return make_tuple({const_bool(true, p), coerce(v, from, inner, p)}, to, p);
  }
  if (is_union(from) || is_union(to)) return union_coerce(v, from, to, p);  // issue 32 (lower_union.cc)
  if (is_tuple(from) && is_tuple(to)) {
    std::vector<Ty> a = tuple_elems(from), b = tuple_elems(to);
    std::vector<Value*> vals;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) vals.push_back(coerce(extract(v, i, p), a[i], b[i], p));
    return make_tuple(std::move(vals), to, p);
  }
  return v;
}

Value* FunctionLowerer::tuple_display(const Expr& e) {
  std::vector<Ty> elems = tuple_elems(e.ty);
  std::vector<Value*> vals;
  for (size_t i = 0; i < e.kids.size(); ++i) {
    Value* v = expr(*e.kids[i]);
    vals.push_back(i < elems.size() ? coerce(v, e.kids[i]->ty, elems[i], e.pos) : v);
  }
  return make_tuple(std::move(vals), e.ty, e.pos);
}

Value* FunctionLowerer::compound_truth(Value* v, Ty t, Pos p) {
  if (is_tuple(t) || is_class(t)) return const_bool(true, p);  // an object is true (no __bool__ or __len__)
  if (is_optional(t)) return and_(extract(v, 0, p), truth(extract(v, 1, p), optional_inner(t), p), p);
  if (is_union(t)) return union_truth(v, t, p);  // issue 32
  return const_bool(false, p);  // None
}

Value* FunctionLowerer::equal(Value* a, Ty at, Value* b, Ty bt, Pos p) {
  if (is_union(at) || is_union(bt)) return union_equal(a, at, b, bt, p);  // issue 32 (lower_union.cc)
  if (is_class(at) && is_class(bt)) return object_equal(a, at, b, bt, p);
  if (is_none_value(at) && is_none_value(bt)) return const_bool(true, p);
  if (is_none_value(at) || is_none_value(bt)) {
    Value* x = is_none_value(at) ? b : a;
    Ty xt = is_none_value(at) ? bt : at;
    if (!is_optional(xt)) return const_bool(false, p);
    return not_(extract(x, 0, p), p);
  }
  if (is_optional(at) && is_optional(bt)) {
    Value* pa = extract(a, 0, p);
    Value* pb = extract(b, 0, p);
    Value* same = equal(extract(a, 1, p), optional_inner(at), extract(b, 1, p), optional_inner(bt), p);
    return and_(cmp("eq", pa, pb, p), or_(not_(pa, p), same, p), p);
  }
  if (is_optional(at) || is_optional(bt)) {
    Value* x = is_optional(at) ? a : b;
    Ty xt = is_optional(at) ? at : bt;
    Value* y = is_optional(at) ? b : a;
    Ty yt = is_optional(at) ? bt : at;
    return and_(extract(x, 0, p), equal(extract(x, 1, p), optional_inner(xt), y, yt, p), p);
  }
  if (is_tuple(at) && is_tuple(bt)) {
    std::vector<Ty> x = tuple_elems(at), y = tuple_elems(bt);
    if (x.size() != y.size()) return const_bool(false, p);
    Value* r = nullptr;
    for (size_t i = 0; i < x.size(); ++i) {
      Value* e = equal(extract(a, i, p), x[i], extract(b, i, p), y[i], p);
      r = r ? and_(r, e, p) : e;
    }
    return r;
  }
  return ordered(a, at, b, bt, "eq", p);
}

Value* FunctionLowerer::list_compare(Value* a, Value* b, Ty t, const std::string& op, Pos p) {
  static const std::map<std::string, const char*> fns = {{"==", "ppy_list_eq"}, {"!=", "ppy_list_eq"},
                                                         {"<", "ppy_list_lt"},  {"<=", "ppy_list_le"},
                                                         {">", "ppy_list_gt"},  {">=", "ppy_list_ge"}};
  Value* r = rt(fns.at(op), {a, b, str_literal(list_desc(t), p)}, Type::i64(), p);
  return cmp(op == "!=" ? "eq" : "ne", r, const_i64(0, p), p);
}

Value* FunctionLowerer::ordered(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p) {
  if (is_list(at)) {
    static const std::map<std::string, const char*> ops = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                                                           {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
    return list_compare(a, b, at, ops.at(pred), p);
  }
  if (at == Ty::Str) return cmp(pred, rt("ppy_str_compare", {a, b}, Type::i64(), p), const_i64(0, p), p);
  Ty common = (at == Ty::Float || bt == Ty::Float) ? Ty::Float : Ty::Int;
  return cmp(pred, convert(a, at, common, p), convert(b, bt, common, p), p);
}

Value* FunctionLowerer::lexicographic(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p) {
  std::vector<Ty> x = tuple_elems(at), y = tuple_elems(bt);
  size_t n = std::min(x.size(), y.size());
  int64_t la = static_cast<int64_t>(x.size()), lb = static_cast<int64_t>(y.size());
  std::string pr = pred;
  bool by_len = pr == "lt" ? la < lb : pr == "le" ? la <= lb : pr == "gt" ? la > lb : la >= lb;
  Value* r = const_bool(by_len, p);
  for (size_t k = n; k-- > 0;) {
    Value* ai = extract(a, k, p);
    Value* bi = extract(b, k, p);
    Value* same = equal(ai, x[k], bi, y[k], p);
    Value* ord = is_tuple(x[k]) ? lexicographic(ai, x[k], bi, y[k], pred, p) : ordered(ai, x[k], bi, y[k], pred, p);
    r = select(same, r, ord, p);
  }
  return r;
}

Value* FunctionLowerer::compare_compound(Value* a, Ty at, Value* b, Ty bt, const std::string& op, Pos p) {
  if ((op == "is" || op == "is not") && is_class(at) && is_class(bt))
    return cmp(op == "is" ? "eq" : "ne", a, b, p);  // identity
  if ((op == "is" || op == "is not") && (at == Ty::Exc || bt == Ty::Exc)) {  // issue 32: `exc is None`
    Value* present = truth(at == Ty::Exc ? a : b, Ty::Exc, p);
    return op == "is not" ? present : not_(present, p);
  }
  if (op == "is" || op == "is not") {
    Value* none = equal(a, at, b, bt, p);  // one side is None: equality is identity
    if (!is_optional(at) && !is_optional(bt) && !(is_none_value(at) && is_none_value(bt))) none = const_bool(false, p);
    return op == "is" ? none : not_(none, p);
  }
  if (op == "==") return equal(a, at, b, bt, p);
  if (op == "!=") return not_(equal(a, at, b, bt, p), p);
  static const std::map<std::string, const char*> preds = {{"<", "lt"}, {"<=", "le"}, {">", "gt"}, {">=", "ge"}};
  return lexicographic(a, at, b, bt, preds.at(op), p);
}

}  // namespace ppy::frontend::lowering
