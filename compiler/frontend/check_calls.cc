// The body checker, calls: user functions and their arguments, the builtins, math and ppy.cuda.
#include "check_dataclass.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "body_checker.h"
#include "expr_build.h"
#include "shown_args.h"
#include "imported_classes.h"
#include "object_list_helpers.h"
#include "random_class.h"
#include "callable.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "ppy/util/str_cat.h"
#include "starred.h"
#include "suggest_members.h"
#include "types.h"

namespace ppy::frontend::checking {

namespace {

/// The builtin and collections types a program calls with their parameters: `dict[str, int]()`.
bool is_parameterized_ctor(const std::string& n) {
  return n == "dict" || n == "list" || n == "set" || n == "defaultdict" || n == "deque" || n == "Counter";
}

}  // namespace

Ty BodyChecker::call(Expr& e, bool stmt_level) {
  for (size_t i = 1; i < e.kids.size(); ++i)
    if (is_starred(*e.kids[i])) {  // `f(*t)`, `print(*xs)`: spread first (check_star_args.cc)
      if (!star_args(e)) return Ty::Error;
      break;
    }
  Expr& callee = *e.kids[0];
  cls_member(callee);  // `cls.make(...)`, `cls.helper(...)` (check_class_member.cc)
  // `dict[str, int]()`, `list[int](it)`, `defaultdict[str, list[int]](list)`: the call of the bare type,
  // typed by its parameters (an empty dict or list is its literal).
  if (callee.kind == ExprKind::Subscript && callee.kids[0]->kind == ExprKind::Name &&
      is_parameterized_ctor(callee.kids[0]->str) && !types_.count(callee.kids[0]->str) &&
      !m_.classes.count(callee.kids[0]->str) && !m_.func_index.count(callee.kids[0]->str)) {
    Ty want = annotation(&callee);
    if (want == Ty::Error) return Ty::Error;
    ExprPtr base = std::move(callee.kids[0]);
    e.kids[0] = std::move(base);
    const std::string& n = e.kids[0]->str;
    if (e.kids.size() == 1 && e.keywords.empty() && (n == "dict" || n == "list")) {
      e.kind = n == "dict" ? ExprKind::Dict : ExprKind::List;
      e.kids.clear();
    }
    Ty got = value(e, want);
    if (got == Ty::Error || got == want) return got;
    if (assignable(got, want)) return want;
    error(e.pos, "E1030", str_cat(ty_name(want), "(...) makes ", ty_name(got)));
    return Ty::Error;
  }
  auto path = dotted(callee);
  // `super().m(...)`: the base's method on self.
  if (callee.kind == ExprKind::Attribute && callee.kids[0]->kind == ExprKind::Call &&
      callee.kids[0]->kids[0]->kind == ExprKind::Name && callee.kids[0]->kids[0]->str == "super" &&
      !types_.count("super") && !m_.bindings.count("super"))
    return super_call(e, callee);
  if (path && path->find('.') == std::string::npos && !types_.count(*path)) {
    if (auto ci = m_.classes.find(*path); ci != m_.classes.end()) return ctor_call(e, ci->second);
    if (Ty k = classmethod_cls(*path); k != Ty::Error) return ctor_call(e, k);  // `cls(...)` (check_class_member.cc)
    if (*path == "isinstance" && !m_.bindings.count(*path) && !m_.func_index.count(*path)) return isinstance_any(e);  // check_union.cc
    if (*path == "issubclass" && !m_.bindings.count(*path) && !m_.func_index.count(*path)) return issubclass_call(e);  // check_class.cc
  }
  if (path && path->find('.') != std::string::npos && m_.classes.count(*path) &&
      !types_.count(path->substr(0, path->find('.'))))  // `shapes.Circle(2.0)` (imported_classes.h)
    return ctor_call(e, m_.classes.at(*path));
  // A method of a value: `s.strip()`, `"a".upper()`, `t.lower().strip()`.
  if (callee.kind == ExprKind::Attribute &&
      (!path || types_.count(path->substr(0, path->find('.'))) ||
       (callee.kids[0]->kind == ExprKind::Name &&
        (m_.consts.count(callee.kids[0]->str) ||  // a module variable's method: `CACHE.append(x)`
         (m_.module_vars.count(callee.kids[0]->str) && !f_.module_code))))) {
    infer_from_method(e, callee);  // `result.append(3)` types `result = []` (check_infer.cc)
    int views = views_ok_;
    views_ok_ = 0;
    ExprPtr copy = exc_arg_copy(*callee.kids[0]);
    // d.copy(), list(d.items()), d.update(o): rewritten as comprehensions over the receiver, checked afresh (check_dict.cc)
    ExprPtr unchecked = callee.str == "copy" || callee.str == "items" || callee.str == "update" ? build::clone(*callee.kids[0]) : nullptr;
    Ty bt = value(*callee.kids[0], Ty::Error);
    views_ok_ = views;
    // `e.args[0].upper()`: a builtin exception's argument as a str (check_exception_args.cc)
    exc_arg_as(*callee.kids[0], copy, bt, Ty::Str, str_cat("A'{}' object has no attribute '", callee.str, "'"));
    if (is_dict(bt) && is_collections_method(callee.str)) return collections_method(e, callee, bt);  // stdlib
    if (is_dict(bt) || is_set(bt)) return dict_method(e, callee, bt, std::move(unchecked), stmt_level);
    if (is_list(bt) && is_deque_method(callee.str)) return deque_method(e, callee, bt);  // stdlib (check_deque.cc)
    views_ok_ = 0;
    if (callee.str == "__delitem__" && is_list(bt)) return list_del(e, bt);  // issue 32 (check_del.cc)
    if (callee.str == "__delitem__") {  // `del x[i]` of anything but a dict
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      if (bt != Ty::Error)
        error(e.pos, "E1010",
              str_cat("'del' of an element of ", ty_name(bt), " is outside the ppy subset (it takes `del d[k]` of a dict)"));
      return Ty::Error;
    }
    if (bt == Ty::Str) return str_method(e, callee, bt);
    if (bt == Ty::File) return file_method(e, callee);  // io (issue 33)
    if (is_iterator(bt) && callee.str == "close") return generator_close(e);  // check_generator.cc
    if (is_list(bt)) return list_method(e, callee, bt);
    if (is_class(bt) && class_info(bt)->name == kRandomClass &&
        (callee.str == "choice" || callee.str == "shuffle" || callee.str == "sample" || callee.str == "choices")) {
      // random.Random's generic methods: module functions of the receiver and the arguments (random_class.h).
      std::vector<ExprPtr> args;
      args.push_back(std::move(callee.kids[0]));
      for (size_t i = 1; i < e.kids.size(); ++i) args.push_back(std::move(e.kids[i]));
      std::vector<Keyword> keywords = std::move(e.keywords);
      std::string fn = str_cat(kRandomGenericPrefix, callee.str);
      make_function_call(e, fn, std::move(args));
      e.keywords = std::move(keywords);
      return call(e, stmt_level);
    }
    if (is_class(bt) && class_info(bt)->name == kRandomClass &&
        (callee.str == "uniform" || callee.str == "gauss" || callee.str == "normalvariate" ||
         callee.str == "lognormvariate" || callee.str == "expovariate")) {
      // Python's arithmetic gives these the same float of an int argument (`uniform(-1, 1)`) as of its float.
      auto as_float = [](ExprPtr& a) {
        Pos p = a->pos;
        std::vector<ExprPtr> kids;
        kids.push_back(std::make_unique<Expr>());
        kids[0]->kind = ExprKind::Name;
        kids[0]->pos = p;
        kids[0]->str = "float";
        kids.push_back(std::move(a));
        a = std::make_unique<Expr>();
        a->kind = ExprKind::Call;
        a->pos = p;
        a->depth = kids[1]->depth + 1;
        a->kids = std::move(kids);
      };
      for (size_t i = 1; i < e.kids.size(); ++i) as_float(e.kids[i]);
      for (auto& k : e.keywords) as_float(k.value);
    }
    if (is_class(bt)) return method_call(e, callee, bt);
    if (is_optional(bt) && is_class(optional_inner(bt))) {
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      maybe_none(*callee.kids[0]);
      return Ty::Error;
    }
    if (!path) {
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      if (bt != Ty::Error)
        refuse_member(callee.pos, bt, callee.str, str_cat("methods of ", ty_name(bt), " are outside the ppy subset"));
      return Ty::Error;
    }
  }
  // A function value: a local (`f(x)`, a nested def), or any expression giving one (`ops[i](x)`).
  if ((!path || (callee.kind == ExprKind::Name && types_.count(*path))) && callee.kind != ExprKind::Attribute) {
    Ty ct = value(callee, Ty::Error);
    if (is_callable(ct)) return value_call(e, ct);
    if (ct == Ty::Error) {
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      return Ty::Error;
    }
  }
  if (!path) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(callee.pos, "E1010", "only named functions can be called in the ppy subset");
    return Ty::Error;
  }
  if (auto it = types_.find(callee.str);
      callee.kind == ExprKind::Name && it != types_.end() && is_class(it->second) &&
      class_info(it->second)->methods.count("__call__"))
    return dunder_callable(e);  // check_dunder.cc
  std::string first = path->substr(0, path->find('.'));
  if (types_.count(first)) {
    if (callee.kind == ExprKind::Attribute) {
      Ty bt = callee.kids[0]->ty;
      if (bt != Ty::Error)
        refuse_member(callee.pos, bt, callee.str, str_cat("methods of ", ty_name(bt), " are outside the ppy subset"));
      return Ty::Error;
    }
    error(callee.pos, "E1030", str_cat("'", first, "' is a local variable, not a function"));
    return Ty::Error;
  }
  if (auto g = generic_call(e, *path)) return *g;  // generics (check_generic.cc)
  Resolved r = resolve_path(*path);
  e.ref = r.ref;
  switch (r.ref) {
    case Ref::Func: return user_call(e, r);
    case Ref::Builtin: return builtin(e, r.name, stmt_level);
    case Ref::Math: return math_call(e, r.name);
    case Ref::Sys: return sys_call(e, r.name);  // io (issue 33)
    case Ref::Cuda:
    case Ref::Native: return gpu_call(e, r.name);
    case Ref::Unresolved:
      if (auto cls = m_.classes.find(first); cls != m_.classes.end() && path->size() > first.size() &&
          class_info(cls->second)->methods.count(str_cat("@classmethod:", path->substr(first.size() + 1)))) {
        // check_class_member.cc: an inherited classmethod would bind `cls` to its base
        error(callee.pos, "E1010",
              str_cat("'", *path, "', a classmethod ", first, " inherits, called through the subclass, is outside the ppy subset (define it in ", first, " too)"));
      } else if (!m_.bindings.count(first) && !m_.func_index.count(first) && !m_.consts.count(first)) {
        static const std::set<std::string> known = {"input", "open",       "list",      "dict", "set", "tuple",
                                                    "round", "isinstance", "enumerate", "zip",  "map", "filter",
                                                    "type",  "divmod",     "pow",       "any",  "all",
                                                    "eval",  "exec"};
        if (known.count(first)) error(callee.pos, "E1010", str_cat("the builtin '", first, "' is outside the ppy subset"));
        else if (!refused_names_.count(first)) error(callee.pos, "E1020", str_cat("name '", first, "' is not defined", name_suggestion(first)));
      } else if (auto b = m_.bindings.find(first);  // `shapes.Circle(2)`: a class of another module (issue 32)
                 b != m_.bindings.end() && b->second.kind == Binding::Module && path->size() > first.size() &&
                 class_info(class_type(b->second.module, path->substr(first.size() + 1)))->name ==
                     path->substr(first.size() + 1)) {
        error(callee.pos, "E1010",
              str_cat("a class of another module ('", *path,
                      "') is outside the ppy subset (classes are used in the module that defines them)"));
      } else {
        undefined_member(callee.pos, *path);  // `math.sqr(2.0)`
      }
      return Ty::Error;
    default:
      error(callee.pos, "E1030", str_cat("'", *path, "' is not callable"));
      return Ty::Error;
  }
}

