// generics, monomorphized: a call of a generic function infers its type
// parameters from its arguments' types and becomes a call of the
// instantiation (`first[int]`), which the module defining the template makes
// once and checks like any function (instantiate_generics). A call into
// another module asks that module for the instantiation, so a program has
// each one once, wherever it is called from.
#include <algorithm>

#include "body_checker.h"
#include "callable.h"
#include "checker_internal.h"
#include "generic_classes.h"
#include "generics.h"
#include "parser.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {
namespace checking {
namespace {

/// The bindings a call's arguments give its type parameters.
struct Inference {
  std::vector<std::string> params;
  std::map<std::string, Ty> bound;
  std::string conflict;  ///< the first type parameter bound to two types, explained
};

/// A generic type's name without its module (`typing.List` -> `List`).
std::string base_name(const Expr& a) {
  auto d = dotted(a);
  if (!d) return "";
  size_t dot = d->rfind('.');
  return dot == std::string::npos ? *d : d->substr(dot + 1);
}

/// Binds the type parameters annotation `a` names from `t`, a value's type.
void unify(const Expr& a, Ty t, Inference& inf) {
  if (t == Ty::Error) return;
  if (a.kind == ExprKind::Name || a.kind == ExprKind::Str) {
    if (std::find(inf.params.begin(), inf.params.end(), a.str) == inf.params.end()) return;
    auto [it, fresh] = inf.bound.emplace(a.str, t);
    if (fresh || it->second == t || assignable(t, it->second)) return;
    if (assignable(it->second, t)) {  // `None` then `int | None`
      it->second = t;
      return;
    }
    if (inf.conflict.empty())
      inf.conflict = str_cat("type parameter '", a.str, "' would be both ", ty_name(it->second), " and ", ty_name(t));
    return;
  }
  if (a.kind == ExprKind::Binary && a.str == "|") {  // `T | None`
    const Expr& inner = *a.kids[a.kids[1]->kind == ExprKind::NoneLit ? 0 : 1];
    if (is_none_value(t)) return;
    unify(inner, is_optional(t) ? optional_inner(t) : t, inf);
    return;
  }
  if (a.kind != ExprKind::Subscript) return;
  std::string base = base_name(*a.kids[0]);
  const Expr& arg = *a.kids[1];
  auto part = [&](size_t i) -> const Expr* {
    if (arg.kind != ExprKind::Tuple) return i == 0 ? &arg : nullptr;
    return i < arg.kids.size() ? arg.kids[i].get() : nullptr;
  };
  if (const ClassInfo* c = class_info(t); c && c->name.starts_with(base + "[")) {  // `Stack[T]` from a `Stack[int]`
    std::vector<Ty> args = class_type_args(*c);  // generic_classes.h
    for (size_t i = 0; i < args.size() && part(i); ++i) unify(*part(i), args[i], inf);
    return;
  }
  if ((base == "list" || base == "List" || base == "Sequence" || base == "MutableSequence") && is_list(t))
    return unify(arg, list_elem(t), inf);  // Sequence[T] is taken as a list (check_tuple.cc)
  if ((base == "set" || base == "Set") && is_set(t)) return unify(arg, key_of(t), inf);
  if ((base == "dict" || base == "Dict" || base == "Mapping" || base == "MutableMapping") && is_dict(t) && part(1)) {
    unify(*part(0), key_of(t), inf);
    unify(*part(1), dict_value(t), inf);
    return;
  }
  if ((base == "Iterator" || base == "Iterable" || base == "Generator") && is_iterator(t) && part(0))
    return unify(*part(0), iterator_elem(t), inf);
  if (base == "Optional") {
    if (!is_none_value(t)) unify(arg, is_optional(t) ? optional_inner(t) : t, inf);
    return;
  }
  if ((base == "tuple" || base == "Tuple") && is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    size_t n = arg.kind == ExprKind::Tuple ? arg.kids.size() : 1;
    if (n != elems.size()) return;
    for (size_t i = 0; i < n; ++i) unify(*part(i), elems[i], inf);
    return;
  }
  if (base == "Callable" && is_callable(t) && arg.kind == ExprKind::Tuple && arg.kids.size() == 2) {
    std::vector<Ty> ps = callable_params(t);
    const Expr& list = *arg.kids[0];
    if (list.kind == ExprKind::List && list.kids.size() == ps.size())
      for (size_t i = 0; i < ps.size(); ++i) unify(*list.kids[i], ps[i], inf);
    unify(*arg.kids[1], callable_result(t), inf);
  }
}

/// A default as the keyword argument a call that leaves it out passes
/// (check_calls.cc's call_args does the same for other functions).
void add_default(Expr& e, const std::string& name, const ConstInfo& d) {
  Keyword k;
  k.name = name;
  k.pos = e.pos;
  k.value = std::make_unique<Expr>();
  k.value->kind = d.ty == Ty::Float     ? ExprKind::Float
                  : d.ty == Ty::Bool    ? ExprKind::Bool
                  : d.ty == Ty::Str     ? ExprKind::Str
                  : is_none_value(d.ty) ? ExprKind::NoneLit
                                        : ExprKind::Int;
  k.value->pos = e.pos;
  k.value->str = d.s;
  k.value->ival = d.i;
  k.value->fval = d.f;
  k.value->bval = d.b;
  e.keywords.push_back(std::move(k));
}

}  // namespace

Ty BodyChecker::bound_annotation(const Expr& a, const std::map<std::string, Ty>& args, bool allow_none) {
  if (allow_none && a.kind == ExprKind::NoneLit) return Ty::None;
  std::map<std::string, Ty> saved = std::move(f_.type_args);
  f_.type_args = args;
  Ty t = annotation(&a);
  f_.type_args = std::move(saved);
  return t;
}

std::optional<Ty> BodyChecker::generic_call(Expr& e, const std::string& path) {
  std::string first = path.substr(0, path.find('.'));
  if (types_.count(first)) return std::nullopt;
  std::string module, name;
  const GenericFunc* local = nullptr;
  if (first == path) {
    if (auto it = m_.generic_funcs.find(path); it != m_.generic_funcs.end()) {
      module = m_.name;
      name = path;
      local = &it->second;
    } else if (auto b = m_.bindings.find(path); b != m_.bindings.end() && b->second.kind == Binding::Func) {
      module = b->second.module;
      name = b->second.name;
    }
  } else if (auto b = m_.bindings.find(first); b != m_.bindings.end() && b->second.kind == Binding::Module) {
    std::string rest = path.substr(first.size() + 1);
    size_t dot = rest.rfind('.');
    module = b->second.module + (dot == std::string::npos ? "" : "." + rest.substr(0, dot));
    name = rest.substr(dot == std::string::npos ? 0 : dot + 1);
  }
  if (module.empty()) return std::nullopt;
  auto partial_callable = [&](const Expr& a, const std::vector<std::string>& unbound,
                              const std::map<std::string, Ty>& bound) {
    // `Callable[[T], K]` with T bound and K not: a lambda's body gives K.
    if (a.kind != ExprKind::Subscript || base_name(*a.kids[0]) != "Callable") return Ty::Error;
    const Expr& arg = *a.kids[1];
    if (arg.kind != ExprKind::Tuple || arg.kids.size() != 2 || arg.kids[0]->kind != ExprKind::List) return Ty::Error;
    std::vector<Ty> ps;
    for (auto& p : arg.kids[0]->kids) {
      if (names_any(*p, unbound)) return Ty::Error;
      ps.push_back(bound_annotation(*p, bound, false));
    }
    return callable_of(ps, names_any(*arg.kids[1], unbound) ? Ty::Error : bound_annotation(*arg.kids[1], bound, true));
  };
  // The template's parameters, annotations and defaults: its own, or (another
  // module's) from its interface, the annotations parsed from their text.
  std::vector<std::string> names;
  std::vector<const Expr*> anns;
  const Expr* ret = nullptr;
  std::vector<std::optional<ConstInfo>> defaults;
  Inference inf;
  std::vector<ModuleAst> parsed;
  if (local) {
    for (auto& p : local->def->params) {
      names.push_back(p.name);
      anns.push_back(p.annotation.get());
    }
    ret = local->def->returns.get();
    defaults = local->defaults;
    inf.params = local->type_params;
  } else {
    auto mi = all_.find(module);
    if (mi == all_.end()) return std::nullopt;
    auto fi = mi->second.functions.find(name);
    if (fi == mi->second.functions.end() || fi->second.type_params.empty()) return std::nullopt;
    const FuncSignature& s = fi->second;
    parsed.reserve(s.param_types.size() + 1);
    auto parse = [&](const std::string& text) -> const Expr* {
      DiagnosticEngine scratch;
      parsed.push_back(parse_module(str_cat("x: ", text, "\n"), "<interface>", scratch));
      auto& body = parsed.back().body;
      return body.empty() ? nullptr : body[0]->annotation.get();
    };
    names = s.param_names;
    for (auto& t : s.param_types) anns.push_back(parse(t));
    ret = parse(s.result_type);
    inf.params = s.type_params;
    defaults.assign(names.size(), std::nullopt);
    for (size_t i = 0; i < s.param_defaults.size() && i < names.size(); ++i)
      if (const auto& d = s.param_defaults[i]) {
        ConstInfo c;
        c.ty = d->type == "None" ? none_value() : ty_from_name(d->type);
        c.i = d->i;
        c.f = d->f;
        c.b = d->b;
        c.s = d->s;
        defaults[i] = c;
      }
  }
  std::string shown = module == m_.name ? name : str_cat(module, ".", name);
  e.ref = Ref::Func;
  std::vector<Expr*> args;
  if (!bind_args(e, shown, names, args, defaults)) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    return Ty::Error;
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i]) {
      add_default(e, names[i], *defaults[i]);
      args[i] = e.keywords.back().value.get();
    }
  // Arguments in order: one whose parameter's type is known by now is checked
  // against it; the others bind the type parameters they name.
  // Empty displays (`[]`) and lambdas go last: they take their types from the
  // parameters' once the other arguments have bound them.
  std::vector<size_t> order;
  for (int late = 0; late < 2; ++late)
    for (size_t i = 0; i < args.size(); ++i) {
      const Expr& a = *args[i];
      bool takes =
          a.kind == ExprKind::Lambda ||
          ((a.kind == ExprKind::List || a.kind == ExprKind::Dict || a.kind == ExprKind::Set) && a.kids.empty());
      if (takes == (late == 1)) order.push_back(i);
    }
  bool ok = true;
  std::vector<Ty> got(args.size(), Ty::Error);
  for (size_t i : order) {
    args[i]->param_index = static_cast<int>(i);
    const Expr* ann = anns[i];
    std::vector<std::string> unbound;
    for (auto& p : inf.params)
      if (!inf.bound.count(p)) unbound.push_back(p);
    bool open = ann && names_any(*ann, unbound);
    Ty want = ann && !open ? bound_annotation(*ann, inf.bound, false) : Ty::Error;
    if (open && args[i]->kind == ExprKind::Lambda) want = partial_callable(*ann, unbound, inf.bound);
    got[i] = value(*args[i], want);
    if (ann && ann->kind == ExprKind::Subscript && base_name(*ann->kids[0]).starts_with("Itera"))
      got[i] = iterator_arg(*args[i], got[i], want);  // a list where an Iterator/Iterable goes
    if (got[i] == Ty::Error || !ann) {
      ok = false;
      continue;
    }
    if (names_any(*ann, inf.params)) unify(*ann, got[i], inf);  // bound already: a conflict is said as one
  }
  if (!ok) return Ty::Error;
  if (!inf.conflict.empty()) {
    error(e.pos, "E1030", str_cat("cannot call ", shown, "(): ", inf.conflict, " (ppy makes one function per type)"));
    return Ty::Error;
  }
  std::vector<Ty> targs;
  for (auto& p : inf.params) {
    auto it = inf.bound.find(p);
    if (it == inf.bound.end()) {
      error(e.pos, "E1030",
            str_cat("cannot infer type parameter '", p, "' of ", shown,
                    "() from its arguments (ppy infers type parameters from the arguments' types only)"));
      return Ty::Error;
    }
    targs.push_back(it->second);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    Ty want = bound_annotation(*anns[i], inf.bound, false);
    if (want == Ty::Error) return Ty::Error;
    if (!assignable(got[i], want)) {
      if (assignable(optional_inner(got[i]), want) && maybe_none(*args[i])) return Ty::Error;
      error(args[i]->pos, "E1030",
            str_cat("argument '", names[i], "' of ", shown, "() must be ", ty_name(want), ", not ", ty_name(got[i]),
                    hint_for(want, got[i])));
      ok = false;
    }
  }
  Ty result = ret ? bound_annotation(*ret, inf.bound, true) : Ty::Error;
  e.target = str_cat(module, ".", instance_name(name, targs));
  f_.callees.insert(e.target);
  f_.callee_sites.emplace(e.target, e.pos);
  if (module != m_.name) m_.externals.insert(e.target);
  m_.instance_requests.push_back(InstanceRequest{module, name, targs});
  return ok ? result : Ty::Error;
}

}  // namespace checking

