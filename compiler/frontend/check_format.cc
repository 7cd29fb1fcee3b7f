// The body checker, formatting: `str.format`, `%`-formatting and `format(x,
// spec)` (docs/language.md, "Strings"). A template that is a literal or a
// module constant is parsed here (format_template.h) and each field's argument
// typed against its spec as an f-string's field is; a template held in a
// variable, one with nested fields, `*` widths or `%(name)s`, and one python3
// would raise on are formatted at run time (the target gets ".run", lowering
// hands the arguments to ppy_vformat.c, which raises python3's error).
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

/// A template's parse failure the run-time formatter reproduces (python3's error, or a form it formats).
bool run_time_error(const FormatError& err) { return std::string_view(err.code) != "E1010"; }

}  // namespace

bool BodyChecker::run_time_format_arg(const Expr& arg, Ty t) {
  if (t == Ty::Error) return false;
  if (is_numeric(t) || t == Ty::Str) return true;
  std::string why;
  if (is_class(t)) {  // its text, and its fields for `{0.name}` (lower_format.cc; python3's default text without __repr__)
    effect("reads");
    return true;
  }
  if (t == Ty::Exc || holds_object(t) || !printable(t, &why)) return check_printable(arg);
  if (is_list(t) || is_tuple(t) || is_optional(t) || is_none_value(t) || is_dict(t) || is_set(t)) {
    if (!is_optional(t) && !is_none_value(t)) effect("reads");
    return true;
  }
  error(arg.pos, "E1010", str_cat("a format argument of ", ty_name(t), " is outside the ppy subset"));
  return false;
}

bool BodyChecker::format_field(const Expr& arg, Ty t, const FormatPiece& f, Pos at, bool& at_run_time) {
  if (t == Ty::Error) return false;
  std::string what = f.percent_type ? str_cat("%", std::string(1, f.percent_type)) : std::string("format");
  auto wrong = [&](std::string) {
    at_run_time = true;  // python3 raises it when the line runs, so does ppy_vformat.c
    return run_time_format_arg(arg, t);
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
    bool shown_as_str = is_list(t) || is_tuple(t) || is_optional(t) || is_none_value(t) || is_dict(t) || is_set(t);
    if (t == Ty::Exc && f.spec.empty()) return true;
    if (is_class(t) && f.spec.empty()) return check_printable(arg);  // `{}` of an object: its str(), as f"{obj}"
    if (shown_as_str && !f.spec.empty()) return wrong("");  // TypeError: unsupported format string passed to ...
    if (!is_numeric(t) && t != Ty::Str && !shown_as_str) {
      error(arg.pos, "E1010",
            str_cat("a format field of ", ty_name(t), f.spec.empty() ? "" : " with a format spec",
                    " is outside the ppy subset"));
      return false;
    }
    if (is_list(t) || is_tuple(t) || is_dict(t) || is_set(t)) effect("reads");
  }
  if (f.spec.empty()) return true;
  std::string why;
  const char* code = "E1030";
  if (!check_spec(f.spec, shown == Ty::Bool ? Ty::Int : shown, why, code)) {
    if (std::string_view(code) == "E1030") return wrong(why);
    error(at, code, str_cat("format spec '", f.spec, "': ", why));
    return false;
  }
  raises();
  return true;
}

bool BodyChecker::reach_field(const Expr& arg, Ty t, const FormatPiece& f, Pos at, bool& at_run_time) {
  if (t == Ty::Error) return false;
  std::vector<ReachStep> steps;
  if (!reach_steps(f.reach, steps)) {  // python3's ValueError, raised when the line runs
    at_run_time = true;
    return true;
  }
  for (const ReachStep& s : steps) {
    std::string why;
    Ty next = reach_type(t, s, why);
    if (!why.empty()) {
      error(at, "E1010",
            str_cat("the field '", f.text, "' (", why,
                    ") is outside the ppy subset (a field reaches an object's fields, a tuple's or a list's "
                    "elements and a dict's values)"));
      return false;
    }
    if (next == Ty::Error) {  // python3's AttributeError, IndexError, KeyError or TypeError, raised at run time
      at_run_time = true;
      return true;
    }
    effect("reads");  // an object's field, a container's item
    if (!s.attribute) raises();  // IndexError, KeyError
    t = next;
  }
  Expr reached;  // the value the field formats, typed for format_field
  reached.kind = ExprKind::Name;
  reached.pos = arg.pos;
  reached.ty = t;
  return format_field(reached, t, f, at, at_run_time);
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
  e.ref = Ref::Builtin;
  e.target = "str.format";
  e.builtin = BuiltinId::StrFormat;
  std::vector<FormatPiece> pieces;
  FormatError err;
  bool at_run_time = !template_text(tmpl);
  if (!at_run_time && !parse_brace_template(tmpl.str, e.kids.size() - 1, names, pieces, err)) {
    if (!run_time_error(err)) {
      error(tmpl.pos, err.code, err.message);
      return Ty::Error;
    }
    at_run_time = true;
    pieces.clear();
  }
  for (const FormatPiece& f : pieces) {
    if (f.field && !f.reach.empty()) {
      if (!reach_field(*args[f.arg], types[f.arg], f, tmpl.pos, at_run_time)) ok = false;
      continue;
    }
    if (f.field && !format_field(*args[f.arg], types[f.arg], f, tmpl.pos, at_run_time)) ok = false;
  }
  if (at_run_time) {
    e.target = "str.format.run";
    raises();
    for (size_t k = 0; k < args.size(); ++k)
      if (!run_time_format_arg(*args[k], types[k])) ok = false;
  }
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
  e.target = "str.percent";
  if (is_dict(b)) {
    // `"%(name)s" % d`: each key the template names looked up in `d` (KeyError), then formatted at run time
    if (!template_text(tmpl) || key_of(b) != Ty::Str) {
      error(rhs.pos, "E1010",
            "%-formatting with a dict is outside the ppy subset but for a literal or constant template and str keys");
      return Ty::Error;
    }
    e.target = "str.percent.run";
    raises();
    return run_time_format_arg(rhs, dict_value(b)) ? Ty::Str : Ty::Error;
  }
  std::vector<Ty> types = is_tuple(b) ? tuple_elems(b) : std::vector<Ty>{b};
  std::vector<FormatPiece> pieces;
  FormatError err;
  bool at_run_time = !template_text(tmpl);
  if (!at_run_time && !parse_percent_template(tmpl.str, types.size(), pieces, err)) {
    if (!run_time_error(err)) {
      error(tmpl.pos, err.code, err.message);
      return Ty::Error;
    }
    at_run_time = true;
    pieces.clear();
  }
  bool ok = true;
  auto arg_of = [&](size_t k) -> const Expr& {
    return is_tuple(b) && rhs.kind == ExprKind::Tuple ? *rhs.kids[k] : rhs;
  };
  for (const FormatPiece& f : pieces)
    if (f.field && !format_field(arg_of(f.arg), types[f.arg], f, tmpl.pos, at_run_time)) ok = false;
  if (at_run_time) {
    e.target = "str.percent.run";
    raises();
    for (size_t k = 0; k < types.size(); ++k)
      if (!run_time_format_arg(arg_of(k), types[k])) ok = false;
  }
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
  bool at_run_time = false;
  if (!format_field(*e.kids[1], t, f, e.kids[nargs]->pos, at_run_time)) return Ty::Error;
  e.target = at_run_time ? "format.run" : "format";
  return Ty::Str;
}

}  // namespace ppy::frontend::checking