bool BodyChecker::signature(const Resolved& r, std::vector<std::string>& names, std::vector<Ty>& params, Ty& result,
               std::string& kind, std::vector<std::optional<ConstInfo>>* defaults) {
  const FuncInfo* f = r.module == m_.name ? m_.func(r.name) : nullptr;
  if (!f && r.name.find('.') != std::string::npos)  // a static method of an imported class (imported_classes.h)
    f = foreign_method(str_cat(r.module, ".", r.name), all_);
  if (f) {
    for (auto& p : f->def->params) names.push_back(p.name);
    params = f->params;
    result = f->result;
    kind = f->gpu_kind;
    if (defaults) *defaults = f->defaults;
    return true;
  }
  const FuncSignature& s = all_.at(r.module).functions.at(r.name);
  names = s.param_names;
  for (auto& t : s.param_types) params.push_back(ty_from_name(t));
  if (defaults) {
    defaults->assign(names.size(), std::nullopt);
    for (size_t i = 0; i < s.param_defaults.size() && i < names.size(); ++i)
      if (const auto& d = s.param_defaults[i]) {
        ConstInfo c;
        c.ty = d->type == "None" ? none_value() : ty_from_name(d->type);
        c.i = d->i;
        c.f = d->f;
        c.b = d->b;
        c.s = d->s;
        (*defaults)[i] = c;
      }
  }
  result = ty_from_name(s.result_type);
  kind = s.gpu_kind;
  return true;
}

