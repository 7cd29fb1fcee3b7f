// The body checker, `e.args` and `repr(e)` of exceptions (issue 32,
// docs/language.md "Exceptions"), rewritten into what the checker already has
// so that every road runs them as it runs a tuple display or a str:
//
//   e.args      of an instance of an exception class C (exception_args.h):
//               (e.__argv[0], int(e.__argv[1]), ...)   (each read back from its str();
//               e.__args in place of e.__argv[0] while e.__argraw: one str argument, kept as given)
//   e.args      of a builtin exception (shown_args.h, io_helpers.h), from the repr of the args tuple
//               its raise kept (ppy_exc_args: `(2, 'No such file or directory')`, `('a', 1)`), else
//               from (str(e),), a KeyError's key without its quotes:
//     print(e.args), str(e.args), f"{e.args}":  that repr
//     a, b = e.args:   (__ppy_exc_args_n(..., 2)[0], __ppy_exc_args_n(..., 2)[1]), each an
//                      `int | float | bool | str` (ValueError when the count differs)
//     otherwise:       __ppy_exc_arg_values(...), a `list[int | float | bool | str]`
//   repr(e)     of a builtin exception:  the name, then the repr of the args tuple its raise kept
//               (ppy_exc_args: `(3,)` read as `(3)`, `(1, 2)`) where it kept one, else
//               f"{type(e).__name__}()" if str(e) == "" else
//               type(e).__name__ + "(" + (str(e) if KeyError else repr(str(e))) + ")"
#include "body_checker.h"
#include "exception_args.h"
#include "exception_classes.h"
#include "expr_build.h"
#include "io_helpers.h"
#include "ppy/util/str_cat.h"
#include "shown_args.h"
#include "types.h"
#include "unions.h"

namespace ppy::frontend::checking {
namespace {

/// A name or a field of one: what may be read again with no effect.
bool rereadable(const Expr& x) {
  if (x.kind == ExprKind::Name) return true;
  return x.kind == ExprKind::Attribute && x.kids.size() == 1 && rereadable(*x.kids[0]);
}

ExprPtr call1(const char* f, ExprPtr a, Pos p) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  return build::call(build::name(f, p), std::move(args), p);
}

ExprPtr compare_of(ExprPtr a, const char* op, ExprPtr b, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(a));
  kids.push_back(std::move(b));
  ExprPtr c = build::with_kids(ExprKind::Compare, p, std::move(kids));
  c->ops.push_back(op);
  return c;
}

ExprPtr str_lit(const std::string& s, Pos p) { return build::node(ExprKind::Str, p, s); }

/// `type(x).__name__`, which the checker lowers as the caught exception's name.
ExprPtr type_name_of(const Expr& x, Pos p) {
  return build::with_kids(
      ExprKind::Attribute, p,
      [&] {
        std::vector<ExprPtr> k;
        k.push_back(call1("type", build::clone(x), p));
        return k;
      }(),
      "__name__");
}

thread_local const Expr* marked_now = nullptr;
thread_local ArgsUse marked_use = ArgsUse::Value;
thread_local size_t marked_n = 0;

}  // namespace

ArgsUseMark::ArgsUseMark(const Expr& x, ArgsUse use, size_t n)
    : outer_(marked_now), outer_use_(marked_use), outer_n_(marked_n) {
  marked_now = &x;
  marked_use = use;
  marked_n = n;
}
ArgsUseMark::~ArgsUseMark() {
  marked_now = outer_;
  marked_use = outer_use_;
  marked_n = outer_n_;
}
ArgsUse ArgsUseMark::of(const Expr& e) { return marked_now == &e ? marked_use : ArgsUse::Value; }
size_t ArgsUseMark::count() { return marked_n; }

bool shows_exception_args(const Expr& x) {
  return x.kind == ExprKind::Call && !x.kids.empty() && x.kids[0]->kind == ExprKind::Name &&
         x.kids[0]->str == kExcArgsText;
}

bool BodyChecker::is_exception_args(const Expr& e, Ty bt) {
  if (e.str != "args" || e.kids.size() != 1) return false;
  if (bt == Ty::Exc) return true;
  return is_exception_class(bt) && class_info(bt)->field("args") < 0 && !class_info(bt)->methods.count("args") &&
         !class_info(bt)->methods.count("@property:args");
}

