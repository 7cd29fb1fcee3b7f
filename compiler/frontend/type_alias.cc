// generics: type aliases (`Matrix = list[list[float]]`, `Vector: TypeAlias =
// list[float]`, `type Grid = list[list[int]]`), module TypeVars, and how an
// annotation names them. An alias is only a second name for a type: every
// annotation (parameters, results, locals, fields, other aliases) reads it as
// the type it names.
#include <algorithm>
#include <set>

#include "checker_internal.h"
#include "generics.h"
#include "imported_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// The generic types an annotation's subscript may name (typing's spellings too).
bool generic_base(const std::string& b) {
  static const std::set<std::string> names = {"list",
                                              "dict",
                                              "set",
                                              "tuple",
                                              "List",
                                              "Dict",
                                              "Set",
                                              "Tuple",
                                              "Optional",
                                              "Union",
                                              "Callable",
                                              "Iterator",
                                              "Generator",
                                              "typing.List",
                                              "typing.Dict",
                                              "typing.Set",
                                              "typing.Tuple",
                                              "typing.Optional",
                                              "typing.Union",
                                              "typing.Callable",
                                              "typing.Iterator",
                                              "typing.Generator",
                                              "collections.abc.Callable",
                                              "collections.abc.Iterator",
                                              "collections.abc.Generator",
                                              // lazy sequences as values (lazy_values.h)
                                              "Iterable",
                                              "typing.Iterable",
                                              "collections.abc.Iterable",
                                              // a list and a dict (check_tuple.cc)
                                              "Sequence", "typing.Sequence", "collections.abc.Sequence",
                                              "Mapping", "typing.Mapping", "collections.abc.Mapping"};
  return names.count(b) != 0;
}

/// Whether `v`, the value of a module-level assignment, is written as a type:
/// a generic type with its arguments, a union with None, or a name of a type.
bool looks_like_type(const ModuleInfo& m, const Expr& v) {
  if (v.kind == ExprKind::Subscript) {
    auto base = dotted(*v.kids[0]);
    return base && generic_base(*base);
  }
  if (v.kind == ExprKind::Binary && v.str == "|")
    return (v.kids[0]->kind == ExprKind::NoneLit || looks_like_type(m, *v.kids[0])) &&
           (v.kids[1]->kind == ExprKind::NoneLit || looks_like_type(m, *v.kids[1]));
  if (v.kind == ExprKind::Name)
    return v.str == "int" || v.str == "float" || v.str == "str" || v.str == "bool" || m.classes.count(v.str) ||
           m.type_aliases.count(v.str);
  return false;
}

void collect_names(const Expr& a, const std::set<std::string>& wanted, std::vector<std::string>& out) {
  if ((a.kind == ExprKind::Name || a.kind == ExprKind::Str) && wanted.count(a.str) &&
      std::find(out.begin(), out.end(), a.str) == out.end())
    out.push_back(a.str);
  for (auto& k : a.kids) collect_names(*k, wanted, out);
}

/// An annotation's text with the type parameters bound in `args` written as
/// their types: `Stack[T]` with T bound to int is `Stack[int]`.
std::string bound_text(const Expr& a, const std::map<std::string, Ty>& args) {
  if (a.kind == ExprKind::Name)
    if (auto it = args.find(a.str); it != args.end()) return ty_name(it->second);
  if (a.kind == ExprKind::Subscript) return str_cat(bound_text(*a.kids[0], args), "[", bound_text(*a.kids[1], args), "]");
  if (a.kind == ExprKind::Tuple) {
    std::string out;
    for (size_t i = 0; i < a.kids.size(); ++i) str_append(out, i ? ", " : "", bound_text(*a.kids[i], args));
    return out;
  }
  if (a.kind == ExprKind::Binary)
    return str_cat(bound_text(*a.kids[0], args), " ", a.str, " ", bound_text(*a.kids[1], args));
  return annotation_text(a);
}

}  // namespace

std::optional<Ty> named_type(const ModuleInfo& m, const std::map<std::string, Ty>& args, const Expr& a) {
  if (a.kind == ExprKind::Subscript && !args.empty() && a.kids[0]->kind == ExprKind::Name) {
    // `Stack[T]` in a generic function's instantiation: the generic class's
    // instantiation the program names elsewhere (generic_classes.h).
    if (auto it = m.classes.find(bound_text(a, args)); it != m.classes.end()) return it->second;
    return std::nullopt;
  }
  if (a.kind == ExprKind::Attribute) return imported_class(m, a);  // `shapes.Circle` (imported_classes.h)
  if (a.kind != ExprKind::Name && a.kind != ExprKind::Str) return std::nullopt;
  if (auto it = args.find(a.str); it != args.end()) return it->second;
  if (auto it = m.type_aliases.find(a.str); it != m.type_aliases.end()) return it->second;
  if (auto it = m.classes.find(a.str); it != m.classes.end()) return it->second;
  return imported_class(m, a);  // `Circle` of `from shapes import Circle`
}

bool names_any(const Expr& a, const std::vector<std::string>& params) {
  std::vector<std::string> found;
  collect_names(a, std::set<std::string>(params.begin(), params.end()), found);
  return !found.empty();
}

std::vector<std::string> generic_params(const ModuleInfo& m, const FuncDef& def) {
  std::vector<std::string> out = def.type_params;
  if (m.type_vars.empty()) return out;
  for (auto& p : def.params)
    if (p.annotation) collect_names(*p.annotation, m.type_vars, out);
  if (def.returns) collect_names(*def.returns, m.type_vars, out);
  return out;
}