bool BodyChecker::bind_args(Expr& e, const std::string& fname, const std::vector<std::string>& names, std::vector<Expr*>& out,
               const std::vector<std::optional<ConstInfo>>& defaults) {
  size_t npos = e.kids.size() - 1;
  if (npos > names.size()) {
    error(e.pos, "E1032", str_cat(fname, "() takes ", names.size(), " argument", names.size() == 1 ? "" : "s", " but ", npos, " were given"));
    return false;
  }
  out.assign(names.size(), nullptr);
  for (size_t i = 0; i < npos; ++i) out[i] = e.kids[i + 1].get();
  for (auto& k : e.keywords) {
    auto it = std::find(names.begin(), names.end(), k.name);
    if (it == names.end()) {
      error(k.pos, "E1032",
            str_cat(fname, "() got an unexpected keyword argument '", k.name, "'", keyword_suggestion(k.name, names)));
      return false;
    }
    size_t i = static_cast<size_t>(it - names.begin());
    if (out[i]) {
      error(k.pos, "E1032", str_cat(fname, "() got multiple values for argument '", k.name, "'"));
      return false;
    }
    out[i] = k.value.get();
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (!out[i] && !(i < defaults.size() && defaults[i])) {
      error(e.pos, "E1032", str_cat(fname, "() missing required argument '", names[i], "'"));
      return false;
    }
  return true;
}

bool BodyChecker::call_args(Expr& e, const std::string& shown, const std::vector<std::string>& names,
                            const std::vector<Ty>& params, const std::vector<std::optional<ConstInfo>>& defaults) {
  std::vector<Expr*> args;
  if (!bind_args(e, shown, names, args, defaults)) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    return false;
  }
  // A parameter left out takes its default: the constant, passed as a keyword.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]) continue;
    const ConstInfo& d = *defaults[i];
    Keyword k;
    k.name = names[i];
    k.pos = e.pos;
    if (!d.factory.empty()) {  // a dataclass field's default_factory (check_dataclass.cc)
      k.value = factory_default(d.factory, e.pos);
      args[i] = k.value.get();
      e.keywords.push_back(std::move(k));
      continue;
    }
    if (!d.member_fn.empty()) {  // an enum member (`status: Status = Status.OPEN`): the member's call
      std::vector<ExprPtr> index;
      index.push_back(build::int_lit(d.i, e.pos));
      k.value = build::call(build::name(d.member_fn, e.pos), std::move(index), e.pos);
      args[i] = k.value.get();
      e.keywords.push_back(std::move(k));
      continue;
    }
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
    args[i] = k.value.get();
    e.keywords.push_back(std::move(k));
  }
  bool ok = true;
  for (size_t i = 0; i < args.size(); ++i) {
    ExprPtr copy = exc_arg_copy(*args[i]);
    Ty t = value(*args[i], params[i]);
    if (t != Ty::Error)  // `log(e.args[0])` of a `str` parameter: a builtin exception's argument as one
      exc_arg_as(*args[i], copy, t, params[i],
                 str_cat("Targument '", names[i], "' of ", shown, "() must be ", ty_name(params[i]), ", not {}"));
    if (is_iterator(params[i])) t = iterator_arg(*args[i], t, params[i]);  // a list where an Iterator goes
    args[i]->param_index = static_cast<int>(i);
    if (t == Ty::Error || params[i] == Ty::Error) {
      ok = false;
      continue;
    }
    if (!assignable(t, params[i])) {
      if (assignable(optional_inner(t), params[i]) && maybe_none(*args[i])) {
        ok = false;
        continue;
      }
      error(args[i]->pos, "E1030",
            str_cat("argument '", names[i], "' of ", shown, "() must be ", ty_name(params[i]), ", not ", ty_name(t),
                    hint_for(params[i], t)));
      ok = false;
    }
  }
  return ok;
}

