// The body checker's classes (docs/language.md, "Classes"): fields read and
// assigned, constructors, method calls (dispatched on the instance's class),
// super(), isinstance.
#include "body_checker.h"

#include <algorithm>
#include <functional>

#include "builtin_exceptions.h"
#include "expr_build.h"
#include "dataclass_options.h"
#include "callable.h"
#include "checker_internal.h"
#include "field_init.h"
#include "imported_classes.h"
#include "object_list_helpers.h"  // make_function_call
#include "exception_classes.h"
#include "ppy/util/str_cat.h"
#include "suggest_members.h"
#include "types.h"

namespace ppy::frontend::checking {

/// `obj.m` as a value: the method bound to the object (check_closure.cc).
Ty bound_method_value(ModuleInfo& m, Expr& e, Ty bt);

ClassInfo* BodyChecker::method_class() const {
  size_t dot = f_.name.find('.');
  if (dot == std::string::npos) return nullptr;
  auto it = m_.classes.find(f_.name.substr(0, dot));
  return it == m_.classes.end() ? nullptr : class_info(it->second);
}

Ty BodyChecker::field_read(Expr& e, Ty bt) {
  ClassInfo& c = *class_info(bt);
  if (!e.str.empty() && e.str[0] == '\x02' && !match_field(e, c)) return Ty::Error;  // issue 32 (check_union.cc)
  int i = is_hidden_field(e.str) && e.target != "exc.argv" ? -1 : c.field(e.str);  // exc.argv: e.args
  if (i < 0 && c.methods.count(str_cat("@property:", e.str))) {  // a property: its getter's call
    std::string name = e.str;
    return dunder_call(e, std::move(e.kids[0]), name.c_str(), {});
  }
  // `s.SIDES` of a class constant a subclass assigns again: rewritten to an
  // isinstance() chain, deepest class first (python3 reads the object's class's).
  auto const_override = [&]() -> bool {
    Resolved r;
    if (!class_member(bt, e.str, r) || r.ref != Ref::Const || owner_of(m_, bt).name != m_.name) return false;
    // The subclasses (of this module) that assign the constant themselves, by depth.
    std::vector<std::pair<int, Ty>> over;
    std::function<void(Ty, int)> walk = [&](Ty k, int depth) {
      for (Ty d : class_info(k)->subclasses) {
        if (owner_of(m_, d).name == m_.name && m_.consts.count(str_cat(class_info(d)->name, ".", e.str)))
          over.emplace_back(depth, d);
        walk(d, depth + 1);
      }
    };
    walk(bt, 1);
    if (over.empty()) return false;
    const Expr& recv = *e.kids[0];
    bool pure = recv.kind == ExprKind::Name;  // read again for each test
    for (const Expr* x = &recv; !pure && x->kind == ExprKind::Attribute; x = x->kids[0].get())
      pure = x->kids[0]->kind == ExprKind::Name;
    if (!pure) {
      error(e.pos, "E1010",
            str_cat("'", e.str, "', a class constant a subclass of ", class_info(bt)->name,
                    " overrides, is read through a name in the ppy subset (`x = ...; x.", e.str, "`)"));
      return false;
    }
    // The deepest class tested first: `isinstance(x, D2) ? D2.N : isinstance(x, D1) ? D1.N : Base.N`.
    std::stable_sort(over.begin(), over.end(), [](auto& a, auto& b) { return a.first < b.first; });
    Pos p = e.pos;
    auto member = [&](Ty k) {
      std::vector<ExprPtr> kids;
      kids.push_back(build::name(class_info(k)->name, p));
      return build::with_kids(ExprKind::Attribute, p, std::move(kids), e.str);
    };
    ExprPtr out = member(bt);
    for (auto& [depth, d] : over) {
      std::vector<ExprPtr> args;
      args.push_back(build::clone(recv));
      args.push_back(build::name(class_info(d)->name, p));
      out = build::if_exp(build::call(build::name("isinstance", p), std::move(args), p), member(d), std::move(out), p);
    }
    e = std::move(*out);
    return true;
  };
  if (i < 0 && const_override()) return value(e, Ty::Error);
  if (Resolved r; i < 0 && class_member(bt, e.str, r) && r.ref == Ref::Const) return use_const(e, r);
  if (i < 0 && c.methods.count(e.str) && e.str != "__init__" && !gpu_) {  // `obj.m`, not called (check_closure.cc)
    effect("reads");
    return bound_method_value(m_, e, bt);
  }
  if (i < 0) {
    if (c.methods.count(e.str))
      error(e.pos, "E1010",
            str_cat("a method as a value ('", c.name, ".", e.str, "') is outside the ppy subset: call it"));
    else
      error(e.pos, "E1030",
            str_cat("'", c.name, "' object has no attribute '", e.str, "'", member_suggestion(c, e.str)));
    return Ty::Error;
  }
  effect("reads");
  if (c.field(field_set_flag(e.str)) >= 0) effect("raises");  // an unset field's AttributeError (field_init.h)
  return field_narrowed(e, c.fields[static_cast<size_t>(i)].second);  // `node.next is not None` (issue 32)
}

Ty BodyChecker::field_type_hint(const Expr& t) {
  if (t.kind != ExprKind::Attribute || t.kids[0]->kind != ExprKind::Name) return Ty::Error;
  auto it = types_.find(t.kids[0]->str);
  if (it == types_.end()) return Ty::Error;
  Ty bt = narrowed(t.kids[0]->str, it->second);
  if (!is_class(bt)) return Ty::Error;
  int i = class_info(bt)->field(t.str);
  return i < 0 ? Ty::Error : class_info(bt)->fields[static_cast<size_t>(i)].second;
}

void BodyChecker::field_assign(Expr& t, Ty vt, const Expr& v) {
  Ty bt = value(*t.kids[0], Ty::Error);
  if (bt == Ty::Error) return;
  if (is_optional(bt) && is_class(optional_inner(bt))) {
    maybe_none(*t.kids[0]);
    return;
  }
  if (!is_class(bt)) {
    error(t.pos, "E1010", str_cat("assigning to an attribute of ", ty_name(bt), " is outside the ppy subset"));
    return;
  }
  ClassInfo& c = *class_info(bt);
  int i = c.field(t.str);
  if (i < 0) {
    error(t.pos, "E1030",
          str_cat("'", c.name, "' object has no attribute '", t.str,
                  "' (a class's fields are what its __init__ assigns, or a "
                  "dataclass's annotations)",
                  member_suggestion(c, t.str)));
    return;
  }
  Ty ft = c.fields[static_cast<size_t>(i)].second;
  t.ty = ft;
  effect("writes");
  after_field_assign(t, ft, vt);      // issue 32 (check_attribute_narrowing.cc)
  if (is_frozen_class(bt)) raises();  // FrozenInstanceError (dataclass_options.h)
  if (vt == Ty::Error || ft == Ty::Error || assignable(vt, ft)) return;
  if (assignable(optional_inner(vt), ft) && maybe_none(v)) return;
  error(v.pos, "E1030",
        str_cat("field '", t.str, "' of ", c.name, " holds ", ty_name(ft), "; it cannot be given a ", ty_name(vt),
                hint_for(ft, vt)));
}

bool BodyChecker::method_args(Expr& e, const std::string& shown, const FuncInfo& f) {
  std::vector<std::string> names;
  std::vector<Ty> params;
  std::vector<std::optional<ConstInfo>> defaults;
  for (size_t i = 1; i < f.def->params.size(); ++i) {
    names.push_back(f.def->params[i].name);
    params.push_back(f.params[i]);
    defaults.push_back(f.defaults[i]);
  }
  return call_args(e, shown, names, params, defaults);
}

void BodyChecker::calls_method(Ty impl, const std::string& name, Pos p) {
  const ModuleInfo& home = owner_of(m_, impl);  // another module's class: its method is external here
  std::string q = str_cat(home.name, ".", class_info(impl)->name, ".", name);
  if (&home != &m_) m_.externals.insert(q);
  f_.callees.insert(q);
  f_.callee_sites.emplace(q, p);
}

Ty BodyChecker::ctor_call(Expr& e, Ty cls) {
  ClassInfo& c = *class_info(cls);
  // `Color(1)` of an imported enum: its module's `__ppy_Color_of` (enum_classes.h rewrites only its own module's).
  if (auto of = foreign_enum_helper(m_, cls, "of"); of && e.kids.size() == 2 && e.keywords.empty()) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(e.kids[1]));
    make_function_call(e, *of, std::move(args));
    return call(e, false);
  }
  if (foreign_enum(m_, cls)) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(e.pos, "E1010",
          str_cat("calling an enum of another module ('", c.name,
                  "(...)') is outside the ppy subset: its members are read as ", c.name, ".NAME"));
    return Ty::Error;
  }
  e.ref = Ref::Ctor;
  e.target = c.name;
  std::vector<std::string> names;
  std::vector<Ty> params;
  std::vector<std::optional<ConstInfo>> defaults;
  if (c.dataclass) {
    for (auto& [n, t] : c.fields) {
      names.push_back(n);
      params.push_back(t);
    }
    auto fd = owner_of(m_, cls).field_defaults.find(c.name);
    if (fd != owner_of(m_, cls).field_defaults.end()) defaults = fd->second;
    if (auto post = c.methods.find("__post_init__"); post != c.methods.end()) {  // run after the fields are set
      std::string qual = str_cat(ty_name(post->second), ".__post_init__");
      const FuncInfo* f = class_method(m_, post->second, "__post_init__");
      if (f && (f->params.size() != 1 || f->result != Ty::None)) {
        error(e.pos, "E1010", str_cat(qual, " taking arguments or returning a value is outside the ppy subset"));
        return Ty::Error;
      }
      calls_method(post->second, "__post_init__", e.pos);
    }
  } else if (auto it = c.methods.find("__init__"); it != c.methods.end()) {
    const FuncInfo* init = class_method(m_, it->second, "__init__");
    if (!init) return Ty::Error;
    for (size_t i = 1; i < init->def->params.size(); ++i) {
      names.push_back(init->def->params[i].name);
      params.push_back(init->params[i]);
      defaults.push_back(init->defaults[i]);
    }
    calls_method(it->second, "__init__", e.pos);
  } else if (!c.exception_base.empty()) {  // BaseException's own: any arguments
    e.ref = Ref::Ctor;
    effect("writes");
    return exception_args(e) ? cls : Ty::Error;
  }
  effect("writes");  // a new object, written by its __init__
  return call_args(e, c.name, names, params, defaults) ? cls : Ty::Error;
}

