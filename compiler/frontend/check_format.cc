// The body checker, formatting: `str.format`, `%`-formatting and `format(x,
// spec)` (docs/language.md, "Strings"). A template is a literal or a module
// constant, parsed here (format_template.h); each field's argument is typed
// against its spec as an f-string's field is.
#include <string>
#include <vector>

#include "body_checker.h"
#include "builtins.h"
#include "checker_internal.h"
#include "operand_errors.h"
#include "format_template.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// The text of a template operand known at compile time: a literal or a str
/// constant (use_const left its text in `str`).
bool template_text(const Expr& t) { return t.kind == ExprKind::Str || (t.ref == Ref::Const && t.ty == Ty::Str); }

}  // namespace

bool BodyChecker::format_field(const Expr& arg, Ty t, const FormatPiece& f, Pos at) {
  if (t == Ty::Error) return false;
  std::string what = f.percent_type ? str_cat("%", std::string(1, f.percent_type)) : std::string("format");
  auto wrong = [&](std::string msg) {
    error(arg.pos, "E1030", std::move(msg));
    return false;
  };
  Ty shown = t;
  switch (f.percent_type) {
    case 'd':
    case 'x':
    case 'X':
    case 'o':
      if (t == Ty::Float && f.percent_type == 'd') {
        raises();  // OverflowError / ValueError of inf and nan
        shown = Ty::Int;
      } else if (t != Ty::Int && t != Ty::Bool) {
        return wrong(f.percent_type == 'd' ? str_cat("%d format: a real number is required, not ", ty_name(t))
                                           : str_cat("%", std::string(1, f.percent_type),
                                                     " format: an integer is required, not ", ty_name(t)));
      }
      break;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      if (!is_numeric(t)) return wrong(str_cat("must be real number, not ", ty_name(t)));
      shown = Ty::Float;
      break;
    case 'c':
      if (t != Ty::Int && t != Ty::Bool && t != Ty::Str) return wrong("%c requires int or char");
      raises();  // chr()'s range; a str of another length
      shown = Ty::Str;
      break;
    default:
      break;
  }
  if (f.conversion) {
    // `!r`, `!s`, `%r`, `%s`: the value's str() or repr(), then a str's spec.
    if (t == Ty::Exc || is_class(t) || holds_object(t)) {
      if (!check_printable(arg)) return false;
    } else if (!is_numeric(t) && t != Ty::Str && !is_list(t) && !is_tuple(t) && !is_optional(t) && !is_none_value(t) &&
               !is_dict(t) && !is_set(t)) {
      error(arg.pos, "E1010", str_cat(what, " of ", ty_name(t), " is outside the ppy subset"));
      return false;
    }
    if (is_list(t) || is_tuple(t) || is_dict(t) || is_set(t)) effect("reads");
    shown = Ty::Str;
  } else if (!f.percent_type) {
    bool shown_as_str = is_list(t) || is_tuple(t) || is_optional(t) || is_none_value(t);
    if (t == Ty::Exc && f.spec.empty()) return true;
    if ((!is_numeric(t) && t != Ty::Str && !shown_as_str) || (shown_as_str && !f.spec.empty())) {
      error(arg.pos, "E1010",
            str_cat("a format field of ", ty_name(t), f.spec.empty() ? "" : " with a format spec",
                    " is outside the ppy subset"));
      return false;
    }
    if (is_list(t) || is_tuple(t)) effect("reads");
  }
  if (f.spec.empty()) return true;
  std::string why;
  const char* code = "E1030";
  if (!check_spec(f.spec, shown == Ty::Bool ? Ty::Int : shown, why, code)) {
    error(at, code, str_cat("format spec '", f.spec, "': ", why));
    return false;
  }
  raises();
  return true;
}