void instantiate_generics(const std::vector<ModuleInfo*>& mods, ModuleInterfaces& all, DiagnosticEngine& diags) {
  std::map<std::string, ModuleInfo*> by_name;
  for (ModuleInfo* m : mods) by_name[m->name] = m;
  std::map<std::string, int> made;  // instantiations per template: a bound on runaway recursion
  constexpr int kMaxInstances = 64;
  for (bool more = true; more;) {
    more = false;
    for (ModuleInfo* m : mods) {
      std::vector<InstanceRequest> requests = std::move(m->instance_requests);
      m->instance_requests.clear();
      for (const InstanceRequest& r : requests) {
        auto it = by_name.find(r.module);
        if (it == by_name.end()) continue;  // a module lowered alone: its imports make their own
        ModuleInfo& home = *it->second;
        std::string inst = checking::instance_name(r.name, r.args);
        if (home.func_index.count(inst)) continue;
        auto g = home.generic_funcs.find(r.name);
        if (g == home.generic_funcs.end()) continue;
        if (++made[str_cat(r.module, ".", r.name)] > kMaxInstances) {
          if (made[str_cat(r.module, ".", r.name)] == kMaxInstances + 1) {
            Pos p = g->second.def->pos;
            diags.error("E1030", home.path, p.line, p.col,
                        str_cat("generic function '", r.name, "' would need more than ", kMaxInstances,
                                " instantiations (does it call itself with an ever larger type?)"));
          }
          continue;
        }
        std::map<std::string, Ty> bound;
        for (size_t i = 0; i < r.args.size() && i < g->second.type_params.size(); ++i)
          bound[g->second.type_params[i]] = r.args[i];
        home.instance_defs.push_back(checking::clone_def(*g->second.def));
        FuncDef& def = *home.instance_defs.back();
        def.name = inst;
        def.type_params.clear();
        size_t before = home.funcs.size();
        declare_instance(home, def, bound, diags);
        if (home.funcs.size() == before) continue;
        checking::BodyChecker(home, home.funcs.back(), all, diags).run();
        more = true;
      }
    }
    for (ModuleInfo* m : mods)
      if (all.count(m->name)) all[m->name] = interface_of(*m);
  }
}

}  // namespace ppy::frontend