bool declare_type_name(ModuleInfo& m, Stmt& s, const std::function<Ty(const Expr&)>& resolve,
                       const std::function<std::string(const std::string&)>& special,
                       const std::function<bool(const std::string&)>& bound_once, const ErrorFn& error) {
  if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || !s.value) return false;
  const std::string& name = s.targets[0]->str;
  const Expr& v = *s.value;
  auto special_of = [&](const Expr& e) {
    auto path = dotted(e);
    return path ? special(*path) : std::string();
  };
  bool alias = false;
  if (s.kind == StmtKind::AnnAssign) {
    alias = s.op == "type" || special_of(*s.annotation) == "typing.TypeAlias";
    if (!alias) return false;
  } else if (v.kind == ExprKind::Call) {
    std::string callee = special_of(*v.kids[0]);
    if (callee == "typing.ParamSpec" || callee == "typing.TypeVarTuple" || callee == "typing.NewType") {
      error(v.pos, "E1010", str_cat("a ", callee.substr(7), " is outside the ppy subset"));
      return true;
    }
    if (callee != "typing.TypeVar") return false;
    if (v.kids.size() != 2 || v.kids[1]->kind != ExprKind::Str || v.kids[1]->str != name) {
      if (v.kids.size() > 2)
        error(v.kids[2]->pos, "E1010", "a constrained TypeVar (TypeVar(\"T\", int, str)) is outside the ppy subset");
      else
        error(v.pos, "E1032", str_cat("TypeVar takes the variable's own name: ", name, " = TypeVar(\"", name, "\")"));
      return true;
    }
    for (auto& k : v.keywords)
      error(k.pos, "E1010",
            k.name == "bound" ? std::string("a bounded TypeVar (bound=...) is outside the ppy subset")
                              : str_cat("TypeVar(", k.name, "=...) is outside the ppy subset"));
    if (!bound_once(name)) {
      error(s.pos, "E1021", str_cat("type variable '", name, "' is bound more than once in module ", m.name));
      return true;
    }
    m.type_vars.insert(name);
    return true;
  } else {
    if (!looks_like_type(m, v) || !bound_once(name)) return false;
    alias = true;
  }
  if (m.type_aliases.count(name) || m.classes.count(name) || m.func_index.count(name) || m.consts.count(name)) {
    error(s.pos, "E1021", str_cat("'", name, "' is defined twice in module ", m.name));
    return true;
  }
  Ty t = resolve(v);
  if (t != Ty::Error) m.type_aliases[name] = t;
  return alias;
}

bool declare_if_generic(ModuleInfo& m, FuncDef& def, bool method, const std::function<Ty(const Param&)>& resolve,
                        const std::function<std::optional<ConstInfo>(const Param&)>& default_of, const ErrorFn& error) {
  std::vector<std::string> tparams = generic_params(m, def);
  if (tparams.empty()) return false;
  if (method) {
    error(def.pos, "E1010", str_cat("a generic method ('", def.name, "') is outside the ppy subset"));
    return true;
  }
  if (!def.decorators.empty()) {
    error(def.decorators[0]->pos, "E1010", "a decorated generic function is outside the ppy subset");
    return true;
  }
  GenericFunc g;
  g.def = &def;
  g.type_params = std::move(tparams);
  for (auto& p : def.params) {
    if (!p.annotation) {
      error(p.pos, "E1031", str_cat("parameter '", p.name, "' of '", def.name, "' needs a type annotation"));
      g.defaults.push_back(std::nullopt);
      continue;
    }
    bool generic = names_any(*p.annotation, g.type_params);
    p.ty = generic ? Ty::Error : resolve(p);
    g.defaults.push_back(generic ? std::nullopt : default_of(p));
    if (generic && p.default_value)
      error(
          p.default_value->pos, "E1010",
          str_cat("a default for parameter '", p.name, "', whose type is a type parameter, is outside the ppy subset"));
  }
  if (!def.returns) error(def.pos, "E1031", str_cat("function '", def.name, "' needs a return annotation"));
  m.generic_funcs[def.name] = std::move(g);
  return true;
}

bool names_generic_function(const ModuleInfo& m, const ModuleInterfaces& all, const std::string& name) {
  if (m.generic_funcs.count(name)) return true;
  auto b = m.bindings.find(name);
  if (b == m.bindings.end() || b->second.kind != Binding::Func) return false;
  auto mi = all.find(b->second.module);
  if (mi == all.end()) return false;
  auto fi = mi->second.functions.find(b->second.name);
  return fi != mi->second.functions.end() && !fi->second.type_params.empty();
}

std::string annotation_text(const Expr& a) {
  switch (a.kind) {
    case ExprKind::Name:
    case ExprKind::Str:
      return a.str;
    case ExprKind::NoneLit:
      return "None";
    case ExprKind::Attribute:
      return str_cat(annotation_text(*a.kids[0]), ".", a.str);
    case ExprKind::Subscript:
      return str_cat(annotation_text(*a.kids[0]), "[", annotation_text(*a.kids[1]), "]");
    case ExprKind::Binary:
      return str_cat(annotation_text(*a.kids[0]), " ", a.str, " ", annotation_text(*a.kids[1]));
    case ExprKind::Tuple:
    case ExprKind::List: {
      std::string out = a.kind == ExprKind::List ? "[" : "";
      for (size_t i = 0; i < a.kids.size(); ++i) str_append(out, i ? ", " : "", annotation_text(*a.kids[i]));
      if (a.kind == ExprKind::Tuple && a.kids.empty()) out = "()";
      return a.kind == ExprKind::List ? out + "]" : out;
    }
    default:
      return "<error>";
  }
}

std::string instance_name(const std::string& name, const std::vector<Ty>& args) {
  std::string out = name + "[";
  for (size_t i = 0; i < args.size(); ++i) str_append(out, i ? ", " : "", ty_name(args[i]));
  return out + "]";
}

}  // namespace ppy::frontend::checking
