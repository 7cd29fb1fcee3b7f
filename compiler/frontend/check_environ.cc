// The body checker, os.environ and what a caught SystemExit or OSError holds
// (issue 33, docs/stdlib.md), rewritten into what the checker already has so
// that every road runs them as it runs the program's own code:
//
//   k in os.environ         os.environ.__contains__(k)   (ppy_os_environ_has)
//   os.environ[k]           os.environ.__getitem__(k)    (ppy_os_environ_item: KeyError)
//   os.environ.get(k)       __ppy_str_or_none(os.environ.__contains__(k), os.environ.get(k, ""))
//   e.code                  __ppy_exit_code(str(e), <e's args repr>)     (io_helpers.h)
//   e.errno, e.strerror,    __ppy_os_errno(str(e)), ...
//   e.filename
#include "body_checker.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "io_helpers.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {
namespace {

ExprPtr attr(ExprPtr x, const std::string& name, Pos p) {
  std::vector<ExprPtr> k;
  k.push_back(std::move(x));
  return build::with_kids(ExprKind::Attribute, p, std::move(k), name);
}

ExprPtr call_of(ExprPtr callee, ExprPtr a, Pos p) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  return build::call(std::move(callee), std::move(args), p);
}

}  // namespace

bool BodyChecker::is_environ(const Expr& x) {
  auto path = dotted(x);
  if (!path || types_.count(path->substr(0, path->find('.')))) return false;
  Resolved r = resolve_path(*path);
  return r.ref == Ref::Sys && r.name == "os.environ";
}

std::optional<Ty> BodyChecker::environ_contains(Expr& e) {
  if (e.ops.size() != 1 || (e.ops[0] != "in" && e.ops[0] != "not in") || !is_environ(*e.kids[1])) return std::nullopt;
  Pos p = e.pos;
  bool negated = e.ops[0] == "not in";
  ExprPtr test = call_of(attr(std::move(e.kids[1]), "__contains__", p), std::move(e.kids[0]), p);
  if (negated) {
    std::vector<ExprPtr> k;
    k.push_back(std::move(test));
    test = build::with_kids(ExprKind::Unary, p, std::move(k), "not");
  }
  e = std::move(*test);
  return value(e, Ty::Error);
}

std::optional<Ty> BodyChecker::environ_item(Expr& e) {
  if (e.kids.size() != 2 || !is_environ(*e.kids[0]) || e.kids[1]->kind == ExprKind::Slice) return std::nullopt;
  Pos p = e.pos;
  ExprPtr c = call_of(attr(std::move(e.kids[0]), "__getitem__", p), std::move(e.kids[1]), p);
  e = std::move(*c);
  return value(e, Ty::Error);
}

Ty BodyChecker::environ_get(Expr& e) {
  Pos p = e.pos;
  const Expr& key = *e.kids[1];
  if (key.kind != ExprKind::Str && key.kind != ExprKind::Name) {
    error(key.pos, "E1010",
          "os.environ.get(key) of a key other than a name or a str literal is outside the ppy subset (assign it to a "
          "local first)");
    return Ty::Error;
  }
  const Expr& env = *e.kids[0]->kids[0];  // `os.environ`, as the program spells it
  ExprPtr present = call_of(attr(build::clone(env), "__contains__", p), build::clone(key), p);
  std::vector<ExprPtr> get_args;
  get_args.push_back(build::clone(key));
  get_args.push_back(build::node(ExprKind::Str, p, ""));
  ExprPtr text = build::call(attr(build::clone(env), "get", p), std::move(get_args), p);
  std::vector<ExprPtr> args;
  args.push_back(std::move(present));
  args.push_back(std::move(text));
  ExprPtr out = build::call(build::name(kStrOrNone, p), std::move(args), p);
  e = std::move(*out);
  return value(e, Ty::Error);
}

std::optional<Ty> BodyChecker::exception_field(Expr& e) {
  const std::string& f = e.str;
  const char* helper = f == "code"       ? kExitCode
                       : f == "errno"    ? kOsErrno
                       : f == "strerror" ? kOsStrerror
                       : f == "filename" ? kOsFilename
                                         : nullptr;
  if (!helper || e.kids.size() != 1) return std::nullopt;
  Pos p = e.pos;
  const Expr& x = *e.kids[0];
  if (x.kind != ExprKind::Name) {
    error(x.pos, "E1010",
          str_cat("e.", f, " of a caught exception other than a name is outside the ppy subset (assign it to a local "
                  "first)"));
    return Ty::Error;
  }
  std::vector<ExprPtr> args;
  args.push_back(call_of(build::name("str", p), build::clone(x), p));
  if (f == "code") {  // the repr of its args tuple as its raise kept it (ppy_exc_args)
    ExprPtr kept = attr(build::clone(x), "__ppy_args", p);
    kept->target = "exc.args";
    args.push_back(std::move(kept));
  }
  ExprPtr out = build::call(build::name(helper, p), std::move(args), p);
  e = std::move(*out);
  return value(e, Ty::Error);
}

}  // namespace ppy::frontend::checking