Ty BodyChecker::method_call(Expr& e, Expr& callee, Ty bt) {
  ClassInfo& c = *class_info(bt);
  const std::string& name = callee.str;
  if (int fi = c.field(name); fi >= 0 && is_callable(c.fields[static_cast<size_t>(fi)].second)) {
    Ty ct = value(callee, Ty::Error);  // a field holding a function value (check_closure.cc)
    if (ct == Ty::Error) return Ty::Error;
    return value_call(e, ct);
  }
  auto it = c.methods.find(name);
  if (it == c.methods.end() || name == "__init__") {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    if (name == "__init__")
      error(callee.pos, "E1010", "calling __init__ on an instance is outside the ppy subset");
    else if (c.field(name) >= 0)
      error(callee.pos, "E1010", str_cat("calling field '", name, "' of ", c.name, " is outside the ppy subset"));
    else
      error(callee.pos, "E1030",
            str_cat("'", c.name, "' object has no attribute '", name, "'", member_suggestion(c, name)));
    return Ty::Error;
  }
  const FuncInfo* f = class_method(m_, it->second, name);
  if (!f) return Ty::Error;
  e.ref = Ref::Method;
  e.target = name;
  // Any override below the instance's class may run.
  std::function<void(Ty)> callees = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    if (auto m = k.methods.find(name); m != k.methods.end())
      calls_method(m->second, name, e.pos);
    for (Ty sub : k.subclasses) callees(sub);
  };
  callees(bt);
  return method_args(e, str_cat(c.name, ".", name), *f) ? f->result : Ty::Error;
}

