// IR generation, `key=` and `reverse=` (callable.h; docs/runtime.md,
// "Functions as values"). Written with the ops and runtime functions lists
// already have, so every road runs it as it is:
// - sorted / list.sort: the key called once per element in order into a list
//   of keys, whose order (the indices sorted stably by key, reverse=True
//   keeping equal keys in their first order) one of the runtime's sorts for
//   the key's type answers (ppy_sort.h), then the elements picked by index
//   (ppy_sort_pick, or ppy_sort_place in place for list.sort);
// - min / max: one pass keeping the first element whose key no later one
//   beats (ValueError for an empty list, as Python).
#include "callable.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::keyed_source(const Expr& a, Ty& elem, Pos p) {
  if (a.target == "dict.items") {  // the (key, value) pairs, made when the call starts
    const Expr& d = *a.kids[0]->kids[0];
    Value* table = expr(d);
    Ty kt = key_of(d.ty), vt = dict_value(d.ty);
    elem = tuple_of({kt, vt});
    Value* keys = rt("ppy_dict_keys", {table}, ir_type(list_of(kt)), p);
    Value* vals = rt("ppy_dict_values", {table}, ir_type(list_of(vt)), p);
    Value* out = new_list(list_of(elem), const_index(0, p), p);
    Value* n = list_len(keys, p);
    loop(
        new_loop("items", false), const_i64(0, p), [&](Value* i) { return cmp("lt", i, n, p); },
        [&](Value* i) {
          Value* at = cast(i, Type::index(), p);
          Value* k = emit("core.buffer_load", {keys, at}, {ir_type(kt)}, {}, p);
          Value* v = emit("core.buffer_load", {vals, at}, {ir_type(vt)}, {}, p);
          call_extern("ppy_list_append_ptr", {out, element_arg(make_tuple({k, v}, elem, p), elem, elem, p)}, p);
        },
        nullptr, "proven", p);
    return out;
  }
  Value* l = expr(a);
  Ty at = a.ty;
  if (is_table(at)) {  // its keys
    at = list_of(key_of(at));
    l = rt("ppy_dict_keys", {l}, ir_type(at), p);
  }
  elem = list_elem(at);
  return l;
}

Value* FunctionLowerer::keyed_builtin(const Expr& e) {
  Pos p = e.pos;
  std::string what = e.target.substr(6);  // after "keyed."
  bool method = what == "sort";
  Ty elem = Ty::Error;
  Value* l = method ? expr(*e.kids[0]->kids[0]) : keyed_source(*e.kids[1], elem, p);
  if (method) elem = list_elem(e.kids[0]->kids[0]->ty);
  Value* key = nullptr;
  Ty kt = Ty::Error;
  Value* rev = nullptr;
  bool len_key = false;         // key=len
  for (auto& k : e.keywords) {  // in the call's order, as Python evaluates them
    if (k.name == "key" && k.value->ref == Ref::Builtin && k.value->target == "len") {
      len_key = true;
    } else if (k.name == "key" && k.value->kind != ExprKind::NoneLit) {
      key = expr(*k.value);
      kt = k.value->ty;
    } else if (k.name == "reverse") {
      rev = truth(expr(*k.value), k.value->ty, p);
    }
  }
  Ty key_ty = key ? callable_result(kt) : len_key ? Ty::Int : elem;
  auto key_of_elem = [&](Value* x) {
    if (len_key)
      return elem == Ty::Str ? rt("ppy_str_len", {x}, Type::i64(), p)
             : is_list(elem) ? list_len(x, p)
                             : rt("ppy_dict_len", {x}, Type::i64(), p);
    if (!key) return x;
    return call_value(key, kt, {coerce(x, elem, callable_params(kt)[0], p)}, p);
  };
  auto load = [&](Value* buf, Value* i, Ty t) {
    return emit("core.buffer_load", {buf, cast(i, Type::index(), p)}, {ir_type(t)}, {}, p);
  };
  Value* n = list_len(l, p);
  if (what == "min" || what == "max") {
    guard(cmp("ne", n, const_i64(0, p), p), "range", str_cat(what, "() arg is an empty sequence"), p);
    Value* first = key_of_elem(load(l, const_i64(0, p), elem));
    LoopBlocks b = new_loop(what, false);
    br(b.head, {const_i64(1, p), const_i64(0, p), first}, p);
    cur_ = b.head;
    Value* i = b.head->add_argument(Type::i64(), "i");
    Value* best = b.head->add_argument(Type::i64(), "best");
    Value* best_key = b.head->add_argument(ir_type(key_ty), "best_key");
    Value* found = b.exit->add_argument(Type::i64(), "found");
    cond_br(cmp("lt", i, n, p), b.body, {}, b.exit, {best}, p);
    cur_ = b.body;
    Value* k = key_of_elem(load(l, i, elem));
    // Only a key that beats the best so far replaces it: the first of equal keys wins.
    const char* pred = what == "min" ? "lt" : "gt";
    Value* better = is_tuple(key_ty) ? lexicographic(k, key_ty, best_key, key_ty, pred, p)
                                     : ordered(k, key_ty, best_key, key_ty, pred, p);
    br(b.head, {iadd(i, const_i64(1, p), p, "proven"), select(better, i, best, p), select(better, k, best_key, p)}, p);
    cur_ = b.exit;
    return load(l, found, elem);
  }
  // sorted / sort: the keys in a list of their own, their order from the
  // runtime's sort for the key's type (ppy_sort.h: stable; reverse keeps equal
  // keys in their first order), then the elements by index.
  Ty keys_ty = list_of(key_ty);
  // speedsort: the keys stored in a list made at its length, not appended one by one.
  Value* keys = new_list(keys_ty, cast(n, Type::index(), p), p);
  loop(
      new_loop("keys", false), const_i64(0, p), [&](Value* i) { return cmp("lt", i, n, p); },
      [&](Value* i) {
        Value* k = coerce(key_of_elem(load(l, i, elem)), key_ty, key_ty, p);
        emit("core.buffer_store", {k, keys, cast(i, Type::index(), p)}, {}, {}, p);
      },
      nullptr, "proven", p);
  Value* reverse = rev ? select(rev, const_i64(1, p), const_i64(0, p), p) : const_i64(0, p);
  Type order_ty = ir_type(list_of(Ty::Int));
  const char* sort = key_ty == Ty::Int || key_ty == Ty::Bool ? "ppy_sort_order_i64"
                     : key_ty == Ty::Float                   ? "ppy_sort_order_f64"
                     : key_ty == Ty::Str                     ? "ppy_sort_order_str"
                                                             : "ppy_sort_order_desc";
  std::vector<Value*> sort_args{keys, reverse};
  if (std::string(sort) == "ppy_sort_order_desc") sort_args.push_back(str_literal(list_desc(keys_ty), p));
  Value* order = rt(sort, sort_args, order_ty, p);
  // speedsort: the elements picked by index in the runtime (ppy_sort.h).
  if (method) {
    call_extern("ppy_sort_place", {l, order}, p);
    return nullptr;
  }
  return rt("ppy_sort_pick", {l, order}, ir_type(list_of(elem)), p);
}

}  // namespace ppy::frontend::lowering