Ty BodyChecker::user_call(Expr& e, const Resolved& r) {
  std::vector<std::string> names;
  std::vector<Ty> params;
  Ty result;
  std::string kind;
  std::vector<std::optional<ConstInfo>> defaults;
  signature(r, names, params, result, kind, &defaults);
  std::string shown = r.module == m_.name ? r.name : r.module + "." + r.name;
  e.target = r.module + "." + r.name;
  if (f_.module_code && r.module == m_.name && m_.func(r.name)->def->pos.line > line_) {
    error(e.kids[0]->pos, "E1020", str_cat("name '", r.name, "' is not defined (its `def` comes later in the module)"));
    return Ty::Error;
  }
  if (kind == "kernel") {
    error(e.pos, "E1100", str_cat("kernel '", shown, "' cannot be called directly; launch it with cuda.launch(", r.name, ", grid, block, ...)"));
    return Ty::Error;
  }
  if (kind == "device" && !gpu_) {
    error(e.pos, "E1100", str_cat("device function '", shown, "' can only be called from GPU code"));
    return Ty::Error;
  }
  if (kind.empty() && gpu_) {
    error(e.pos, "E1100", str_cat("GPU code cannot call the host function '", shown, "'"));
    return Ty::Error;
  }
  bool ok = call_args(e, shown, names, params, defaults);
  f_.callees.insert(e.target);
  f_.callee_sites.emplace(e.target, e.pos);
  if (r.module != m_.name) m_.externals.insert(e.target);
  if (!ok) return Ty::Error;
  return result;
}

