// The body checker, functions as values (callable.h): nested defs, lambdas,
// `nonlocal`, a module's function used as a value, and calls through values.
//
// A nested function is checked by a BodyChecker of its own whose `outer_` is
// the function around it. It sees the variables of the functions around it as
// its own (seed_enclosing), except those it assigns, which are its locals, as
// Python's scopes have it; after it is checked, the ones it used are its
// captures, and each becomes a cell in the function that owns it.
#include <algorithm>
#include <functional>

#include "body_checker.h"
#include "callable.h"
#include "checker_internal.h"
#include "imported_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {
namespace checking {

std::optional<Ty> callable_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                      const std::function<void(Pos, const char*, std::string)>& error) {
  if (a.kind != ExprKind::Subscript) return std::nullopt;
  std::optional<std::string> base = dotted(*a.kids[0]);
  if (!base || (*base != "Callable" && *base != "typing.Callable" && *base != "collections.abc.Callable" &&
                *base != "abc.Callable"))
    return std::nullopt;
  const Expr& arg = *a.kids[1];
  if (arg.kind != ExprKind::Tuple || arg.kids.size() != 2 || arg.kids[0]->kind != ExprKind::List) {
    error(a.pos, "E1031", "a Callable type names its parameters and result: Callable[[int, str], bool]");
    return Ty::Error;
  }
  std::vector<Ty> params;
  for (auto& p : arg.kids[0]->kids) {
    Ty t = elem(*p);
    if (t == Ty::Error) return Ty::Error;
    params.push_back(t);
  }
  Ty result = arg.kids[1]->kind == ExprKind::NoneLit ? Ty::None : elem(*arg.kids[1]);
  if (result == Ty::Error) return Ty::Error;
  return callable_of(params, result);
}

namespace {

/// The names a body reads or assigns (Name expressions the checker resolved
/// to a local), and those its nested functions capture.
class UsedNames {
 public:
  UsedNames(const ModuleInfo& m, std::set<std::string>& out) : m_(m), out_(out) {}

  void body(const std::vector<StmtPtr>& b) {
    for (auto& s : b) stmt(*s);
  }

 private:
  void stmt(const Stmt& s) {
    if (s.kind == StmtKind::Def) {
      if (auto it = m_.closure_of.find(s.def.get()); it != m_.closure_of.end())
        for (auto& [n, t] : m_.closures[it->second].captures) out_.insert(n);
      if (s.def) out_.insert(s.def->name);
      return;
    }
    if (s.kind == StmtKind::Nonlocal)
      for (auto& n : s.names) out_.insert(n.name);
    for (auto& t : s.targets) expr(*t);
    if (s.value) expr(*s.value);
    if (s.kind == StmtKind::Assert && s.annotation) expr(*s.annotation);
    for (auto& h : s.handlers)
      if (!h.name.empty()) out_.insert(h.name);
    for_each_suite(s, [&](const std::vector<StmtPtr>& b) { body(b); });
  }

  void expr(const Expr& e) {
    if (e.kind == ExprKind::Name) out_.insert(e.str);
    if (e.kind == ExprKind::Lambda && e.ival >= 0 && static_cast<size_t>(e.ival) < m_.closures.size())
      for (auto& [n, t] : m_.closures[static_cast<size_t>(e.ival)].captures) out_.insert(n);
    for (auto& k : e.kids)
      if (k) expr(*k);
    for (auto& k : e.keywords)
      if (k.value) expr(*k.value);
  }

  const ModuleInfo& m_;
  std::set<std::string>& out_;
};

/// A nested function's name in the module: `<outer>__<name>`, numbered apart
/// when a function nests two of one name.
std::string closure_name(const ModuleInfo& m, const std::string& outer, const std::string& name) {
  std::string base = str_cat(outer, "__", name);
  std::string n = base;
  for (int k = 2;; ++k) {
    bool taken = m.func(n) != nullptr;
    for (auto& c : m.closures) taken = taken || c.name == n;
    if (!taken) return n;
    n = str_cat(base, k);
  }
}

}  // namespace

