// IR generation, formatting (docs/runtime.md, "Strings"): `str.format`,
// `%`-formatting and `format(x, spec)`. The template is parsed again here
// (format_template.h, as the checker parsed it); the arguments are evaluated
// once each, in order, then each field is formatted as an f-string's field is
// and the pieces concatenated. A template the checker left to run time
// (target `*.run`: held in a variable, nested fields, `*` widths, `%(name)s`,
// a mistake python3 raises) gives its arguments to ppy_vformat.c's builder.
#include "field_init.h"
#include "format_template.h"
#include "generic_classes.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::format_piece(Value* v, Ty t, const FormatPiece& f, Pos p) {
  switch (f.percent_type) {
    case 'd':
    case 'x':
    case 'X':
    case 'o':
      v = t == Ty::Float ? float_to_int(v, p) : convert(v, t, Ty::Int, p);
      t = Ty::Int;
      break;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      v = convert(v, t, Ty::Float, p);
      t = Ty::Float;
      break;
    case 'c':
      if (t != Ty::Str) v = rt("ppy_str_chr", {convert(v, t, Ty::Int, p)}, str_type(), p);
      t = Ty::Str;
      break;
    default:
      break;
  }
  if (f.conversion == 'r') {
    v = repr_of(v, t, p);
    t = Ty::Str;
  } else if (f.conversion == 's') {
    v = str_of(v, t, p);
    t = Ty::Str;
  }
  if (f.spec.empty()) return str_of(v, t, p);
  Value* spec = str_literal(f.spec, p);
  if (t == Ty::Str) return rt("ppy_str_format_str", {v, spec}, str_type(), p);
  if (t == Ty::Float) return rt("ppy_str_format_f64", {v, spec}, str_type(), p);
  return rt("ppy_str_format_i64", {cast(v, Type::i64(), p), spec}, str_type(), p);
}

Value* FunctionLowerer::format_pieces(const std::vector<FormatPiece>& pieces, const std::vector<Value*>& args,
                                      const std::vector<Ty>& types, Pos p) {
  Value* acc = nullptr;
  for (const FormatPiece& f : pieces) {
    Value* v = f.field ? format_piece(args[f.arg], types[f.arg], f, p) : str_literal(f.text, p);
    acc = acc ? rt("ppy_str_concat", {acc, v}, str_type(), p) : v;
  }
  return acc ? acc : str_literal("", p);
}

Value* FunctionLowerer::run_time_format_arg(Value* b, const std::string& name, Value* v, Ty t, Pos p,
                                            const std::string& path, int depth) {
  Value* n = str_literal(name, p);
  if (t == Ty::Int) return rt("ppy_vfmt_i64", {b, n, cast(v, Type::i64(), p)}, str_type(), p);
  if (t == Ty::Bool) return rt("ppy_vfmt_bool", {b, n, convert(v, Ty::Bool, Ty::Int, p)}, str_type(), p);
  if (t == Ty::Float) return rt("ppy_vfmt_f64", {b, n, v}, str_type(), p);
  if (t == Ty::Str) return rt("ppy_vfmt_str", {b, n, v}, str_type(), p);
  std::string type = ty_name(t);  // `list[int]` is a `list`, `int | None` shown as its `int`
  type = type.substr(0, type.find_first_of("[ "));
  // An object whose class prints no text of its own shows python3's default `<__main__.C object at 0x...>`.
  std::string why;
  bool shows = !is_class(t) || printable(t, &why) || printable_object(t);
  Value* str = shows ? str_of(v, t, p) : object_repr(v, t, p);
  b = rt("ppy_vfmt_obj", {b, n, str, shows ? repr_of(v, t, p) : str, str_literal(type, p)}, str_type(), p);
  if (path.empty() || depth > 2) return b;
  auto reachable = [&](Ty k) { return is_numeric(k) || k == Ty::Str || is_class(k) || printable(k, &why); };
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    for (size_t i = 0; i < elems.size(); ++i)
      if (reachable(elems[i])) {
        std::string sub = str_cat(path, "[", i, "]");
        b = run_time_format_arg(b, "\x1f" + sub, extract(v, i, p), elems[i], p, sub, depth + 1);
      }
  } else if (is_class(t)) {
    const ClassInfo& c = *class_info(t);
    for (auto& [field, ft] : c.fields)
      if (!field.starts_with("__") && !is_field_set_flag(field) && c.field(field_set_flag(field)) < 0 &&
          reachable(ft)) {
        std::string sub = str_cat(path, ".", field);
        b = run_time_format_arg(b, "\x1f" + sub, field_get(v, t, field, p), ft, p, sub, depth + 1);
      }
  }
  return b;
}

