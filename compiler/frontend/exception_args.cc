// `e.args`'s static type (exception_args.h): read off the program's
// constructors and `super().__init__(...)` calls, with a small typing of
// their arguments (literals, f-strings, parameters, `self`'s fields, str()).
#include "exception_args.h"

#include "exception_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {
namespace {

/// A function whose parameters name types, and the class `self` is.
struct Scope {
  const FuncDef* def = nullptr;
  const std::vector<Ty>* params = nullptr;
  Ty self = Ty::Error;
  /// The function's locals, once the checker has checked it (a local keeps one type).
  const std::vector<std::pair<std::string, Ty>>* locals = nullptr;
};

/// The type of `x` as far as ppy can tell it without checking the body; Error when it cannot.
Ty known_type(const ModuleInfo& m, const Expr& x, const Scope& s) {
  switch (x.kind) {
    case ExprKind::Str:
    case ExprKind::FString:
      return Ty::Str;
    case ExprKind::Int:
      return Ty::Int;
    case ExprKind::Float:
      return Ty::Float;
    case ExprKind::Bool:
      return Ty::Bool;
    case ExprKind::Unary:
      if (x.str == "-" || x.str == "+") {
        Ty t = known_type(m, *x.kids[0], s);
        return t == Ty::Int || t == Ty::Float ? t : Ty::Error;
      }
      return x.str == "not" ? Ty::Bool : Ty::Error;
    case ExprKind::Binary: {
      Ty a = known_type(m, *x.kids[0], s), b = known_type(m, *x.kids[1], s);
      if (x.str == "+" && a == Ty::Str && b == Ty::Str) return Ty::Str;
      if (x.str == "%" && a == Ty::Str) return Ty::Str;
      return Ty::Error;
    }
    case ExprKind::Name: {
      if (s.def && s.params)
        for (size_t i = 0; i < s.def->params.size() && i < s.params->size(); ++i)
          if (s.def->params[i].name == x.str) return (*s.params)[i];
      if (s.locals)
        for (auto& [n, t] : *s.locals)
          if (n == x.str) return t;
      if (auto c = m.consts.find(x.str); c != m.consts.end()) return c->second.ty;
      return Ty::Error;
    }
    case ExprKind::Attribute: {
      if (s.self == Ty::Error || x.kids[0]->kind != ExprKind::Name || x.kids[0]->str != "self") return Ty::Error;
      const ClassInfo& c = *class_info(s.self);
      int i = is_hidden_field(x.str) ? -1 : c.field(x.str);
      return i < 0 ? Ty::Error : c.fields[static_cast<size_t>(i)].second;
    }
    case ExprKind::Call: {
      if (x.kids[0]->kind != ExprKind::Name) return Ty::Error;
      const std::string& f = x.kids[0]->str;
      if (f == "str" || f == "repr") return Ty::Str;
      if (f == "len" || f == "int" || f == "ord") return Ty::Int;
      if (f == "float") return Ty::Float;
      if (f == "bool") return Ty::Bool;
      return Ty::Error;
    }
    default:
      return Ty::Error;
  }
}

/// The types of `call`'s positional arguments in `s`; false with `why` when one is not known.
bool call_arg_types(const ModuleInfo& m, const Expr& call, const Scope& s, std::vector<Ty>& out, std::string& why) {
  if (!call.keywords.empty()) {
    why = str_cat("keyword arguments at line ", call.pos.line);
    return false;
  }
  out.clear();
  for (size_t i = 1; i < call.kids.size(); ++i) {
    Ty t = known_type(m, *call.kids[i], s);
    if (t != Ty::Int && t != Ty::Float && t != Ty::Bool && t != Ty::Str) {
      why = str_cat("an argument at line ", call.kids[i]->pos.line,
                    " whose type ppy cannot tell before checking, or that is "
                    "not an int, float, bool or str");
      return false;
    }
    out.push_back(t);
  }
  return true;
}

/// The `super().__init__(...)` call among `body`'s top-level statements, or null.
const Expr* super_init_call(const std::vector<StmtPtr>& body) {
  for (auto& st : body) {
    if (st->kind != StmtKind::Expr || !st->value || st->value->kind != ExprKind::Call) continue;
    const Expr& c = *st->value;
    const Expr& f = *c.kids[0];
    if (f.kind == ExprKind::Attribute && f.str == "__init__" && f.kids[0]->kind == ExprKind::Call &&
        f.kids[0]->kids.size() == 1 && f.kids[0]->kids[0]->kind == ExprKind::Name && f.kids[0]->kids[0]->str == "super")
      return &c;
  }
  return nullptr;
}

const FuncInfo* init_of(const ModuleInfo& m, Ty cls) {
  auto it = m.func_index.find(str_cat(ty_name(cls), ".__init__"));
  return it == m.func_index.end() ? nullptr : &m.funcs[it->second];
}

/// Calls `fn(call, scope)` on every call of `name` in `body` and the bodies nested in it.
template <class F>
void each_call(const ModuleInfo& m, const std::vector<StmtPtr>& body, const Scope& s, const std::string& name, F&& fn);

template <class F>
void each_call_expr(const ModuleInfo& m, const Expr& x, const Scope& s, const std::string& name, F&& fn) {
  if (x.kind == ExprKind::Call && x.kids[0]->kind == ExprKind::Name && x.kids[0]->str == name) fn(x, s);
  for (auto& k : x.kids)
    if (k) each_call_expr(m, *k, s, name, fn);
  for (auto& k : x.keywords)
    if (k.value) each_call_expr(m, *k.value, s, name, fn);
}

template <class F>
void each_call(const ModuleInfo& m, const std::vector<StmtPtr>& body, const Scope& s, const std::string& name, F&& fn) {
  for (auto& st : body) {
    if (st->kind == StmtKind::Def && st->def) {  // a nested function: its own parameters
      Scope inner;
      if (auto c = m.closure_of.find(st->def.get()); c != m.closure_of.end()) {
        inner.def = st->def.get();
        inner.params = &m.closures[c->second].params;
        inner.locals = &m.closures[c->second].locals;
      }
      each_call(m, st->def->body, inner, name, fn);
      continue;
    }
    if (st->kind == StmtKind::Class) continue;  // its methods are functions of the module
    for (auto& t : st->targets)
      if (t) each_call_expr(m, *t, s, name, fn);
    if (st->value) each_call_expr(m, *st->value, s, name, fn);
    if (st->annotation) each_call_expr(m, *st->annotation, s, name, fn);
    for_each_suite(*st, [&](const std::vector<StmtPtr>& b) { each_call(m, b, s, name, fn); });
  }
}

/// What an instance of `d` keeps as its arguments; false with `why`.
bool args_of(const ModuleInfo& m, Ty d, std::vector<Ty>& out, std::string& why) {
  const ClassInfo& c = *class_info(d);
  auto nearest = c.methods.find("__init__");
  if (nearest != c.methods.end()) {
    // Follow super().__init__ down to BaseException's; without one, the constructor's arguments.
    for (Ty k = nearest->second;;) {
      const FuncInfo* init = init_of(m, k);
      if (!init || !init->def) break;
      const Expr* sup = super_init_call(init->def->body);
      if (!sup) break;
      Ty base = class_info(k)->base;
      auto deeper = base == Ty::Error ? class_info(k)->methods.end() : class_info(base)->methods.find("__init__");
      if (base != Ty::Error && deeper != class_info(base)->methods.end()) {
        k = deeper->second;
        continue;
      }
      Scope s{init->def, &init->params, k, &init->locals};
      return call_arg_types(m, *sup, s, out, why);
    }
    const FuncInfo* init = init_of(m, nearest->second);
    if (!init || !init->def) {
      why = "a class whose __init__ ppy cannot read";
      return false;
    }
    out.clear();
    for (size_t i = 1; i < init->params.size(); ++i) {
      if (i < init->def->params.size() && init->def->params[i].default_value) {
        why = str_cat("a class whose __init__ has a default for '", init->def->params[i].name,
                      "' (the number of arguments varies)");
        return false;
      }
      out.push_back(init->params[i]);
    }
    for (Ty t : out)
      if (t != Ty::Int && t != Ty::Float && t != Ty::Bool && t != Ty::Str) {
        why = str_cat("arguments of type ", ty_name(t), " (ints, floats, bools and strs only)");
        return false;
      }
    return true;
  }
  // No __init__: what each construction of the module passes.
  bool any = false, ok = true;
  auto seen = [&](const Expr& call, const Scope& s) {
    if (!ok) return;
    std::vector<Ty> here;
    if (!call_arg_types(m, call, s, here, why)) {
      ok = false;
      return;
    }
    if (any && here != out) {
      why = str_cat("constructions with arguments of different types (line ", call.pos.line, ")");
      ok = false;
      return;
    }
    out = std::move(here);
    any = true;
  };
  for (auto& f : m.funcs) {
    if (!f.def) continue;
    Ty self = Ty::Error;
    if (size_t dot = f.name.find('.'); dot != std::string::npos)
      if (auto k = m.classes.find(f.name.substr(0, dot)); k != m.classes.end()) self = k->second;
    each_call(m, f.def->body, Scope{f.def, &f.params, self, &f.locals}, c.name, seen);
  }
  if (ok && !any) {
    why = str_cat("a class the module never constructs by name (", c.name, "(...))");
    return false;
  }
  return ok;
}

void subtree(Ty t, std::vector<Ty>& out) {
  out.push_back(t);
  for (Ty s : class_info(t)->subclasses) subtree(s, out);
}

}  // namespace

bool exception_args_types(const ModuleInfo& m, Ty cls, std::vector<Ty>& out, std::string& why) {
  std::vector<Ty> classes;
  subtree(cls, classes);
  for (size_t i = 0; i < classes.size(); ++i) {
    std::vector<Ty> here;
    if (!args_of(m, classes[i], here, why)) {
      if (classes[i] != cls) why = str_cat(why, " (in subclass '", class_info(classes[i])->name, "')");
      return false;
    }
    if (i > 0 && here != out) {
      why = str_cat("subclass '", class_info(classes[i])->name, "' keeps arguments of other types");
      return false;
    }
    out = std::move(here);
  }
  if (out.empty()) {
    why = "no arguments (the empty tuple is outside the ppy subset)";
    return false;
  }
  return true;
}

}  // namespace ppy::frontend
