// The body checker, the `random` and `time` modules (docs/stdlib.md): each
// function a line of builtins.def (receiver "random" or "time"), its
// arguments checked against the line; choice, shuffle, sample and choices take
// a list of any element type and give its elements (lower_random.cc).
#include <memory>
#include <set>
#include <string>

#include "body_checker.h"
#include "builtins.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// Whether an argument of type `t` fits parameter type `want` (an int is a
/// float's argument, a bool an int's, as Python's).
bool fits(Ty t, Ty want) {
  if (want == Ty::Float) return is_numeric(t);
  if (want == Ty::Int) return t == Ty::Int || t == Ty::Bool;
  return t == want;
}

/// The module a `random.f` / `time.f` name is of, or empty.
std::string module_of(const std::string& n) {
  for (const char* m : {"random", "time"})
    if (n.starts_with(m) && n.size() > std::string(m).size() && n[std::string(m).size()] == '.') return m;
  return "";
}

}  // namespace

bool is_stdlib_module(const std::string& m) { return m == "random" || m == "time"; }

bool is_random_name(const std::string& n) {
  if (is_stdlib_module(n) || is_collections_class_name(n)) return true;
  std::string m = module_of(n);
  return !m.empty() && find_builtin_method(m, n.substr(m.size() + 1)) != nullptr;
}