Ty BodyChecker::builtin(Expr& e, const std::string& n, bool stmt_level) {
  e.target = n;
  size_t nargs = e.kids.size() - 1;
  if (gpu_ && n != "int" && n != "float" && n != "abs" && n != "min" && n != "max" && n != "bool") {
    error(e.pos, "E1100", str_cat(n, "() is not available in GPU code"));
    return Ty::Error;
  }
  if (n == "print") {
    effect("io");
    for (auto& k : e.keywords) {
      if (k.name == "flush" && k.value->kind == ExprKind::Bool) continue;  // io (issue 33): lower_print flushes
      if (k.name == "file") {  // io (issue 33): print(..., file=sys.stderr)
        if (Ty ft = value(*k.value, Ty::Error); ft != Ty::File && ft != Ty::Error) {
          error(k.value->pos, "E1030", str_cat("print's file must be a stream, not ", ty_name(ft)));
          return Ty::Error;
        }
        raises();  // a closed file
        continue;
      }
      if (k.name != "sep" && k.name != "end") {
        refuse_keyword(k, "print");  // `sepp=","`, `flush=f`
        return Ty::Error;
      }
      if (k.value->kind != ExprKind::Str) {
        error(k.value->pos, "E1010", str_cat("print's ", k.name, " must be a string literal"));
        return Ty::Error;
      }
    }
    for (size_t i = 1; i < e.kids.size(); ++i) {
      ArgsUseMark marked(*e.kids[i], ArgsUse::Shown);  // `print(e.args)`: the args its raise kept
      Ty t = expr(*e.kids[i], Ty::Error, false);
      if (t == Ty::None)
        error(e.kids[i]->pos, "E1030", "this call returns None; printing it is outside the ppy subset");
      else if (is_ptr(t))
        error(e.kids[i]->pos, "E1030", "a native pointer cannot be printed");
      else if (t != Ty::Error && !check_printable(*e.kids[i]))
        continue;
      else if (is_list(t) || is_dict(t) || is_set(t))
        effect("reads");
    }
    return Ty::None;
  }
  if (auto lazy = lazy_builtin(e, n)) return *lazy;  // lazy sequences (check_lazy.cc)
  if (n == "list") return list_call(e, Ty::Error);
  if (n == "format") return format_call(e);  // check_format.cc
  if (is_number_builtin(n) || (n == "int" && e.kids.size() == 3)) return number_builtin(e, n);  // check_number.cc
  if ((n == "sorted" || n == "min" || n == "max") && !gpu_ &&
      (!e.keywords.empty() || (n == "sorted" && e.kids.size() == 2 && view_call(*e.kids[1]) == 2)))
    return keyed_call(e, n, Ty::Error);  // key= and reverse= (check_keyed.cc)
  if (!e.keywords.empty()) {
    refuse_keyword(e.keywords[0], n);
    return Ty::Error;
  }
  auto arity = [&](size_t lo, size_t hi) {
    if (nargs < lo || nargs > hi) {
      error(e.pos, "E1032", lo == hi ? str_cat(n, "() takes exactly ", lo, " argument", lo == 1 ? "" : "s", " (", nargs, " given)")
                                     : str_cat(n, "() takes ", lo, " to ", hi, " arguments (", nargs, " given)"));
      return false;
    }
    return true;
  };
  if (n == "range") {
    error(e.pos, "E1010", "range() is only supported as the iterable of a for loop");
    return Ty::Error;
  }
  if (n == "len") {
    if (!arity(1, 1)) return Ty::Error;
    views_ok_ = view_call(*e.kids[1]);
    ExprPtr copy = exc_arg_copy(*e.kids[1]);
    Ty t = value(*e.kids[1], Ty::Error);
    views_ok_ = 0;
    if (t == Ty::Error) return t;
    exc_arg_as(*e.kids[1], copy, t, Ty::Str, "Tobject of type '{}' has no len()");  // `len(e.args[0])`
    if (is_class(t) && class_info(t)->methods.count("__len__")) return dunder_len(e);  // check_dunder.cc
    if (is_tuple(t)) return Ty::Int;
    if (is_dict(t) || is_set(t)) {
      effect("reads");
      return Ty::Int;
    }
    if (!is_list(t) && t != Ty::Str) {
      if (maybe_none(*e.kids[1])) return Ty::Error;
      error(e.kids[1]->pos, "E1030", str_cat("object of type '", ty_name(t), "' has no len()"));
      return Ty::Error;
    }
    return Ty::Int;
  }
  if (n == "int" || n == "float" || n == "bool") {
    if (nargs == 0) {
      e.target = n + "0";
      return n == "int" ? Ty::Int : n == "float" ? Ty::Float : Ty::Bool;
    }
    if (!arity(0, 1)) return Ty::Error;
    Ty t = value(*e.kids[1], Ty::Error);
    if (t == Ty::Error) return t;
    if (n != "bool") int_enum_as_int(e.kids[1], t);  // issue 32: int(p) of an IntEnum member (check_int_enum.cc)
    if (n == "bool" && is_class(t) &&
        (class_info(t)->methods.count("__bool__") || class_info(t)->methods.count("__len__"))) {
      // bool(obj) is the truth test `if obj:` makes: __bool__, else __len__() != 0 (check_dunder.cc)
      ExprPtr arg = std::move(e.kids[1]);
      dunder_truth(*arg);
      e = std::move(*arg);
      return Ty::Bool;
    }
    if (n == "bool" ? (!is_numeric(t) && !is_list(t) && !is_dict(t) && !is_set(t) && t != Ty::Str)
                    : (!is_numeric(t) && t != Ty::Str)) {
      error(e.kids[1]->pos, "E1030", str_cat(n, "() of ", ty_name(t), " is outside the ppy subset"));
      return Ty::Error;
    }
    if ((n == "int" && t == Ty::Float) || (n != "bool" && t == Ty::Str)) raises();  // ValueError
    return n == "int" ? Ty::Int : n == "float" ? Ty::Float : Ty::Bool;
  }
  if (n == "str" || n == "repr") return str_call(e);
  if (n == "hash") return hash_call(e);  // check_hash_key.cc
  if (n == "ord" || n == "chr") {  // a one-character str and its code point
    if (!arity(1, 1)) return Ty::Error;
    Ty want = n == "ord" ? Ty::Str : Ty::Int;
    Ty t = value(*e.kids[1], want);
    if (t == Ty::Error) return t;
    if (t != want && !(n == "chr" && t == Ty::Bool)) {
      error(e.kids[1]->pos, "E1030", str_cat(n, "() takes ", ty_name(want), ", not ", ty_name(t)));
      return Ty::Error;
    }
    raises();  // TypeError / ValueError
    return n == "ord" ? Ty::Int : Ty::Str;
  }
  if (n == "abs") {
    if (!arity(1, 1)) return Ty::Error;
    Ty t = value(*e.kids[1], Ty::Error);
    if (t == Ty::Error) return t;
    if (is_class(t) && class_info(t)->methods.count("__abs__")) return dunder_abs(e);  // check_dunder.cc
    if (!is_numeric(t)) {
      error(e.kids[1]->pos, "E1030", str_cat("bad operand type for abs(): ", ty_name(t)));
      return Ty::Error;
    }
    if (t != Ty::Float) raises();
    return t == Ty::Float ? Ty::Float : Ty::Int;
  }
  if (n == "sorted" || n == "sum" || ((n == "min" || n == "max") && nargs == 1)) return list_builtin(e, n);
  if (n == "min" || n == "max") {
    if (nargs < 2) {
      error(e.pos, "E1032", str_cat(n, "() takes two or more numbers in the ppy subset (", nargs, " given)"));
      return Ty::Error;
    }
    Ty common = Ty::Error;
    for (size_t i = 1; i < e.kids.size(); ++i) {
      Ty t = value(*e.kids[i], Ty::Error);
      if (t == Ty::Error) return t;
      if (t != Ty::Int && t != Ty::Float && t != Ty::Str && !((is_tuple(t) || is_list(t)) && orderable(t))) {
        error(e.kids[i]->pos, "E1030", str_cat(n, "() of ", ty_name(t), " is outside the ppy subset"));
        return Ty::Error;
      }
      if (common == Ty::Error) common = t;
      else if (common != t) {
        error(e.kids[i]->pos, "E1030",
              is_numeric(common) && is_numeric(t)
                  ? str_cat(n, "() of int and float returns either in Python; the subset needs one type")
                  : str_cat(n, "() of ", ty_name(common), " and ", ty_name(t), ": the subset needs one type"));
        return Ty::Error;
      }
    }
    return common;
  }
  (void)stmt_level;
  return Ty::Error;
}

