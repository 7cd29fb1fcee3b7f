// IR generation, dicts and sets (docs/runtime.md, "Dicts and sets"): displays,
// comprehensions, `d[k]`, methods.
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

std::string FunctionLowerer::table_desc(Ty t) {
  std::string d = item_desc(key_of(t));
  if (is_dict(t)) d += ":" + item_desc(dict_value(t));
  return d;
}

Value* FunctionLowerer::key(Value* k, Ty table, Pos p) {
  Ty kt = key_of(table);
  k = object_key(k, kt, p);
  return is_tuple(kt) ? box(k, kt, p) : k;
}

Value* FunctionLowerer::to_word(Value* v, Ty t, Pos p) {
  if (is_tuple(t)) return box(v, t, p);  // a tuple value travels in its box, as a list holds it
  return t == Ty::Bool ? cast(v, Type::i64(), p) : v;
}

Value* FunctionLowerer::from_word(Value* v, Ty t, Pos p) {
  if (is_tuple(t)) return unbox(v, t, p);
  return t == Ty::Bool ? cmp("ne", v, const_i64(0, p), p) : v;
}

Value* FunctionLowerer::new_table(Ty t, Pos p) {
  return rt("ppy_dict_new", {str_literal(table_desc(t), p)}, ir_type(t), p);
}

Value* FunctionLowerer::table_len(Value* d, Pos p) { return rt("ppy_dict_len", {d}, Type::i64(), p); }

std::string FunctionLowerer::table_fn(const char* what, Ty t) {
  return str_cat("ppy_dict_", what, "_", key_sfx(key_of(t)), "_", list_suffix(dict_value(t)));
}

void FunctionLowerer::table_set(Value* d, Ty t, Value* k, Value* v, Pos p) {
  call_extern(table_fn("set", t).c_str(), {d, k, to_word(v, dict_value(t), p)}, p);
}

Value* FunctionLowerer::table_get(Value* d, Ty t, Value* k, Pos p) {
  Ty v = dict_value(t);
  return from_word(rt(table_fn("get", t).c_str(), {d, k}, word_type(v), p), v, p);
}

Value* FunctionLowerer::table_contains(Value* d, Ty t, Value* k, Pos p) {
  return rt(str_cat("ppy_dict_contains_", key_sfx(key_of(t))).c_str(), {d, k}, Type::i64(), p);
}

void FunctionLowerer::set_add(Value* s, Ty t, Value* k, Pos p) {
  call_extern(str_cat("ppy_set_add_", key_sfx(key_of(t))).c_str(), {s, k}, p);
}

Value* FunctionLowerer::table_display(const Expr& e) {
  Pos p = e.pos;
  Value* d = new_table(e.ty, p);
  if (e.kind == ExprKind::Set) {
    for (auto& k : e.kids) set_add(d, e.ty, key(expr(*k), e.ty, p), p);
    return d;
  }
  for (size_t i = 0; i + 1 < e.kids.size(); i += 2) {
    Value* k = key(expr(*e.kids[i]), e.ty, p);
    Value* v = expr(*e.kids[i + 1]);
    table_set(d, e.ty, k, v, p);
  }
  return d;
}

Value* FunctionLowerer::table_comp(const Expr& e) {
  Pos p = e.pos;
  Value* out = new_table(e.ty, p);
  std::function<void(const Expr&)> put = [&](const Expr& x) {
    Value* k = key(expr(x), e.ty, p);
    if (e.kind == ExprKind::SetComp)
      set_add(out, e.ty, k, p);
    else
      table_set(out, e.ty, k, expr(*e.kids.back()), p);
  };
  comp_into(e, out, Ty::Error, &put);
  return out;
}

Value* FunctionLowerer::table_method(const Expr& e) {
  Pos p = e.pos;
  const Expr& base = *e.kids[0]->kids[0];
  Value* d = expr(base);
  Ty t = base.ty;
  Ty v = dict_value(t);
  const BuiltinMethod& m = builtin_method(e.builtin);
  auto fn = [&](bool with_default) { return builtin_runtime(m, key_sfx(key_of(t)), list_suffix(v), with_default); };
  switch (e.builtin) {
    case BuiltinId::DictKeys:
    case BuiltinId::DictValues:
      return rt(fn(true).c_str(), {d}, ir_type(e.ty), p);
    case BuiltinId::DictClear:
    case BuiltinId::SetClear:
      call_extern(fn(true).c_str(), {d}, p);
      return nullptr;
    default:
      break;
  }
  Value* k = key(expr(*e.kids[1]), t, p);
  if (m.receiver == "set") {
    call_extern(fn(true).c_str(), {d, k}, p);
    return nullptr;
  }
  if (e.builtin == BuiltinId::DictDelItem) {  // `del d[k]`: a pop whose value is dropped
    rt(fn(true).c_str(), {d, k}, word_type(v), p);
    return nullptr;
  }
  if (e.builtin == BuiltinId::DictSetDefault) {  // stores the default when k is missing, then reads d[k]
    Value* dflt = expr(*e.kids[2]);
    Value* found = cmp("ne", table_contains(d, t, k, p), const_i64(0, p), p);
    choose(
        found, {"setdefault.has", "setdefault.put", "setdefault.done"}, [] { return nullptr; },
        [&] {
          table_set(d, t, k, dflt, p);
          return nullptr;
        },
        Type::void_(), p);
    return from_word(rt(fn(true).c_str(), {d, k, to_word(dflt, v, p)}, word_type(v), p), v, p);
  }
  if (e.kids.size() == 3) {
    Value* dflt = to_word(expr(*e.kids[2]), v, p);
    return from_word(rt(fn(true).c_str(), {d, k, dflt}, word_type(v), p), v, p);
  }
  if (e.builtin == BuiltinId::DictPop) return from_word(rt(fn(false).c_str(), {d, k}, word_type(v), p), v, p);
  // d.get(k): an optional, None when k is not there.
  Value* found = cmp("ne", table_contains(d, t, k, p), const_i64(0, p), p);
  Value* val = rt(fn(true).c_str(), {d, k, to_word(zero_of(v, p), v, p)}, word_type(v), p);
  return make_tuple({found, from_word(val, v, p)}, e.ty, p);
}

}  // namespace ppy::frontend::lowering