void BodyChecker::collect_nonlocals(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Nonlocal) {
      for (auto& n : s->names) {
        std::map<std::string, Ty> seen;
        if (outer_) outer_->visible(seen);
        if (f_.module_code) {
          error(n.pos, "E1001", "nonlocal declaration not allowed at module level");
        } else if (!seen.count(n.name)) {
          error(n.pos, "E1001", str_cat("no binding for nonlocal '", n.name, "' found"));
        } else {
          for (auto& p : f_.def->params)
            if (p.name == n.name) error(n.pos, "E1001", str_cat("name '", n.name, "' is parameter and nonlocal"));
          nonlocal_.insert(n.name);
        }
      }
    }
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { collect_nonlocals(b); });
  }
}

void BodyChecker::visible(std::map<std::string, Ty>& out) const {
  for (auto& [n, t] : types_) {
    // A hidden local (`.ret`, a loop's counter) is the function's own, never a nested one's.
    if (t == Ty::Error || unknown_.count(n) || globals_.count(n) || n.starts_with('.')) continue;
    // A module variable that functions use lives in a global: a lambda of the
    // module's code reads it there, as those functions do.
    if (f_.module_code && m_.shared_vars.count(n)) continue;
    out.emplace(n, t);
  }
}

void BodyChecker::seed_enclosing() {
  if (!outer_) return;
  std::map<std::string, Ty> seen;
  outer_->visible(seen);
  for (auto& [n, t] : seen) {
    if (types_.count(n) && !nonlocal_.count(n)) continue;  // a local of its own hides it
    types_[n] = t;
    flow_.assigned.insert(n);
    enclosing_.insert(n);
  }
}

void BodyChecker::nested_def(Stmt& s) {
  FuncDef& def = *s.def;
  if (gpu_) {
    error(s.pos, "E1100", "a nested function is not available in GPU code");
    return;
  }
  if (!def.decorators.empty()) {
    error(def.decorators[0]->pos, "E1010", "a decorator on a nested function is outside the ppy subset");
    return;
  }
  FuncInfo c;
  c.def = &def;
  c.name = closure_name(m_, f_.name, def.name);
  c.closure = true;
  bool ok = true;
  for (auto& p : def.params) {
    if (!p.annotation) {
      error(p.pos, "E1031", str_cat("parameter '", p.name, "' of '", def.name, "' needs a type annotation"));
      ok = false;
      continue;
    }
    if (p.default_value) {
      error(p.default_value->pos, "E1010", "a default of a nested function's parameter is outside the ppy subset");
      ok = false;
    }
    p.ty = annotation(p.annotation.get());
    if (p.ty == Ty::Error) ok = false;
    c.params.push_back(p.ty);
    c.defaults.emplace_back();
    c.locals.emplace_back(p.name, p.ty);
  }
  c.result = !def.returns || def.returns->kind == ExprKind::NoneLit ? Ty::None : annotation(def.returns.get());
  if (c.result == Ty::Error) ok = false;
  // What a closure does is seen where it is called, through a value: its
  // effects are all of them, so no pass takes it for pure.
  c.effects = {"io", "raises", "reads", "writes"};
  Ty t = ok ? callable_of(c.params, c.result) : Ty::Error;
  size_t index = m_.closures.size();
  m_.closures.push_back(std::move(c));
  m_.closure_of[&def] = index;
  Expr target;
  target.kind = ExprKind::Name;
  target.pos = def.pos;
  target.str = def.name;
  assign(target, t, target);
  if (ok) deferred_.push_back(index);
}

void BodyChecker::check_nested() {
  for (size_t index : deferred_) {
    FuncInfo& c = m_.closures[index];
    BodyChecker child(m_, c, all_, d_);
    child.outer_ = this;
    child.run();
    finish_closure(c, child);
    if (c.has_body_errors) f_.has_body_errors = true;
  }
  deferred_.clear();
}