Ty BodyChecker::math_call(Expr& e, const std::string& n) {
  e.target = n;
  // builtins.def's math functions (check_math.cc); `math.log(x)` of one argument stays the dialect's.
  if (is_math_table_function(n.substr(5)) && !(n == "math.log" && e.kids.size() == 2 && e.keywords.empty()))
    return math_table_call(e, n.substr(5));
  size_t want = n == "math.pow" ? 2 : 1;
  if (e.kids.size() - 1 != want || !e.keywords.empty()) {
    error(e.pos, "E1032", str_cat(n, "() takes exactly ", want, " argument", want == 1 ? "" : "s"));
    return Ty::Error;
  }
  for (size_t i = 1; i < e.kids.size(); ++i) {
    Ty t = value(*e.kids[i], Ty::Float);
    if (t == Ty::Error) return t;
    if (!is_numeric(t)) {
      error(e.kids[i]->pos, "E1030", str_cat(n, "() takes a number, not ", ty_name(t)));
      return Ty::Error;
    }
  }
  if (n == "math.floor" || n == "math.ceil" || n == "math.trunc") {
    raises();
    return Ty::Int;
  }
  if (n == "math.sqrt" || n == "math.log" || n == "math.log2" || n == "math.log10" || n == "math.exp" ||
      n == "math.pow" || n == "math.sin" || n == "math.cos" || n == "math.tan")
    raises();
  return Ty::Float;
}