Ty BodyChecker::super_call(Expr& e, Expr& callee) {
  const Expr& sup = *callee.kids[0];
  ClassInfo* c = method_class();
  if (c && !c->exception_base.empty() && sup.kids.size() == 1 && callee.str == "__init__" &&
      (c->base == Ty::Error || !class_info(c->base)->methods.count("__init__")))
    return base_exception_init(e);
  if (sup.kids.size() != 1 || !sup.keywords.empty() || !c || c->base == Ty::Error) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(sup.pos, "E1010",
          !c || c->base == Ty::Error ? "super() outside a method of a derived class is outside the "
                                       "ppy subset"
                                     : "super() with arguments is outside the ppy subset");
    return Ty::Error;
  }
  const ClassInfo& base = *class_info(c->base);
  auto it = base.methods.find(callee.str);
  if (it == base.methods.end()) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(callee.pos, "E1030", str_cat("'super' object has no attribute '", callee.str, "'"));
    return Ty::Error;
  }
  std::string qual = str_cat(ty_name(it->second), ".", callee.str);
  const FuncInfo* f = class_method(m_, it->second, callee.str);
  if (!f) return Ty::Error;
  e.ref = Ref::Super;
  e.target = qual;
  calls_method(it->second, callee.str, e.pos);
  return method_args(e, str_cat("super().", callee.str), *f) ? f->result : Ty::Error;
}