Ty BodyChecker::random_call(Expr& e, const std::string& n) {
  e.ref = Ref::Sys;
  e.target = n;
  std::string mod = module_of(n);
  std::string name = mod.empty() ? n : n.substr(mod.size() + 1);
  if (mod.empty()) {
    error(e.kids[0]->pos, "E1030", str_cat("'", n, "' is a module; it is not callable"));
    return Ty::Error;
  }
  effect("io");  // the generator's state, the clock
  // Keywords by name: k (sample, choices), weights and cum_weights (choices);
  // anything else is refused as Python's message would name it.
  std::vector<Expr*> args;
  for (size_t k = 1; k < e.kids.size(); ++k) args.push_back(e.kids[k].get());
  Expr* weights = nullptr;
  Expr* cum = nullptr;
  Expr* count = nullptr;
  for (auto& kw : e.keywords) {
    bool ok = (name == "sample" && kw.name == "k") ||
              (name == "choices" && (kw.name == "k" || kw.name == "weights" || kw.name == "cum_weights")) ||
              (name == "gauss" && (kw.name == "mu" || kw.name == "sigma"));
    if (!ok) {
      error(kw.pos, "E1032", str_cat(n, "() got an unexpected keyword argument '", kw.name, "'"));
      return Ty::Error;
    }
    if (kw.name == "k") count = kw.value.get();
    if (kw.name == "weights") weights = kw.value.get();
    if (kw.name == "cum_weights") cum = kw.value.get();
    if (kw.name == "mu") {
      if (!args.empty()) {
        error(kw.pos, "E1032", str_cat(n, "() got multiple values for argument 'mu'"));
        return Ty::Error;
      }
      args.push_back(kw.value.get());
    }
    if (kw.name == "sigma") {
      if (args.size() > 1) {
        error(kw.pos, "E1032", str_cat(n, "() got multiple values for argument 'sigma'"));
        return Ty::Error;
      }
      if (args.empty()) {
        error(kw.pos, "E1010", "random.gauss(sigma=...) without mu is outside the ppy subset");
        return Ty::Error;
      }
      args.push_back(kw.value.get());
    }
  }
  if (name == "sample" && count) args.push_back(count);
  if (name == "choices" && args.size() == 2) weights = args.back(), args.pop_back();
  // The element-generic functions: a list (or a str for choice) and its elements.
  if (name == "choice" || name == "shuffle" || name == "sample" || name == "choices") {
    // `sample(range(n), k)` and the like: the range as the list it holds, `list(range(n))`
    // (not for shuffle, as a range cannot be shuffled in place).
    if (name != "shuffle" && !args.empty() && e.kids.size() > 1 && args[0] == e.kids[1].get() &&
        args[0]->kind == ExprKind::Call && args[0]->kids[0]->kind == ExprKind::Name &&
        args[0]->kids[0]->str == "range" && !types_.count("range") && !m_.bindings.count("range") &&
        !m_.func_index.count("range") && !types_.count("list") && !m_.bindings.count("list") &&
        !m_.func_index.count("list")) {
      auto wrap = std::make_unique<Expr>();
      wrap->kind = ExprKind::Call;
      wrap->pos = args[0]->pos;
      wrap->depth = args[0]->depth + 1;
      auto callee = std::make_unique<Expr>();
      callee->kind = ExprKind::Name;
      callee->pos = args[0]->pos;
      callee->str = "list";
      wrap->kids.push_back(std::move(callee));
      wrap->kids.push_back(std::move(e.kids[1]));
      e.kids[1] = std::move(wrap);
      args[0] = e.kids[1].get();
    }
    size_t want = name == "sample" ? 2 : 1;
    if (args.size() != want) {
      error(e.pos, "E1032",
            str_cat(n, "() takes exactly ", want, " argument", want == 1 ? "" : "s", " (", args.size(), " given)"));
      return Ty::Error;
    }
    Ty t = value(*args[0], Ty::Error);
    if (t == Ty::Error) return t;
    bool str_ok = name == "choice" && t == Ty::Str;
    if (!is_list(t) && !str_ok) {
      error(args[0]->pos, "E1010",
            str_cat(n, "() of ", ty_name(t), " is outside the ppy subset (it takes a list",
                    name == "choice" ? " or a str" : "", ")"));
      return Ty::Error;
    }
    for (Expr* a : {name == "sample" ? args[1] : nullptr, name == "choices" ? count : nullptr}) {
      if (!a) continue;
      Ty kt = value(*a, Ty::Int);
      if (kt == Ty::Error) return kt;
      if (!fits(kt, Ty::Int)) {
        error(a->pos, "E1030", str_cat(n, "()'s k must be an int, not ", ty_name(kt)));
        return Ty::Error;
      }
    }
    if (weights && cum) {
      error(cum->pos, "E1030", "Cannot specify both weights and cumulative weights");
      return Ty::Error;
    }
    if (Expr* w = weights ? weights : cum) {
      Ty wt = value(*w, Ty::Error);
      if (wt == Ty::Error) return wt;
      if (wt != list_of(Ty::Int) && wt != list_of(Ty::Float)) {
        error(w->pos, "E1010",
              str_cat(n, "()'s weights of ", ty_name(wt), " are outside the ppy subset (a list[int] or list[float])"));
        return Ty::Error;
      }
    }
    raises();
    e.builtin = find_builtin_method(mod, name)->id;
    if (name == "shuffle") {
      effect("writes");
      return Ty::None;
    }
    effect("reads");
    if (name == "choice") return str_ok ? Ty::Str : list_elem(t);
    return t;
  }
  // The rest: numbers in, a number (or None) out, as the line says.
  std::vector<Ty> ts;
  for (Expr* a : args) {
    Ty t = value(*a, Ty::Float);
    if (t == Ty::Error) return t;
    ts.push_back(t);
  }
  if (name == "seed" && args.size() == 1 && is_none_value(ts[0])) {  // seed(None): from the OS
    e.builtin = find_builtin_method(mod, name, 0)->id;
    return Ty::None;
  }
  const BuiltinMethod* chosen = nullptr;
  for (const BuiltinMethod& m : builtin_methods()) {
    if (m.receiver != mod || m.name != name) continue;
    if (args.size() < required_params(m) || args.size() > m.params.size()) continue;
    bool ok = true;
    for (size_t k = 0; k < args.size() && ok; ++k) ok = fits(ts[k], resolve(m.params[k], Ty::Error));
    if (ok) {
      chosen = &m;
      break;
    }
  }
  if (!chosen) {
    const BuiltinMethod& m = *find_builtin_method(mod, name, args.size());
    size_t want = m.params.size(), least = required_params(m);
    if (args.size() < least || args.size() > want)
      error(e.pos, "E1032",
            least == want
                ? str_cat(n, "() takes exactly ", want, " argument", want == 1 ? "" : "s", " (", args.size(), " given)")
                : str_cat(n, "() takes ", least, " to ", want, " arguments (", args.size(), " given)"));
    else if (name == "seed")
      error(e.pos, "E1010",
            str_cat("random.seed() of ", ty_name(ts[0]), " is outside the ppy subset (it takes an int)"));
    else
      error(e.pos, "E1030",
            str_cat(n, "() takes ", ty_name(resolve(m.params[0], Ty::Error)), " arguments here, not ", ty_name(ts[0])));
    return Ty::Error;
  }
  e.builtin = chosen->id;
  raises();  // empty ranges, negative sleeps, overflow
  return resolve(chosen->result, Ty::Error);
}

}  // namespace ppy::frontend::checking
