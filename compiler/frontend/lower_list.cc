// IR generation, lists (docs/runtime.md, "Lists"): displays, the runtime's element
// conventions, list(), the builtins and methods of lists, `[x] * n`.
#include <cmath>

#include "callable.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::list_display(const Expr& e) {
  Pos p = e.pos;
  std::vector<Value*> vals;
  for (auto& k : e.kids) vals.push_back(coerce(expr(*k), k->ty, list_elem(e.ty), p));
  Value* buf = new_list(e.ty, const_index(static_cast<int64_t>(vals.size()), p), p);
  for (size_t i = 0; i < vals.size(); ++i)
    emit("core.buffer_store", {vals[i], buf, const_index(static_cast<int64_t>(i), p)}, {}, {}, p);
  return buf;
}

Value* FunctionLowerer::new_list(Ty t, Value* n, Pos p) {
  std::string callee = str_cat("ppy_list_new_", list_suffix(list_elem(t)));
  return emit("core.call_extern", {n}, {ir_type(t)}, {{"abi", "c"}, {"callee", callee}}, p);
}

const char* FunctionLowerer::list_suffix(Ty t) {
  if (t == Ty::Int || t == Ty::Bool) return "i64";
  if (t == Ty::Float) return "f64";
  return "ptr";
}

std::string FunctionLowerer::value_desc(Ty e) {
  if (e == Ty::Int) return "i";
  if (e == Ty::Float) return "f";
  if (e == Ty::Bool) return "b";
  if (e == Ty::Str) return "s";
  if (is_optional(e)) return "?" + value_desc(optional_inner(e));
  if (is_union(e)) {  // issue 32: `<` the alternatives' descriptors `>`, the box's first leaf the tag
    std::string d = "<";
    for (Ty x : union_alts(e)) d += value_desc(x);
    return d + ">";
  }
  if (is_tuple(e)) {
    std::string d = "(";
    for (Ty x : tuple_elems(e)) d += value_desc(x);
    return d + ")";
  }
  if (is_class(e)) return "o";  // objects: the checker refuses what would read this
  if (e == Ty::Exc) return "(ssoss)";  // issue 32: a caught exception (lower.cc's ir_type)
  if (is_callable(e)) return "o";  // function values (callable.h): handles, as objects
  if (is_list(e)) return "[" + list_desc(e);
  if (is_dict(e) || is_set(e))  // issue 32: `{K:V}` / `{K}`, the table's own descriptor in braces
    return "{" + value_desc(key_of(e)) + (is_dict(e) ? ":" + value_desc(dict_value(e)) : "") + "}";
  return "n";  // the value None (a tuple element `(1, None)`)
}

Value* FunctionLowerer::box(Value* v, Ty elem, Pos p) {
  Value* tmp = new_list(list_of(elem), const_index(1, p), p);
  emit("core.buffer_store", {v, tmp, const_index(0, p)}, {}, {}, p);
  return rt("ppy_list_pop_ptr", {tmp}, str_type(), p);
}

Value* FunctionLowerer::unbox(Value* handle, Ty elem, Pos p) {
  Value* tmp = new_list(list_of(elem), const_index(0, p), p);
  call_extern("ppy_list_append_ptr", {tmp, handle}, p);
  return emit("core.buffer_load", {tmp, const_index(0, p)}, {ir_type(elem)}, {}, p);
}

Value* FunctionLowerer::element_arg(Value* v, Ty t, Ty elem, Pos p) {
  v = coerce(v, t, elem, p);
  if (elem == Ty::Bool) return cast(v, Type::i64(), p);
  if (boxed(elem)) return box(v, elem, p);
  return v;
}

Value* FunctionLowerer::list_call(const Expr& e) {
  Pos p = e.pos;
  if (e.target == "list.new") return new_list(e.ty, const_index(0, p), p);
  const Expr& a = *e.kids[1];
  if (e.target == "list.copy_of") return list_copy(expr(a), e.ty, p);
  Ty elem = list_elem(e.ty);
  Value* out = new_list(e.ty, const_index(0, p), p);
  std::string append = str_cat("ppy_list_append_", list_suffix(elem));
  if (e.target == "list.pairs") {
    pairs_loop(a, p, [&](Value* x, Ty, Value* y, Ty) {
      call_extern(append.c_str(), {out, element_arg(make_tuple({x, y}, elem, p), elem, elem, p)}, p);
    });
    return out;
  }
  std::string var = str_cat(".list", ++labels_);
  for_loop(
      var, p, a, p, [&] {}, nullptr,
      [&](Value* x) {
        call_extern(append.c_str(), {out, element_arg(x, elem, elem, p)}, p);
      });
  return out;
}