Ty BodyChecker::str_format(Expr& e, Expr& callee) {
  const Expr& tmpl = *callee.kids[0];
  std::vector<Ty> types;
  std::vector<const Expr*> args;
  std::vector<std::string> names;
  bool ok = true;
  for (size_t k = 1; k < e.kids.size(); ++k) {
    types.push_back(value(*e.kids[k], Ty::Error));
    args.push_back(e.kids[k].get());
  }
  for (auto& kw : e.keywords) {
    for (const std::string& n : names)
      if (n == kw.name) {
        error(kw.pos, "E1032", str_cat("keyword argument repeated: ", kw.name));
        ok = false;
      }
    names.push_back(kw.name);
    types.push_back(value(*kw.value, Ty::Error));
    args.push_back(kw.value.get());
  }
  if (!template_text(tmpl)) {
    error(tmpl.pos, "E1010", "str.format of a template that is not a literal or a constant is outside the ppy subset");
    return Ty::Error;
  }
  std::vector<FormatPiece> pieces;
  FormatError err;
  if (!parse_brace_template(tmpl.str, e.kids.size() - 1, names, pieces, err)) {
    error(tmpl.pos, err.code, err.message);
    return Ty::Error;
  }
  for (const FormatPiece& f : pieces)
    if (f.field && !format_field(*args[f.arg], types[f.arg], f, tmpl.pos)) ok = false;
  e.ref = Ref::Builtin;
  e.target = "str.format";
  e.builtin = BuiltinId::StrFormat;
  return ok ? Ty::Str : Ty::Error;
}

Ty BodyChecker::str_percent(Expr& e, Ty a, Ty b) {
  if (e.kids.size() < 2) {  // `s %= x`: the template is a variable
    error(e.pos, "E1010", "'%=' of a str is outside the ppy subset");
    return Ty::Error;
  }
  const Expr& tmpl = *e.kids[0];
  const Expr& rhs = *e.kids[1];
  if (a != Ty::Str) {
    error(e.pos, "E1030", operand_type_error("%", a, Ty::Str));
    return Ty::Error;
  }
  if (!template_text(tmpl)) {
    error(tmpl.pos, "E1010",
          "%-formatting of a template that is not a literal or a constant is outside the ppy subset");
    return Ty::Error;
  }
  if (is_dict(b)) {
    error(rhs.pos, "E1010", "%-formatting with a dict is outside the ppy subset");
    return Ty::Error;
  }
  std::vector<Ty> types = is_tuple(b) ? tuple_elems(b) : std::vector<Ty>{b};
  std::vector<FormatPiece> pieces;
  FormatError err;
  if (!parse_percent_template(tmpl.str, types.size(), pieces, err)) {
    error(tmpl.pos, err.code, err.message);
    return Ty::Error;
  }
  bool ok = true;
  for (const FormatPiece& f : pieces) {
    if (!f.field) continue;
    const Expr& arg = is_tuple(b) && rhs.kind == ExprKind::Tuple ? *rhs.kids[f.arg] : rhs;
    if (!format_field(arg, types[f.arg], f, tmpl.pos)) ok = false;
  }
  e.target = "str.percent";
  return ok ? Ty::Str : Ty::Error;
}

Ty BodyChecker::format_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty() || nargs < 1 || nargs > 2) {
    error(e.pos, "E1032", str_cat("format() takes from 1 to 2 positional arguments (", nargs, " given)"));
    return Ty::Error;
  }
  Ty t = value(*e.kids[1], Ty::Error);
  Ty st = nargs == 2 ? value(*e.kids[2], Ty::Str) : Ty::Str;
  if (t == Ty::Error || st == Ty::Error) return Ty::Error;
  if (st != Ty::Str) {
    error(e.kids[2]->pos, "E1030", str_cat("format() argument 2 must be str, not ", ty_name(st)));
    return Ty::Error;
  }
  if (nargs == 2 && !template_text(*e.kids[2])) {
    error(e.kids[2]->pos, "E1010",
          "format() with a spec that is not a literal or a constant is outside the ppy subset");
    return Ty::Error;
  }
  FormatPiece f;
  f.field = true;
  if (nargs == 2) f.spec = e.kids[2]->str;
  if (!format_field(*e.kids[1], t, f, e.kids[nargs]->pos)) return Ty::Error;
  e.target = "format";
  return Ty::Str;
}

}  // namespace ppy::frontend::checking