void BodyChecker::finish_closure(FuncInfo& c, BodyChecker& child) {
  std::set<std::string> used;
  UsedNames(m_, used).body(c.def->body);
  for (const std::string& n : used)
    if (child.enclosing_.count(n)) c.captures.emplace_back(n, child.types_.at(n));
  for (auto& [n, t] : c.captures)
    if (!enclosing_.count(n)) f_.cells.insert(n);  // this function's own variable: it lives in a cell
  if (!c.captures.empty() || !f_.cells.empty()) {
    effect("reads");
    effect("writes");
  }
}

Ty BodyChecker::lambda_expr(Expr& e, Ty expected) {
  if (e.kids.empty()) {  // checked already (a comprehension's element is checked twice): the same function
    if (e.ival < 0 || static_cast<size_t>(e.ival) >= m_.closures.size()) return Ty::Error;
    const FuncInfo& c = m_.closures[static_cast<size_t>(e.ival)];
    return callable_of(c.params, c.result);
  }
  e.ival = -1;
  if (gpu_) {
    error(e.pos, "E1100", "a lambda is not available in GPU code");
    return Ty::Error;
  }
  // A lambda of no parameters needs no declared type: its body's gives its result
  // (`for f in (lambda: 1, lambda: 2)`, `actions = [lambda: print("hi")]`).
  if (!is_callable(expected) && e.ops.empty()) expected = callable_of({}, Ty::Error);
  if (!is_callable(expected) || callable_params(expected).size() != e.ops.size()) {
    error(e.pos, "E1010",
          is_callable(expected)
              ? str_cat("this lambda takes ", e.ops.size(), " parameter(s) where a ", ty_name(expected), " is expected")
              : std::string("a lambda here has no type: give it where a Callable[[...], R] is declared (an "
                            "annotated variable, a parameter, a key= argument)"));
    return Ty::Error;
  }
  std::vector<Ty> params = callable_params(expected);
  auto def = std::make_unique<FuncDef>();
  // A generator expression's element made a lambda is its `<genexpr>` frame;
  // map()'s call of its function is none ("", ppy/ir/trace.h).
  def->name = e.comp_frame ? e.comp_frame : "<lambda>";
  def->pos = e.pos;
  for (size_t i = 0; i < params.size(); ++i) {
    Param p;
    p.name = e.ops[i];
    p.pos = e.pos;
    p.ty = params[i];
    def->params.push_back(std::move(p));
  }
  Ty want = callable_result(expected);
  auto ret = std::make_unique<Stmt>();
  // A lambda whose value nobody uses (a Callable[..., None]) runs its body as a statement.
  ret->kind = want == Ty::None ? StmtKind::Expr : StmtKind::Return;
  ret->pos = e.kids[0]->pos;
  ret->value = std::move(e.kids[0]);
  e.kids.clear();
  def->body.push_back(std::move(ret));
  FuncInfo c;
  c.def = def.get();
  c.name = closure_name(m_, f_.name, "lambda");
  c.closure = true;
  c.params = params;
  for (size_t i = 0; i < params.size(); ++i) {
    c.defaults.emplace_back();
    c.locals.emplace_back(e.ops[i], params[i]);
  }
  c.result = want;  // Error: the body's type decides
  c.effects = {"io", "raises", "reads", "writes"};
  m_.closure_defs.push_back(std::move(def));
  size_t index = m_.closures.size();
  m_.closures.push_back(std::move(c));
  FuncInfo& info = m_.closures[index];
  {
    BodyChecker child(m_, info, all_, d_);
    child.outer_ = this;
    child.run();
    finish_closure(info, child);
  }
  if (info.has_body_errors) f_.has_body_errors = true;
  const Stmt& body = *info.def->body[0];
  if (want == Ty::Error) {
    Ty got = body.value->ty;
    info.result = got;
    if (got == Ty::Error) return Ty::Error;
  }
  e.ival = static_cast<int64_t>(index);
  if (info.has_body_errors) return Ty::Error;
  return callable_of(info.params, info.result);
}