Value* FunctionLowerer::list_builtin(const Expr& e) {
  Pos p = e.pos;
  const Expr& a = *e.kids[1];
  Value* l = expr(a);
  Ty at = a.ty;
  if (is_table(at)) {  // its keys
    at = list_of(key_of(at));
    l = rt("ppy_dict_keys", {l}, ir_type(at), p);
  }
  Ty elem = list_elem(at);
  std::string sfx = list_suffix(elem);
  if (e.target == "list.sorted") return rt("ppy_list_sorted", {l, str_literal(list_desc(at), p)}, ir_type(e.ty), p);
  if (e.target == "list.sum" && e.kids.size() == 3) {
    Value* start = convert(expr(*e.kids[2]), e.kids[2]->ty, e.ty, p);
    return rt(str_cat("ppy_list_sum_from_", sfx).c_str(), {l, start}, ir_type(e.ty), p);
  }
  if (e.target == "list.sum") return rt(str_cat("ppy_list_sum_", sfx).c_str(), {l}, ir_type(e.ty), p);
  Value* max = const_i64(e.target == "list.max" ? 1 : 0, p);
  if (is_list(elem) || boxed(elem)) {  // lists and tuples order by the descriptor
    Value* h =
        rt("ppy_list_min_desc", {l, max, str_literal(list_desc(a.ty), p)}, boxed(elem) ? str_type() : ir_type(elem), p);
    return boxed(elem) ? unbox(h, elem, p) : h;
  }
  return rt(str_cat("ppy_list_min_", sfx).c_str(), {l, max}, ir_type(elem), p);
}

Value* FunctionLowerer::list_method(const Expr& e) {
  Pos p = e.pos;
  const Expr& base = *e.kids[0]->kids[0];
  Value* l = expr(base);
  Ty elem = list_elem(base.ty);
  std::string sfx = list_suffix(elem);
  std::string fn = builtin_runtime(builtin_method(e.builtin), sfx);
  switch (e.builtin) {
    case BuiltinId::ListAppend:
      call_extern(fn.c_str(), {l, element_arg(expr(*e.kids[1]), e.kids[1]->ty, elem, p)}, p);
      return nullptr;
    case BuiltinId::ListInsert: {
      Value* i = convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p);
      Value* v = element_arg(expr(*e.kids[2]), e.kids[2]->ty, elem, p);
      call_extern(fn.c_str(), {l, i, v}, p);
      return nullptr;
    }
    case BuiltinId::ListExtend:
      call_extern(fn.c_str(), {l, expr(*e.kids[1])}, p);
      return nullptr;
    case BuiltinId::ListCopy:  // of its class: a deque's copy is a deque (ppy_deque.h)
      return rt("ppy_list_copy", {l}, ir_type(base.ty), p);
    case BuiltinId::ListSort:
      call_extern(fn.c_str(), {l, str_literal(list_desc(base.ty), p)}, p);
      return nullptr;
    case BuiltinId::ListReverse:
    case BuiltinId::ListClear:
      call_extern(fn.c_str(), {l}, p);
      return nullptr;
    case BuiltinId::ListIndex:
    case BuiltinId::ListCount:
    case BuiltinId::ListRemove: {
      Value* v = element_arg(expr(*e.kids[1]), e.kids[1]->ty, elem, p);
      std::vector<Value*> args{l, v};
      if (e.builtin != BuiltinId::ListCount || sfx == "ptr") args.push_back(str_literal(list_desc(base.ty), p));
      if (e.builtin == BuiltinId::ListRemove) {
        call_extern(fn.c_str(), args, p);
        return nullptr;
      }
      return rt(fn.c_str(), args, Type::i64(), p);
    }
    default:
      break;
  }
  // list.pop, list.pop(i) (the runtime's pop_at_<k>)
  Type slot = sfx == "i64" ? Type::i64() : sfx == "f64" ? Type::f64() : boxed(elem) ? str_type() : ir_type(elem);
  Value* v = e.kids.size() == 2 ? rt(str_cat("ppy_list_pop_at_", sfx).c_str(),
                                     {l, convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p)}, slot, p)
                                : rt(fn.c_str(), {l}, slot, p);
  if (elem == Ty::Bool) v = cmp("ne", v, const_i64(0, p), p);
  if (boxed(elem)) v = unbox(v, elem, p);
  return v;
}

Value* FunctionLowerer::repeat(const Expr& e) {
  Pos p = e.pos;
  bool list_first = e.kids[0]->kind == ExprKind::List;
  const Expr& lst = list_first ? *e.kids[0] : *e.kids[1];
  const Expr& cnt = list_first ? *e.kids[1] : *e.kids[0];
  Value* x;
  Value* count;
  if (list_first) {
    x = expr(*lst.kids[0]);
    count = convert(expr(cnt), cnt.ty, Ty::Int, p);
  } else {
    count = convert(expr(cnt), cnt.ty, Ty::Int, p);
    x = expr(*lst.kids[0]);
  }
  Value* zero = const_i64(0, p);
  count = select(cmp("lt", count, zero, p), zero, count, p);
  Value* buf = new_list(e.ty, cast(count, Type::index(), p), p);
  const Expr& xe = *lst.kids[0];
  bool zero_fill = (xe.kind == ExprKind::Int && xe.ival == 0) ||
                   (xe.kind == ExprKind::Float && xe.fval == 0.0 && !std::signbit(xe.fval));
  if (zero_fill) return buf;
  loop(
      new_loop("fill", false), zero, [&](Value* i) { return cmp("lt", i, count, p); },
      [&](Value* i) {
        emit("core.buffer_store", {x, buf, cast(i, Type::index(), p)}, {}, {}, p);
      },
      nullptr, "proven", p);
  return buf;
}

Value* FunctionLowerer::list_copy(Value* l, Ty t, Pos p) {
  return rt("ppy_list_slice", {l, const_i64(0, p), const_i64(0, p), const_i64(1, p), const_i64(3, p)}, ir_type(t), p);
}

}  // namespace ppy::frontend::lowering
