// The body checker, strings: operators, subscripts, methods and str() of the
// `str` type (docs/language.md, "Strings").
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "body_checker.h"
#include "shown_args.h"
#include "unions.h"
#include "builtins.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "operand_errors.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

Ty BodyChecker::str_binary(Expr& e, Ty a, Ty b) {
  const std::string& op = e.str;
  if (op == "+" && a == Ty::Str && b == Ty::Str) return Ty::Str;
  if (op == "*" &&
      ((a == Ty::Str && (b == Ty::Int || b == Ty::Bool)) || (b == Ty::Str && (a == Ty::Int || a == Ty::Bool)))) {
    raises();  // MemoryError for a result that cannot be held
    return Ty::Str;
  }
  if (op == "%" && a == Ty::Str) return str_percent(e, a, b);  // check_format.cc
  error(e.pos, "E1030", operand_type_error(op, a, b));  // python3's words (operand_errors.h)
  return Ty::Error;
}

bool BodyChecker::slice_indices(Expr& slice) {
  bool ok = true;
  for (auto& k : slice.kids) {
    Ty t = value(*k, Ty::Int);
    if (t != Ty::Error && t != Ty::Int && t != Ty::Bool) {
      error(k->pos, "E1030", str_cat("slice indices must be integers, not ", ty_name(t)));
      ok = false;
    }
    if (t == Ty::Error) ok = false;
  }
  slice.ty = Ty::Int;
  return ok;
}

Ty BodyChecker::str_subscript(Expr& e) {
  Expr& i = *e.kids[1];
  raises();  // IndexError, or a zero step's ValueError
  if (i.kind != ExprKind::Slice) {
    Ty t = value(i, Ty::Int);
    if (t != Ty::Error && t != Ty::Int && t != Ty::Bool) {
      error(i.pos, "E1030", str_cat("string indices must be integers, not ", ty_name(t)));
      return Ty::Error;
    }
    return Ty::Str;
  }
  return slice_indices(i) ? Ty::Str : Ty::Error;
}

namespace {
/// A `None` literal at `p` (`split(maxsplit=n)`'s separator).
ExprPtr node_none(Pos p) {
  auto n = std::make_unique<Expr>();
  n->kind = ExprKind::NoneLit;
  n->pos = p;
  return n;
}
}  // namespace

Ty BodyChecker::str_method(Expr& e, Expr& callee, Ty base) {
  (void)base;
  std::string name = callee.str;
  bool splits = name == "split" || name == "rsplit";
  // `s.split(sep, maxsplit=n)`, `s.splitlines(keepends=True)`: the keyword is the next positional argument.
  if (e.keywords.size() == 1 && ((splits && e.kids.size() <= 2 && e.keywords[0].name == "maxsplit") ||
                                 (name == "splitlines" && e.kids.size() == 1 && e.keywords[0].name == "keepends"))) {
    if (splits && e.kids.size() == 1) e.kids.push_back(node_none(e.pos));  // `split(maxsplit=n)`: sep None
    e.kids.push_back(std::move(e.keywords[0].value));
    e.keywords.clear();
  }
  // `s.split(None, n)` / `s.rsplit(None[, n])`: runs of whitespace (builtins.def's "split None").
  if (splits && e.kids.size() >= 2 && e.kids[1]->kind == ExprKind::NoneLit) {
    e.kids.erase(e.kids.begin() + 1);
    name += " None";
  }
  const BuiltinMethod* m = find_builtin_method("str", name, e.kids.size() - 1);
  if (!m) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    refuse_member(callee.pos, Ty::Str, name, str_cat("the str method '", name, "' is outside the ppy subset"));
    return Ty::Error;
  }
  if (m->id == BuiltinId::StrJoin || m->id == BuiltinId::StrSplit) return str_list_method(e, callee);
  if (m->id == BuiltinId::StrFormat) return str_format(e, callee);  // check_format.cc
  size_t nargs = e.kids.size() - 1, want = m->params.size(), least = required_params(*m);
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1032", str_cat("str.", name, "() takes no keyword arguments"));
    return Ty::Error;
  }
  if (least < want && nargs >= least && nargs <= want) {
    // a form with optional parameters (check_format.cc's block of builtins.def)
  } else if (nargs != want) {
    bool refused = m->more && nargs > want;  // Python's optional arguments the subset leaves out
    error(e.pos, refused ? "E1010" : "E1032",
          refused ? str_cat("str.", name, "() with ", nargs, " arguments is outside the ppy subset (it takes ", want,
                            ")")
                  : str_cat("str.", name, "() takes exactly ", want, " argument", want == 1 ? "" : "s", " (", nargs,
                            " given)"));
    return Ty::Error;
  }
  bool ok = true;
  for (size_t k = 1; k < e.kids.size(); ++k) {
    Ty want_ty = resolve(m->params[k - 1], Ty::Str);
    Ty t = value(*e.kids[k], want_ty);
    if (t == Ty::Error) {
      ok = false;
    } else if (k == 1 && affix_tuple(*m, t)) {
      // `s.startswith(("a", "b"))`: any of the tuple's strs
    } else if (want_ty == Ty::Int ? t != Ty::Int && t != Ty::Bool : t != want_ty) {
      error(e.kids[k]->pos, "E1030",
            want_ty == Ty::Str ? str_cat("str.", name, "() takes str arguments, not ", ty_name(t))
                               : str_cat("'", ty_name(t), "' object cannot be interpreted as an integer"));
      ok = false;
    }
  }
  e.ref = Ref::Builtin;
  e.target = "str." + name;
  e.builtin = m->id;
  if (m->id > BuiltinId::StrFormat) raises();  // text's methods: ValueError, TypeError of a fill
  return ok ? resolve(m->result, Ty::Str) : Ty::Error;
}