Ty BodyChecker::issubclass_call(Expr& e) {
  if (e.kids.size() != 3 || !e.keywords.empty()) {
    error(e.pos, "E1032", str_cat("issubclass expected 2 arguments, got ", e.kids.size() - 1));
    return Ty::Error;
  }
  // A class of the module (its type) or a builtin exception (its name).
  struct Named {
    Ty cls = Ty::Error;
    std::string builtin;
  };
  auto named = [&](const Expr& k) -> std::optional<Named> {
    auto path = dotted(k);
    if (!path || types_.count(path->substr(0, path->find('.')))) return std::nullopt;
    if (auto ci = m_.classes.find(*path); ci != m_.classes.end()) return Named{ci->second, ""};
    if (path->find('.') == std::string::npos && is_builtin_exception(*path)) return Named{Ty::Error, *path};
    return std::nullopt;
  };
  auto builtin_under = [](const std::string& a, const std::string& b) { return builtin_exception_derives(a, b); };
  auto under = [&](const Named& a, const Named& b) {
    if (a.cls != Ty::Error && b.cls != Ty::Error) return is_subclass(a.cls, b.cls);
    if (a.cls != Ty::Error) {
      const std::string& root = class_info(a.cls)->exception_base;
      return !root.empty() && builtin_under(root, b.builtin);
    }
    return b.cls == Ty::Error && builtin_under(a.builtin, b.builtin);
  };
  auto refuse = [&](const Expr& k) {
    error(k.pos, "E1010", "issubclass() of anything but the module's classes and builtin exceptions is outside the ppy subset");
    return Ty::Error;
  };
  auto a = named(*e.kids[1]);
  if (!a) return refuse(*e.kids[1]);
  std::vector<const Expr*> bases;
  if (e.kids[2]->kind == ExprKind::Tuple)
    for (auto& k : e.kids[2]->kids) bases.push_back(k.get());
  else
    bases.push_back(e.kids[2].get());
  bool answer = false;
  for (const Expr* k : bases) {
    auto b = named(*k);
    if (!b) return refuse(*k);
    answer = answer || under(*a, *b);
  }
  e.kind = ExprKind::Bool;  // known now: the literal
  e.bval = answer;
  e.kids.clear();
  return Ty::Bool;
}

Ty BodyChecker::isinstance_call(Expr& e) {
  e.ref = Ref::Builtin;
  e.target = "isinstance";
  if (e.kids.size() != 3 || !e.keywords.empty()) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(e.pos, "E1032", str_cat("isinstance expected 2 arguments, got ", e.kids.size() - 1));
    return Ty::Error;
  }
  Ty t = value(*e.kids[1], Ty::Error);
  Expr& k = *e.kids[2];
  auto path = dotted(k);  // `shapes.Circle` of an imported module (imported_classes.h)
  auto ci = path ? m_.classes.find(*path) : m_.classes.end();
  if (ci == m_.classes.end()) {
    error(k.pos, "E1010",
          "isinstance() of anything but one class of the module is outside the "
          "ppy subset");
    return Ty::Error;
  }
  k.ty = ci->second;
  if (t == Ty::Error) return Ty::Error;
  if (!is_class(t)) {
    if (maybe_none(*e.kids[1])) return Ty::Error;
    error(e.kids[1]->pos, "E1010",
          str_cat("isinstance() of ", ty_name(t), " is outside the ppy subset (it tests objects)"));
    return Ty::Error;
  }
  effect("reads");
  return Ty::Bool;
}

bool BodyChecker::check_printable(const Expr& e) {
  std::string why;
  if (printable(e.ty, &why)) return true;
  error(e.pos, "E1010", why);
  return false;
}

}  // namespace ppy::frontend::checking