Ty BodyChecker::exception_args_value(Expr& e, Ty bt) {
  Pos p = e.pos;
  const Expr& x = *e.kids[0];
  // The checked name of an `as e` of a class is its hidden local (`.e9_5`), which a dotted
  // path cannot start with: the copies name `e` again.
  auto reread = [&] {
    ExprPtr c = build::clone(x);
    Expr* n = c.get();
    while (n->kind == ExprKind::Attribute) n = n->kids[0].get();
    for (auto& [as, hidden] : exc_alias_)
      if (n->kind == ExprKind::Name && hidden == n->str) n->str = as;
    return c;
  };
  std::vector<ExprPtr> elems;
  if (bt == Ty::Exc) {  // from the repr of the args its raise kept (shown_args.h, io_helpers.h)
    ArgsUse use = ArgsUseMark::of(e);
    size_t n = ArgsUseMark::count();
    auto helper = [&](const char* f, bool with_n) {
      std::vector<ExprPtr> a;
      a.push_back(type_name_of(x, p));
      a.push_back(call1("str", build::clone(x), p));
      std::vector<ExprPtr> k;
      k.push_back(build::clone(x));
      ExprPtr kept = build::with_kids(ExprKind::Attribute, p, std::move(k), "__ppy_args");
      kept->target = "exc.args";
      a.push_back(std::move(kept));
      if (with_n) a.push_back(build::int_lit(static_cast<int64_t>(n), p));
      return build::call(build::name(f, p), std::move(a), p);
    };
    if (use != ArgsUse::Unpacked) {
      e = std::move(*helper(use == ArgsUse::Shown ? kExcArgsText : kExcArgValues, false));
      return value(e, Ty::Error);
    }
    for (size_t i = 0; i < n; ++i) {  // `a, b = e.args`: each name one argument, of its own type
      std::vector<ExprPtr> sub;
      sub.push_back(helper(kExcArgsN, true));
      sub.push_back(build::int_lit(static_cast<int64_t>(i), p));
      elems.push_back(build::with_kids(ExprKind::Subscript, p, std::move(sub)));
    }
  } else {
    std::vector<Ty> types;
    std::string why;
    if (!exception_args_types(m_, bt, types, why)) {
      error(e.pos, "E1010", str_cat("e.args of '", class_info(bt)->name, "' is outside the ppy subset: ", why));
      return Ty::Error;
    }
    if (!rereadable(x)) {
      error(x.pos, "E1010",
            "e.args of an expression other than a name or a field is outside the ppy subset (assign it to a local "
            "first)");
      return Ty::Error;
    }
    auto hidden = [&](std::string_view field) {  // `e.<field>`, which only e.args may name
      ExprPtr f = build::with_kids(
          ExprKind::Attribute, p,
          [&] {
            std::vector<ExprPtr> k;
            k.push_back(reread());
            return k;
          }(),
          std::string(field));
      f->target = "exc.argv";
      return f;
    };
    for (size_t i = 0; i < types.size(); ++i) {
      std::vector<ExprPtr> sub;
      sub.push_back(hidden(kExcArgvField));
      sub.push_back(build::int_lit(static_cast<int64_t>(i), p));
      ExprPtr s = build::with_kids(ExprKind::Subscript, p, std::move(sub));
      // An instance made from one str keeps it in `__args` until read (exception_classes.h, `__argraw`).
      if (i == 0) s = build::if_exp(hidden(kExcArgRawField), hidden(kExcArgsField), std::move(s), p);
      if (types[i] == Ty::Int)
        s = call1("int", std::move(s), p);
      else if (types[i] == Ty::Float)
        s = call1("float", std::move(s), p);
      else if (types[i] == Ty::Bool)
        s = compare_of(std::move(s), "==", str_lit("True", p), p);
      elems.push_back(std::move(s));
    }
  }
  ExprPtr out = build::with_kids(ExprKind::Tuple, p, std::move(elems));
  e = std::move(*out);
  return value(e, Ty::Error);
}

bool BodyChecker::is_exc_arg(const Expr& x) const {
  if (x.kind == ExprKind::Name) return exc_arg_locals_.count(x.str) > 0;
  if (x.kind == ExprKind::Tuple) {  // `code, msg = e.args`, unpacked from its display
    for (auto& k : x.kids)
      if (!is_exc_arg(*k)) return false;
    return !x.kids.empty();
  }
  if (x.kind != ExprKind::Subscript || x.kids.size() != 2 || x.kids[0]->kind != ExprKind::Call) return false;
  const Expr& f = *x.kids[0]->kids[0];
  return f.kind == ExprKind::Name && (f.str == kExcArgValues || f.str == kExcArgsN);
}