Ty BodyChecker::str_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  const std::string& n = e.target;  // str or repr
  if (n == "repr" && (nargs != 1 || !e.keywords.empty())) {
    error(e.pos, "E1032", str_cat("repr() takes exactly one argument (", nargs, " given)"));
    return Ty::Error;
  }
  if (!e.keywords.empty() || nargs > 1) {
    error(e.pos, "E1032", str_cat("str() takes at most 1 argument (", nargs, " given)"));
    return Ty::Error;
  }
  if (nargs == 0) return Ty::Str;
  Ty t;
  {
    ArgsUseMark marked(*e.kids[1], ArgsUse::Shown);  // `str(e.args)`: the repr of the args its raise kept
    t = value(*e.kids[1], Ty::Error);
  }
  if (t == Ty::Error) return t;
  if (shows_exception_args(*e.kids[1])) {  // already that repr, which is repr(e.args) too
    ExprPtr shown = std::move(e.kids[1]);
    e = std::move(*shown);
    return Ty::Str;
  }
  if (t == Ty::Exc && n == "str") return Ty::Str;  // the exception's message
  if (t == Ty::Exc) return exception_repr(e);       // issue 32 (check_exception_args.cc)
  std::string why;
  if (is_class(t) || holds_object(t) || !printable(t, &why)) return check_printable(*e.kids[1]) ? Ty::Str : Ty::Error;
  if (!is_numeric(t) && t != Ty::Str && !is_list(t) && !is_tuple(t) && !is_optional(t) && !is_none_value(t) && !is_dict(t) &&
      !is_set(t) && !is_union(t)) {  // a union: what it holds (lower_str.cc)
    error(e.kids[1]->pos, "E1010", str_cat(n, "() of ", ty_name(t), " is outside the ppy subset"));
    return Ty::Error;
  }
  if (is_list(t) || is_tuple(t)) effect("reads");
  return Ty::Str;
}