Ty BodyChecker::gpu_call(Expr& e, const std::string& n) {
  e.target = n;
  size_t nargs = e.kids.size() - 1;
  if (n == "ppy.cuda.launch") {
    if (gpu_) {
      error(e.pos, "E1100", "cuda.launch is only available in host code");
      return Ty::Error;
    }
    if (nargs < 3) {
      error(e.pos, "E1032", "cuda.launch takes (kernel, grid, block, *args)");
      return Ty::Error;
    }
    auto kpath = dotted(*e.kids[1]);
    Resolved kr = kpath ? resolve_path(*kpath) : Resolved{};
    std::vector<std::string> names;
    std::vector<Ty> params;
    Ty result;
    std::string kind;
    if (kr.ref != Ref::Func || (signature(kr, names, params, result, kind), kind != "kernel")) {
      error(e.kids[1]->pos, "E1100", "cuda.launch's first argument must be a @cuda.kernel function");
      return Ty::Error;
    }
    e.kids[1]->ref = Ref::Func;
    e.kids[1]->target = kr.module + "." + kr.name;
    for (size_t i : {2, 3}) {
      Expr& g = *e.kids[i];
      std::vector<Expr*> dims;
      if (g.kind == ExprKind::Tuple) for (auto& k : g.kids) dims.push_back(k.get());
      else dims.push_back(&g);
      if (dims.empty() || dims.size() > 3) {
        error(g.pos, "E1100", "a launch's grid and block are an int or a tuple of up to three ints");
        return Ty::Error;
      }
      for (Expr* d : dims) {
        Ty t = value(*d, Ty::Int);
        if (t != Ty::Int && t != Ty::Error) {
          error(d->pos, "E1030", "a launch's grid and block sizes are ints");
          return Ty::Error;
        }
      }
      g.ty = Ty::Int;
    }
    if (nargs - 3 != params.size()) {
      error(e.pos, "E1032", str_cat("kernel '", kr.name, "' takes ", params.size(), " arguments but ", nargs - 3, " were given"));
      return Ty::Error;
    }
    for (size_t i = 0; i < params.size(); ++i) {
      Expr& a = *e.kids[4 + i];
      Ty t = value(a, Ty::Error);
      if (t == Ty::Error) continue;
      bool ok = t == params[i] || (is_ptr(params[i]) && is_list(t) && elem_of(t) == elem_of(params[i]));
      if (!ok) error(a.pos, "E1030", str_cat("argument '", names[i], "' of kernel '", kr.name, "' must be ", ty_name(params[i]), ", not ", ty_name(t)));
    }
    f_.callees.insert(e.kids[1]->target);
    f_.callee_sites.emplace(e.kids[1]->target, e.pos);
    if (kr.module != m_.name) m_.externals.insert(e.kids[1]->target);
    effect("io");
    effect("reads");
    effect("writes");
    return Ty::None;
  }
  if (!gpu_) {
    error(e.pos, "E1100", str_cat(n.substr(4), " is only available in @cuda.kernel and @cuda.device functions"));
    return Ty::Error;
  }
  if (n == "ppy.cuda.thread_id" || n == "ppy.cuda.block_id" || n == "ppy.cuda.block_dim" ||
      n == "ppy.cuda.grid_dim" || n == "ppy.cuda.global_id") {
    e.str = "x";
    if (nargs > 1 || (nargs == 1 && (e.kids[1]->kind != ExprKind::Str ||
                                      (e.kids[1]->str != "x" && e.kids[1]->str != "y" && e.kids[1]->str != "z")))) {
      error(e.pos, "E1100", str_cat(n.substr(4), "() takes an optional dimension: \"x\", \"y\" or \"z\""));
      return Ty::Error;
    }
    if (nargs == 1) e.str = e.kids[1]->str;
    return Ty::Int;
  }
  if (n == "ppy.cuda.syncthreads") {
    if (nargs != 0) error(e.pos, "E1032", "cuda.syncthreads() takes no arguments");
    return Ty::None;
  }
  if (n == "ppy.native.offset") {
    if (nargs != 2) {
      error(e.pos, "E1032", "native.offset takes (pointer, index)");
      return Ty::Error;
    }
    Ty p = value(*e.kids[1], Ty::Error);
    Ty i = value(*e.kids[2], Ty::Int);
    if (p == Ty::Error || i == Ty::Error) return Ty::Error;
    if (!is_ptr(p) || i != Ty::Int) {
      error(e.pos, "E1030", "native.offset takes a native pointer and an int");
      return Ty::Error;
    }
    return p;
  }
  if (n == "ppy.native.load") {
    if (nargs != 1) {
      error(e.pos, "E1032", "native.load takes one pointer");
      return Ty::Error;
    }
    Ty p = value(*e.kids[1], Ty::Error);
    if (p == Ty::Error) return p;
    if (!is_ptr(p)) {
      error(e.kids[1]->pos, "E1030", str_cat("native.load takes a native pointer, not ", ty_name(p)));
      return Ty::Error;
    }
    effect("reads");
    return elem_of(p);
  }
  if (n == "ppy.native.store") {
    if (nargs != 2) {
      error(e.pos, "E1032", "native.store takes (pointer, value)");
      return Ty::Error;
    }
    Ty p = value(*e.kids[1], Ty::Error);
    Ty v = value(*e.kids[2], Ty::Error);
    if (p == Ty::Error || v == Ty::Error) return Ty::Error;
    if (p == Ty::ConstPtrInt || p == Ty::ConstPtrFloat) {
      error(e.kids[1]->pos, "E1100", "native.store through a const_ptr");
      return Ty::Error;
    }
    if (!is_ptr(p) || v != elem_of(p)) {
      error(e.pos, "E1030", str_cat("native.store needs a pointer and a value of its element type (", is_ptr(p) ? ty_name(elem_of(p)) : "?", ")"));
      return Ty::Error;
    }
    effect("writes");
    return Ty::None;
  }
  error(e.pos, "E1010", str_cat(n.substr(4), " is outside the ppy subset"));
  return Ty::Error;
}

}  // namespace ppy::frontend::checking
