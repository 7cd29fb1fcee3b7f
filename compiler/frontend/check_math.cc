// The body checker, the math module's functions of builtins.def (receiver
// "math"; docs/language.md, "math"): each checked against its line, a float
// parameter taking an int; gcd and lcm of any number of ints; isclose's
// tolerances by keyword.
#include <string>

#include "body_checker.h"
#include "builtins.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// Whether an argument of type `t` fits parameter type `want`.
bool fits(Ty t, Ty want) {
  if (want == Ty::Float) return is_numeric(t);
  if (want == Ty::Int) return t == Ty::Int || t == Ty::Bool;
  return t == want;
}

}  // namespace

bool is_math_table_function(const std::string& name) { return find_builtin_method("math", name) != nullptr; }

Ty BodyChecker::math_table_call(Expr& e, const std::string& name) {
  std::string shown = "math." + name;
  bool variadic = name == "gcd" || name == "lcm";
  // isclose's tolerances by keyword: placed after the positional arguments.
  std::vector<Expr*> args;
  for (size_t k = 1; k < e.kids.size(); ++k) args.push_back(e.kids[k].get());
  for (auto& kw : e.keywords) {
    size_t at = name == "isclose" && kw.name == "rel_tol" ? 2 : name == "isclose" && kw.name == "abs_tol" ? 3 : 0;
    if (!at) {
      error(kw.pos, "E1032", str_cat(shown, "() got an unexpected keyword argument '", kw.name, "'"));
      return Ty::Error;
    }
    if (args.size() < at) args.resize(at, nullptr);
    if (args.size() > at && args[at]) {
      error(kw.pos, "E1032", str_cat(shown, "() got multiple values for argument '", kw.name, "'"));
      return Ty::Error;
    }
    if (args.size() <= at) args.resize(at + 1, nullptr);
    args[at] = kw.value.get();
    kw.value->param_index = static_cast<int>(at);
  }
  for (size_t k = 1; k < e.kids.size(); ++k) e.kids[k]->param_index = static_cast<int>(k - 1);
  std::vector<Ty> ts;
  for (Expr* a : args) {
    Ty t = a ? value(*a, Ty::Float) : Ty::Float;
    if (t == Ty::Error) return t;
    ts.push_back(t);
  }
  const BuiltinMethod* chosen = nullptr;
  for (const BuiltinMethod& m : builtin_methods()) {
    if (m.receiver != "math" || m.name != name) continue;
    size_t n = args.size();
    if (!variadic && (n < required_params(m) || n > m.params.size())) continue;
    bool ok = true;
    for (size_t k = 0; k < n && ok; ++k) ok = fits(ts[k], resolve(m.params[variadic ? 0 : k], Ty::Error));
    if (ok) {
      chosen = &m;
      break;
    }
  }
  if (!chosen) {
    const BuiltinMethod& m = *find_builtin_method("math", name);
    size_t want = m.params.size(), least = required_params(m);
    if (!variadic && (args.size() < least || args.size() > want))
      error(e.pos, "E1032",
            least == want ? str_cat(shown, "() takes exactly ", want, " argument", want == 1 ? "" : "s", " (",
                                    args.size(), " given)")
                          : str_cat(shown, "() takes ", least, " to ", want, " arguments (", args.size(), " given)"));
    else
      error(e.pos, "E1030",
            str_cat(shown, "() takes ", m.params.empty() ? "no arguments" : ty_name(resolve(m.params[0], Ty::Error)),
                    " arguments here, not ", args.empty() ? "none" : ty_name(ts[0])));
    return Ty::Error;
  }
  for (size_t k = 0; k < args.size(); ++k)
    if (!args[k] && !chosen->params[k].optional) {  // a hole only where a default fills it (lower_math.cc)
      error(e.pos, "E1032", str_cat(shown, "() missing a required argument"));
      return Ty::Error;
    }
  e.target = shown;
  e.builtin = chosen->id;
  if (is_list(resolve(chosen->params[0], Ty::Error))) effect("reads");
  raises();  // math domain error, math range error, overflow of an int result
  return resolve(chosen->result, Ty::Error);
}

}  // namespace ppy::frontend::checking