Value* FunctionLowerer::str_format(const Expr& e) {
  Pos p = e.pos;
  const Expr& tmpl = *e.kids[0]->kids[0];
  if (e.target == "str.format.run") {
    Value* b = rt("ppy_vfmt_new", {expr(tmpl)}, str_type(), p);
    for (size_t k = 1; k < e.kids.size(); ++k)
      b = run_time_format_arg(b, "", expr(*e.kids[k]), e.kids[k]->ty, p, std::to_string(k - 1));
    for (auto& kw : e.keywords) b = run_time_format_arg(b, kw.name, expr(*kw.value), kw.value->ty, p, kw.name);
    return rt("ppy_vfmt_format", {b}, str_type(), p);
  }
  std::vector<Value*> args;
  std::vector<Ty> types;
  std::vector<std::string> names;
  for (size_t k = 1; k < e.kids.size(); ++k) {
    args.push_back(expr(*e.kids[k]));
    types.push_back(e.kids[k]->ty);
  }
  for (auto& kw : e.keywords) {
    args.push_back(expr(*kw.value));
    types.push_back(kw.value->ty);
    names.push_back(kw.name);
  }
  std::vector<FormatPiece> pieces;
  FormatError err;
  if (!parse_brace_template(tmpl.str, e.kids.size() - 1, names, pieces, err)) return str_literal("", p);
  for (FormatPiece& f : pieces) {  // `{0[1]}`, `{p.name}`: what the field reaches becomes an argument of its own
    std::vector<ReachStep> steps;
    if (!f.field || f.reach.empty() || !reach_steps(f.reach, steps)) continue;
    Value* v = args[f.arg];
    Ty t = types[f.arg];
    for (const ReachStep& s : steps) {
      std::string why;
      Ty next = reach_type(t, s, why);
      if (s.attribute)
        v = field_get(v, t, s.name, p);
      else if (is_tuple(t))
        v = extract(v, static_cast<size_t>(s.i), p);
      else if (is_list(t))
        v = emit("core.buffer_load", {v, list_index(v, const_i64(s.i, p), p, false)}, {ir_type(next)}, {}, p);
      else
        v = table_get(v, t, key(s.index ? const_i64(s.i, p) : str_literal(s.name, p), t, p), p);
      t = next;
    }
    f.arg = args.size();
    args.push_back(v);
    types.push_back(t);
  }
  return format_pieces(pieces, args, types, p);
}

Value* FunctionLowerer::str_percent(const Expr& e, Value* tmpl, Value* rhs) {
  Pos p = e.pos;
  Ty b = e.kids[1]->ty;
  if (e.target == "str.percent.run") {
    Value* v = rt("ppy_vfmt_new", {tmpl}, str_type(), p);
    int64_t how = 0;
    if (is_dict(b)) {  // each key the (constant) template names, looked up as `d[key]` is
      how = 2;
      bool unnamed = false;
      for (const std::string& k : percent_keys(e.kids[0]->str, unnamed))
        v = run_time_format_arg(v, k, table_get(rhs, b, str_literal(k, p), p), dict_value(b), p);
      if (unnamed) v = run_time_format_arg(v, "", rhs, b, p);  // `"%s" % d`: the dict itself
    } else if (is_tuple(b)) {
      how = 1;
      std::vector<Ty> types = tuple_elems(b);
      for (size_t i = 0; i < types.size(); ++i) v = run_time_format_arg(v, "", extract(rhs, i, p), types[i], p);
    } else {
      v = run_time_format_arg(v, "", rhs, b, p);
    }
    return rt("ppy_vfmt_percent", {v, const_i64(how, p)}, str_type(), p);
  }
  std::vector<Value*> args;
  std::vector<Ty> types;
  if (is_tuple(b)) {
    types = tuple_elems(b);
    for (size_t i = 0; i < types.size(); ++i) args.push_back(extract(rhs, i, p));
  } else {
    args.push_back(rhs);
    types.push_back(b);
  }
  std::vector<FormatPiece> pieces;
  FormatError err;
  if (!parse_percent_template(e.kids[0]->str, args.size(), pieces, err)) return str_literal("", p);
  return format_pieces(pieces, args, types, p);
}

Value* FunctionLowerer::format_call(const Expr& e) {
  const Expr& a = *e.kids[1];
  FormatPiece f;
  f.field = true;
  if (e.kids.size() > 2) f.spec = e.kids[2]->str;
  if (e.target == "format.run") {  // a spec python3 refuses for the value's type: raised when it runs
    Value* b = rt("ppy_vfmt_new", {str_literal("{:" + f.spec + "}", e.pos)}, str_type(), e.pos);
    b = run_time_format_arg(b, "", expr(a), a.ty, e.pos);
    return rt("ppy_vfmt_format", {b}, str_type(), e.pos);
  }
  return format_piece(expr(a), a.ty, f, e.pos);
}

Value* FunctionLowerer::affix_any(const Expr& e, const std::vector<Value*>& args) {
  Pos p = e.pos;
  const BuiltinMethod& m = builtin_method(e.builtin);
  Value* any = nullptr;
  size_t n = tuple_elems(e.kids[1]->ty).size();
  for (size_t i = 0; i < n; ++i) {
    std::vector<Value*> one = args;
    one[1] = extract(args[1], i, p);
    Value* hit = cmp("ne", rt(std::string(m.runtime).c_str(), one, Type::i64(), p), const_i64(0, p), p);
    any = any ? or_(any, hit, p) : hit;
  }
  return any ? any : const_bool(false, p);
}

Value* FunctionLowerer::str_tuple_result(const Expr& e, const std::vector<Value*>& args) {
  Pos p = e.pos;
  const BuiltinMethod& m = builtin_method(e.builtin);
  Value* parts = rt(std::string(m.runtime).c_str(), args, ir_type(list_of(Ty::Str)), p);
  std::vector<Value*> elems;
  for (size_t i = 0; i < tuple_elems(e.ty).size(); ++i)
    elems.push_back(emit("core.buffer_load", {parts, const_index(static_cast<int64_t>(i), p)}, {str_type()}, {}, p));
  return make_tuple(std::move(elems), e.ty, p);
}

}  // namespace ppy::frontend::lowering