ExprPtr BodyChecker::exc_arg_copy(const Expr& x) {
  bool may = x.kind == ExprKind::Name || (x.kind == ExprKind::Subscript && x.kids[0]->kind == ExprKind::Attribute &&
                                          x.kids[0]->str == "args");
  return may ? build::clone(x) : nullptr;
}

bool BodyChecker::exc_arg_as(Expr& x, ExprPtr& copy, Ty& t, Ty want, const std::string& what) {
  if (!copy || t != union_of({Ty::Int, Ty::Float, Ty::Bool, Ty::Str}) || !is_exc_arg(x)) return false;
  const char* f = want == Ty::Str ? kExcArgStr : want == Ty::Int || want == Ty::Bool ? kExcArgInt
                  : want == Ty::Float                             ? kExcArgFloat
                                                                  : nullptr;
  if (!f) return false;
  Pos p = x.pos;
  std::vector<ExprPtr> a;
  a.push_back(std::move(copy));
  a.push_back(str_lit(what, p));
  x = std::move(*build::call(build::name(f, p), std::move(a), p));
  t = value(x, Ty::Error);
  return true;
}

Ty BodyChecker::exception_repr(Expr& e) {
  Pos p = e.pos;
  const Expr& x = *e.kids[1];
  if (!rereadable(x)) {
    error(x.pos, "E1010",
          "repr() of a caught exception other than a name is outside the ppy subset (assign it to a local first)");
    return Ty::Error;
  }
  auto name = [&] { return type_name_of(x, p); };
  auto cat = [&](ExprPtr a, ExprPtr b) { return build::binary("+", std::move(a), std::move(b), p); };
  ExprPtr arg = build::if_exp(compare_of(name(), "==", str_lit("KeyError", p), p), call1("str", build::clone(x), p),
                              call1("repr", call1("str", build::clone(x), p), p), p);
  ExprPtr full = cat(cat(cat(name(), str_lit("(", p)), std::move(arg)), str_lit(")", p));
  ExprPtr out = build::if_exp(compare_of(call1("str", build::clone(x), p), "==", str_lit("", p), p),
                              cat(name(), str_lit("()", p)), std::move(full), p);
  // The repr of the args tuple its raise kept (ppy_exc_args): `(3,)` is `Name(3)`, `(1, 2)` `Name(1, 2)`.
  auto args = [&] {
    std::vector<ExprPtr> k;
    k.push_back(build::clone(x));
    ExprPtr a = build::with_kids(ExprKind::Attribute, p, std::move(k), "__ppy_args");
    a->target = "exc.args";
    return a;
  };
  std::vector<ExprPtr> ends;
  ends.push_back(str_lit(",)", p));
  ExprPtr one = build::call(build::with_kids(ExprKind::Attribute, p,
                                             [&] {
                                               std::vector<ExprPtr> k;
                                               k.push_back(args());
                                               return k;
                                             }(),
                                             "endswith"),
                            std::move(ends), p);
  std::vector<ExprPtr> cut;  // `args[:-2]`: the one arg without its `,)`
  cut.push_back(build::int_lit(-2, p));
  ExprPtr upto = build::with_kids(ExprKind::Slice, p, std::move(cut));
  upto->ival = 2;
  std::vector<ExprPtr> sub;
  sub.push_back(args());
  sub.push_back(std::move(upto));
  ExprPtr kept = build::if_exp(std::move(one), cat(build::with_kids(ExprKind::Subscript, p, std::move(sub)), str_lit(")", p)),
                               args(), p);
  out = build::if_exp(compare_of(args(), "==", str_lit("", p), p), std::move(out), cat(name(), std::move(kept)), p);
  ExprPtr held = build::clone(x);
  if (value(*out, Ty::Error) == Ty::Error || value(*held, Ty::Error) == Ty::Error) return Ty::Error;
  // An instance of the program's own exception class shows its class's repr instead (lower_exception_class.cc).
  std::vector<ExprPtr> k;
  k.push_back(std::move(held));
  k.push_back(std::move(out));
  ExprPtr own = build::with_kids(ExprKind::Attribute, p, std::move(k), "__ppy_repr");
  own->target = "exc.repr";
  e = std::move(*own);
  return Ty::Str;
}

}  // namespace ppy::frontend::checking