/// Whether `spec` (an f-string field's format spec) is one Python takes for a
/// value of type `t` and the runtime formats; else the reason and its code.
bool check_spec(const std::string& spec, Ty t, std::string& why, const char*& code) {
  code = "E1030";
  size_t i = 0, n = spec.size();
  char align = 0, sign = 0, grouping = 0, type = 0;
  bool alt = false, zero = false, precision = false;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (n > 0) {
    size_t cl = 1;
    while (cl < n && (static_cast<unsigned char>(spec[cl]) & 0xC0) == 0x80) ++cl;
    if (cl < n && is_align(spec[cl])) {
      align = spec[cl];
      i = cl + 1;
    } else if (is_align(spec[0])) {
      align = spec[0];
      i = 1;
    }
  }
  if (i < n && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec[i++];
  if (i < n && spec[i] == 'z') {
    code = "E1010";
    why = "the 'z' option of a format spec is outside the ppy subset";
    return false;
  }
  if (i < n && spec[i] == '#') alt = true, ++i;
  if (i < n && spec[i] == '0') zero = true, ++i;
  while (i < n && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
  if (i < n && (spec[i] == ',' || spec[i] == '_')) grouping = spec[i++];
  if (i < n && spec[i] == '.') {
    ++i;
    size_t d = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
    if (i == d) {
      why = "Format specifier missing precision";
      return false;
    }
    precision = true;
  }
  if (i < n) type = spec[i++];
  if (i < n) {
    why = "Invalid format specifier";
    return false;
  }
  if ((type == 'n' || type == 'c') && grouping) {
    why = str_cat("Cannot specify '", std::string(1, grouping), "' with '", std::string(1, type), "'.");
    return false;
  }
  std::string_view float_types = "eEfFgG%n";
  if (t == Ty::Str) {
    if (type && type != 's') {
      why = str_cat("Unknown format code '", std::string(1, type), "' for object of type 'str'");
      return false;
    }
    if (sign) why = "Sign not allowed in string format specifier";
    else if (alt) why = "Alternate form (#) not allowed in string format specifier";
    else if (align == '=') why = "'=' alignment not allowed in string format specifier";
    else if (grouping) why = str_cat("Cannot specify '", std::string(1, grouping), "' with 's'.");
    else if (zero) {
      code = "E1010";
      why = "a '0' flag in a str's format spec is outside the ppy subset";
    }
    return why.empty();
  }
  if (t == Ty::Float) {
    if (type && float_types.find(type) == std::string_view::npos) {
      why = str_cat("Unknown format code '", std::string(1, type), "' for object of type 'float'");
      return false;
    }
    return true;
  }
  // int (and bool with a spec: Python formats it as an int)
  std::string_view int_types = "dbxXocn";
  if (type && int_types.find(type) == std::string_view::npos && float_types.find(type) == std::string_view::npos) {
    why = str_cat("Unknown format code '", std::string(1, type), "' for object of type 'int'");
    return false;
  }
  bool int_type = !type || int_types.find(type) != std::string_view::npos;
  if (type == 'c' && (sign || alt)) {
    why = str_cat(sign ? "Sign" : "Alternate form (#)", " not allowed with integer format specifier 'c'");
    return false;
  }
  if (int_type && precision) {
    why = "Precision not allowed in integer format specifier";
    return false;
  }
  if (grouping == ',' && type && std::string_view("bxXo").find(type) != std::string_view::npos) {
    why = str_cat("Cannot specify ',' with '", std::string(1, type), "'.");
    return false;
  }
  return true;
}

Ty BodyChecker::fstring(Expr& e) {
  bool ok = true;
  for (auto& part : e.kids) {
    if (part->kind != ExprKind::FField) continue;
    ExprPtr copy = exc_arg_copy(*part->kids[0]);
    Ty t;
    {
      ArgsUseMark marked(*part->kids[0], part->str.empty() ? ArgsUse::Shown : ArgsUse::Value);  // `{e.args}`: as print shows it
      t = value(*part->kids[0], Ty::Error);
    }
    if (t == Ty::Error) {
      ok = false;
      continue;
    }
    if (copy && is_union(t) && part->str.empty() && is_exc_arg(*part->kids[0])) {  // `{e.args[1]}`: its str() / repr()
      Pos p = part->kids[0]->pos;
      std::vector<ExprPtr> args;
      args.push_back(std::move(copy));
      part->kids[0] = build::call(build::name(part->ival == 'r' ? "repr" : "str", p), std::move(args), p);
      part->ival = 0;
      t = value(*part->kids[0], Ty::Error);
      if (t == Ty::Error) {
        ok = false;
        continue;
      }
    }
    Expr& x = *part->kids[0];
    if (shows_exception_args(x)) part->ival = 0;  // `{e.args!r}`: the same repr
    if (t == Ty::Exc && part->str.empty() && part->ival != 'r') {  // `{e}`: str(e)
      part->ty = t;
      continue;
    }
    if (t == Ty::Exc && part->str.empty() && part->ival == 'r') {  // `{e!r}`: repr(e) (issue 32)
      Pos p = x.pos;
      std::vector<ExprPtr> args;
      args.push_back(std::move(part->kids[0]));
      part->kids[0] = build::call(build::name("repr", p), std::move(args), p);
      part->ival = 0;
      part->ty = value(*part->kids[0], Ty::Error);
      ok = ok && part->ty != Ty::Error;
      continue;
    }
    if (is_class(t) && part->str.empty()) {  // `{obj}` / `{obj!r}`: its str() / repr() (lower_dunder.cc)
      if (!check_printable(x)) ok = false;
      continue;
    }
    // `{xs}`, `{d}`: str(xs), python3's repr of the container
    bool shown_as_str = is_list(t) || is_tuple(t) || is_optional(t) || is_none_value(t) || is_dict(t) || is_set(t);
    if (std::string why; shown_as_str && !printable(t, &why)) {  // a list of caught exceptions (issue 32)
      check_printable(x);
      ok = false;
      continue;
    }
    if ((!is_numeric(t) && t != Ty::Str && !shown_as_str) || (shown_as_str && !part->str.empty())) {
      error(x.pos, "E1010",
            str_cat("an f-string field of ", ty_name(t), part->str.empty() ? "" : " with a format spec",
                    " is outside the ppy subset"));
      ok = false;
      continue;
    }
    part->ty = t;
    std::string why;
    const char* code = "E1030";
    Ty shown = part->ival == 'r' && t == Ty::Str ? Ty::Str : t;
    if (part->kids.size() > 1) {  // a nested field: the spec is made, and checked by the runtime, as it runs
      if (value(*part->kids[1], Ty::Str) != Ty::Str) ok = false;
      raises();
    } else if (!part->str.empty() && !check_spec(part->str, shown == Ty::Bool ? Ty::Int : shown, why, code)) {
      if (std::string_view(code) == "E1030") {
        raises();  // python3 raises it when the field runs, so does the runtime's format (ppy_print.c)
        continue;
      }
      error(part->pos, code, str_cat("format spec '", part->str, "': ", why));
      ok = false;
    }
  }
  return ok ? Ty::Str : Ty::Error;
}

}  // namespace ppy::frontend::checking