Ty BodyChecker::value_call(Expr& e, Ty ct) {
  e.ref = Ref::Value;
  std::vector<Ty> params = callable_params(ct);
  bool ok = true;
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1010", "keyword arguments in a call of a function value are outside the ppy subset");
    ok = false;
  }
  size_t nargs = e.kids.size() - 1;
  if (nargs != params.size()) {
    error(e.pos, "E1030", str_cat("a ", ty_name(ct), " takes ", params.size(), " argument(s), not ", nargs));
    ok = false;
  }
  for (size_t i = 1; i < e.kids.size(); ++i) {
    Ty want = i - 1 < params.size() ? params[i - 1] : Ty::Error;
    Ty t = value(*e.kids[i], want);
    if (t != Ty::Error && want != Ty::Error && !assignable(t, want)) {
      error(e.kids[i]->pos, "E1030",
            str_cat("argument ", i, " of a ", ty_name(ct), " is a ", ty_name(want), ", not ", ty_name(t),
                    hint_for(want, t)));
      ok = false;
    }
  }
  // What the value runs is not known here: every effect a function may have.
  for (const char* x : {"io", "raises", "reads", "writes"}) effect(x);
  if (!ok) return Ty::Error;
  return callable_result(ct);
}

Ty BodyChecker::function_value(Expr& e, const Resolved& r) {
  if (r.module != m_.name) {
    error(e.pos, "E1010",
          str_cat("'", e.str, "' is a function of module ", r.module,
                  "; using another module's function as a value is outside the ppy subset (wrap it in a lambda)"));
    return Ty::Error;
  }
  FuncInfo* f = m_.func(r.name);
  if (!f || !f->gpu_kind.empty() || f->module_code || gpu_) {
    error(e.pos, "E1030", str_cat("'", e.str, "' cannot be used as a value"));
    return Ty::Error;
  }
  if (f_.module_code && f->def->pos.line > line_) {
    error(e.pos, "E1020", str_cat("name '", e.str, "' is not defined (its `def` comes later in the module)"));
    return Ty::Error;
  }
  for (Ty p : f->params)
    if (p == Ty::Error) return Ty::Error;
  if (f->result == Ty::Error) return Ty::Error;
  e.ref = Ref::Func;
  e.target = r.name;
  m_.func_values.insert(r.name);
  return callable_of(f->params, f->result);
}

/// The key of method `name` of class `impl` bound to an object as a value (`f = obj.m`) in
/// ModuleInfo::func_values, the name of its bound entry: `Class.m` for a class of `m`,
/// `pkg_mod__Class.m` for another module's (lower_closure.cc finds that class again).
std::string bound_method_key(const ModuleInfo& m, Ty impl, const std::string& name) {
  const ModuleInfo& home = owner_of(m, impl);
  if (&home == &m) return str_cat(ty_name(impl), ".", name);
  std::string mod = home.name;  // `shop.models` -> `shop_models__Tally.bump`: a symbol's characters
  std::replace(mod.begin(), mod.end(), '.', '_');
  return str_cat(mod, "__", class_info(impl)->name, ".", name);
}

Ty bound_method_value(ModuleInfo& m_, Expr& e, Ty bt) {
  const ClassInfo& c = *class_info(bt);
  const std::string& name = e.str;
  const FuncInfo* f = class_method(m_, c.methods.at(name), name);  // an imported class's, from its module
  if (!f) return Ty::Error;
  for (Ty p : f->params)
    if (p == Ty::Error) return Ty::Error;
  if (f->result == Ty::Error) return Ty::Error;
  // The method of the object's class runs: each override below the static class may.
  std::function<void(Ty)> impls = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    m_.func_values.insert(bound_method_key(m_, k.methods.at(name), name));  // a method: its bound entry
    for (Ty sub : k.subclasses) impls(sub);
  };
  impls(bt);
  e.ref = Ref::Method;
  e.target = name;
  return callable_of(std::vector<Ty>(f->params.begin() + 1, f->params.end()), f->result);
}

}  // namespace checking
}  // namespace ppy::frontend
