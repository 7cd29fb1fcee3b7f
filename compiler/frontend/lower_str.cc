// IR generation, strs (docs/runtime.md, "Strings"): operators, slices, methods,
// f-strings, str() and repr().
#include <algorithm>
#include <functional>

#include "lowerer.h"
#include "unions.h"

namespace ppy::frontend::lowering {
namespace {

/// classes_held: the classes of `t`, appended to `out` where not there yet.
void collect_classes(Ty t, std::vector<Ty>& out) {
  if (is_class(t)) {
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    return;
  }
  if (is_list(t)) return collect_classes(list_elem(t), out);
  if (is_dict(t) || is_set(t)) {
    collect_classes(key_of(t), out);
    if (is_dict(t)) collect_classes(dict_value(t), out);
    return;
  }
  if (is_optional(t)) return collect_classes(optional_inner(t), out);
  for (Ty e : union_alts(t)) collect_classes(e, out);
  for (Ty e : tuple_elems(t)) collect_classes(e, out);
}

/// The classes of the objects a value of type `t` is or holds (in a list, dict, set, tuple,
/// optional or union), each once, in the order met.
std::vector<Ty> classes_held(Ty t) {
  std::vector<Ty> out;
  collect_classes(t, out);
  return out;
}

}  // namespace

Value* FunctionLowerer::str_binary(const Expr& e, Value* a, Value* b) {
  Pos p = e.pos;
  if (e.str == "+") return rt("ppy_str_concat", {a, b}, str_type(), p);
  if (e.str == "%") return str_percent(e, a, b);  // lower_format.cc
  // `s * n` or `n * s`
  bool str_first = e.kids[0]->ty == Ty::Str;
  Value* s = str_first ? a : b;
  Value* n = str_first ? convert(b, e.kids[1]->ty, Ty::Int, p) : convert(a, e.kids[0]->ty, Ty::Int, p);
  return rt("ppy_str_repeat", {s, n}, str_type(), p);
}

Value* FunctionLowerer::field_spec(const Expr& field, Pos p) {
  return field.kids.size() > 1 ? expr(*field.kids[1]) : str_literal(field.str, p);
}

Value* FunctionLowerer::str_subscript(const Expr& e) {
  Pos p = e.pos;
  Value* s = expr(*e.kids[0]);
  const Expr& i = *e.kids[1];
  if (i.kind != ExprKind::Slice) return rt("ppy_str_index", {s, convert(expr(i), i.ty, Ty::Int, p)}, str_type(), p);
  return slice_of(e, s, "ppy_str_slice", str_type());
}

Value* FunctionLowerer::slice_of(const Expr& e, Value* s, const char* callee, Type result) {
  Pos p = e.pos;
  const Expr& i = *e.kids[1];
  // The parts present, in order; the absent ones are 0 (start, stop) or 1 (step).
  Value* parts[3] = {nullptr, nullptr, nullptr};
  size_t k = 0;
  for (int bit = 0; bit < 3; ++bit)
    if (i.ival & (1 << bit)) {
      const Expr& x = *i.kids[k++];
      parts[bit] = convert(expr(x), x.ty, Ty::Int, p);
    }
  for (int bit = 0; bit < 3; ++bit)
    if (!parts[bit]) parts[bit] = const_i64(bit == 2 ? 1 : 0, p);
  int64_t omitted = ((i.ival & 1) ? 0 : 1) | ((i.ival & 2) ? 0 : 2);
  return rt(callee, {s, parts[0], parts[1], parts[2], const_i64(omitted, p)}, result, p);
}

Value* FunctionLowerer::str_method(const Expr& e) {
  Pos p = e.pos;
  if (e.builtin == BuiltinId::StrFormat) return str_format(e);  // lower_format.cc
  const BuiltinMethod& m = builtin_method(e.builtin);
  const Expr& receiver = *e.kids[0]->kids[0];
  // typical: `line.lower().split()` cuts and lowers the words in one pass, with no lowered copy of the line.
  if (e.builtin == BuiltinId::StrSplit && e.kids.size() == 1 && receiver.builtin == BuiltinId::StrLower &&
      receiver.kids.size() == 1)
    return rt("ppy_str_lower_split_ws", {expr(*receiver.kids[0]->kids[0])}, ir_type(e.ty), p);
  Value* s = expr(receiver);
  if (e.builtin == BuiltinId::StrSplit && e.kids.size() == 1) return rt("ppy_str_split_ws", {s}, ir_type(e.ty), p);
  std::vector<Value*> args{s};
  for (size_t k = 1; k < e.kids.size(); ++k) {
    Ty want = resolve(m.params[k - 1], Ty::Str);
    Value* v = expr(*e.kids[k]);
    args.push_back(want == Ty::Int ? convert(v, e.kids[k]->ty, Ty::Int, p) : v);
  }
  for (size_t k = args.size() - 1; k < m.params.size(); ++k)  // the defaults of parameters left out
    args.push_back(m.params[k].ty == Ty::Str ? str_literal(std::string(m.params[k].str_default), p)
                                             : const_i64(m.params[k].int_default, p));
  if (e.kids.size() > 1 && affix_tuple(m, e.kids[1]->ty)) return affix_any(e, args);  // lower_format.cc
  if (is_tuple(e.ty)) return str_tuple_result(e, args);
  std::string callee(m.runtime);
  if (e.ty == Ty::Bool) return cmp("ne", rt(callee.c_str(), args, Type::i64(), p), const_i64(0, p), p);
  return rt(callee.c_str(), args, e.ty == Ty::Int ? Type::i64() : ir_type(e.ty), p);
}

Value* FunctionLowerer::fstring_field_value(const Expr& field, Ty& t, Pos p) {
  const Expr& x = *field.kids[0];
  Value* v = expr(x);
  t = x.ty;
  if (field.ival == 'r' && t == Ty::Str) v = rt("ppy_str_repr", {v}, str_type(), p);
  if (field.ival == 'r' && t >= Ty::FirstCompound && !is_list(t)) {
    v = repr_of(v, t, p);
    t = Ty::Str;
  }
  return v;
}

Value* FunctionLowerer::fstring(const Expr& e) {
  if (e.kids.size() >= 2) return fstring_built(e);  // speedsort (lower_text_build.cc)
  Pos p = e.pos;
  Value* acc = nullptr;
  for (auto& part : e.kids) {
    Value* v;
    if (part->kind == ExprKind::Str) {
      v = str_literal(part->str, p);
    } else {
      Ty t;
      v = fstring_field_value(*part, t, p);
      if (part->str.empty()) {
        v = str_of(v, t, p);
      } else {
        Value* spec = field_spec(*part, p);
        if (t == Ty::Str)
          v = rt("ppy_str_format_str", {v, spec}, str_type(), p);
        else if (t == Ty::Float)
          v = rt("ppy_str_format_f64", {v, spec}, str_type(), p);
        else
          v = rt("ppy_str_format_i64", {cast(v, Type::i64(), p), spec}, str_type(), p);
      }
    }
    acc = acc ? rt("ppy_str_concat", {acc, v}, str_type(), p) : v;
  }
  return acc ? acc : str_literal("", p);
}

Value* FunctionLowerer::str_of(Value* v, Ty t, Pos p) {
  switch (t) {
    case Ty::Str:
      return v;
    case Ty::Int:
      return rt("ppy_str_from_i64", {v}, str_type(), p);
    case Ty::Float:
      return rt("ppy_str_from_f64", {v}, str_type(), p);
    case Ty::Bool:
      return rt("ppy_str_from_bool", {cast(v, Type::i64(), p)}, str_type(), p);
    case Ty::Exc:
      return extract(v, 1, p);
    default:
      if (is_list(t)) return list_repr(v, t, p);
      if (is_class(t)) return custom_text(t) ? object_str(v, t, p) : repr_str(v, t, p);
      if (is_none_value(t)) return str_literal("None", p);
      // `str(x)` of an optional: its value's str, or None.
      if (is_optional(t))  // branches, as repr_of's
        return choose(
            extract(v, 0, p), {"str.some", "str.none", "str.end"},
            [&] { return str_of(extract(v, 1, p), optional_inner(t), p); }, [&] { return str_literal("None", p); },
            str_type(), p);
      if (is_tuple(t)) return tuple_repr(v, t, p);
      if (is_union(t)) return union_text(v, t, false, p);  // issue 32 (lower_union.cc)
      if (is_table(t)) {
        if (!classes_held(t).empty()) return tuple_repr(v, t, p);  // objects (issue 32): a list holding it
        return rt("ppy_dict_repr", {v, str_literal(table_desc(t), p)}, str_type(), p);
      }
      return str_literal("", p);
  }
}

Value* FunctionLowerer::repr_of(Value* v, Ty t, Pos p) {
  if (t == Ty::Str) return rt("ppy_str_repr", {v}, str_type(), p);
  if (is_class(t)) return custom_text(t) ? object_repr(v, t, p) : repr_str(v, t, p);
  if (is_optional(t))  // branches: an object's repr calls its method, which a None must not reach
    return choose(
        extract(v, 0, p), {"repr.some", "repr.none", "repr.end"},
        [&] { return repr_of(extract(v, 1, p), optional_inner(t), p); }, [&] { return str_literal("None", p); },
        str_type(), p);
  if (is_union(t)) return union_text(v, t, true, p);  // issue 32
  return str_of(v, t, p);
}

Value* FunctionLowerer::tuple_repr(Value* v, Ty t, Pos p) {
  Ty lt = list_of(t);
  Value* one = new_list(lt, const_index(1, p), p);
  emit("core.buffer_store", {v, one, const_index(0, p)}, {}, {}, p);
  Value* s = list_repr(one, lt, p);
  return rt("ppy_str_slice", {s, const_i64(1, p), const_i64(-1, p), const_i64(1, p), const_i64(0, p)}, str_type(), p);
}

Value* FunctionLowerer::list_repr(Value* v, Ty t, Pos p) {
  std::vector<Ty> classes = classes_held(list_elem(t));
  if (classes.empty()) return rt("ppy_list_repr", {v, str_literal(list_desc(t), p)}, str_type(), p);
  // Objects (issue 32): each class's collected (ppy_obj_collect, its leaves marked `O` in the
  // descriptor), their reprs computed here, the list rendered with them (ppy_list_repr_objs).
  std::function<std::string(Ty, Ty)> marked_desc = [&](Ty e, Ty mark) -> std::string {
    if (is_class(e)) return e == mark ? "O" : "o";
    auto each = [&](const std::vector<Ty>& ts) {
      std::string d;
      for (Ty x : ts) d += marked_desc(x, mark);
      return d;
    };
    if (is_optional(e)) return "?" + marked_desc(optional_inner(e), mark);
    if (is_union(e)) return "<" + each(union_alts(e)) + ">";
    if (is_tuple(e)) return "(" + each(tuple_elems(e)) + ")";
    if (is_list(e)) return "[" + marked_desc(list_elem(e), mark);
    if (is_dict(e)) return "{" + marked_desc(key_of(e), mark) + ":" + marked_desc(dict_value(e), mark) + "}";
    if (is_set(e)) return "{" + marked_desc(key_of(e), mark) + "}";
    return value_desc(e);  // no object in it
  };
  Value* objs = new_list(list_of(classes[0]), const_index(0, p), p);
  Value* reprs = new_list(list_of(Ty::Str), const_index(0, p), p);
  for (Ty c : classes) {
    Value* got = rt("ppy_obj_collect", {v, str_literal(marked_desc(list_elem(t), c), p)}, ir_type(list_of(c)), p);
    auto test = [&](Value* i) { return cmp("lt", i, list_len(got, p), p); };
    auto body = [&](Value* i) {
      Value* obj = emit("core.buffer_load", {got, cast(i, Type::index(), p)}, {ir_type(c)}, {}, p);
      call_extern("ppy_list_append_ptr", {reprs, repr_of(obj, c, p)}, p);
    };
    loop(new_loop("repr", true), const_i64(0, p), test, body, nullptr, "proven", p);
    call_extern("ppy_list_extend", {objs, got}, p);
  }
  return rt("ppy_list_repr_objs", {v, str_literal(list_desc(t), p), objs, reprs}, str_type(), p);
}

}  // namespace ppy::frontend::lowering
