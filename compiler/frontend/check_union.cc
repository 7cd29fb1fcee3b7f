// The body checker, unions (issue 32, unions.h): isinstance() of builtin types,
// classes and tuples of them, and the narrowing it gives a local. What a
// condition proves of a local travels in Flow::not_none (check_tuple.cc) as
// the entry `name` (not None) or `name\x01<type>` (the local holds that type
// here), so flow merges and loops treat both alike.
#include <string>

#include "body_checker.h"
#include "checker_internal.h"
#include "callable.h"
#include "ppy/util/str_cat.h"
#include "unions.h"

namespace ppy::frontend::checking {
namespace {

constexpr char kNarrowMark = '\x01';

std::string narrow_entry(const std::string& n, Ty t) {
  return n + kNarrowMark + std::to_string(static_cast<uint16_t>(t));
}

/// The builtin type a name stands for in isinstance() (unions.cc's markers for list, dict, set, tuple).
Ty builtin_class(const std::string& n) {
  if (n == "int") return Ty::Int;
  if (n == "float") return Ty::Float;
  if (n == "str") return Ty::Str;
  if (n == "bool") return Ty::Bool;
  if (n == "list") return Ty::ListInt;
  if (n == "dict") return Ty::PtrInt;
  if (n == "set") return Ty::PtrFloat;
  if (n == "tuple") return Ty::ConstPtrInt;
  return Ty::Error;
}

}  // namespace

bool BodyChecker::instance_classes(Expr& k, std::vector<Ty>& out) {
  if (k.kind == ExprKind::Tuple) {
    bool ok = true;
    for (auto& x : k.kids) ok = instance_classes(*x, out) && ok;
    k.ty = Ty::Error;
    return ok;
  }
  Ty t = Ty::Error;
  if (auto path = dotted(k); path && k.kind == ExprKind::Attribute) {  // `shapes.Circle` (imported_classes.h)
    if (auto ci = m_.classes.find(*path); ci != m_.classes.end()) t = ci->second;
  } else if (k.kind == ExprKind::Name) {
    if (auto ci = m_.classes.find(k.str); ci != m_.classes.end())
      t = ci->second;
    else if (!types_.count(k.str))
      t = builtin_class(k.str);
  }
  if (t == Ty::Error) {
    error(k.pos, "E1010",
          "isinstance() takes a class of the module, a builtin type (int, float, str, bool, list, dict, set, "
          "tuple) or a tuple of those in the ppy subset");
    return false;
  }
  k.ty = t;
  out.push_back(t);
  return true;
}

Ty BodyChecker::isinstance_any(Expr& e) {
  e.ref = Ref::Builtin;
  e.target = "isinstance";
  if (e.kids.size() != 3 || !e.keywords.empty()) {
    for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
    error(e.pos, "E1032", str_cat("isinstance expected 2 arguments, got ", e.kids.size() - 1));
    return Ty::Error;
  }
  Ty t = value(*e.kids[1], Ty::Error);
  if (t == Ty::Exc) return exception_isinstance(e);  // issue 32 (check_exception_value.cc)
  std::vector<Ty> ks;
  if (!instance_classes(*e.kids[2], ks) || t == Ty::Error) return Ty::Error;
  if (is_callable(t) || is_iterator(t) || is_ptr(t) || t == Ty::Exc || t == Ty::File) {
    error(e.kids[1]->pos, "E1010", str_cat("isinstance() of ", ty_name(t), " is outside the ppy subset"));
    return Ty::Error;
  }
  effect("reads");
  return Ty::Bool;
}

void BodyChecker::isinstance_facts(const Expr& c, bool when_true, std::set<std::string>& out) {
  if (c.kind != ExprKind::Call || c.target != "isinstance" || c.ref != Ref::Builtin || c.kids.size() != 3) return;
  const Expr& x = *c.kids[1];
  if (x.kind != ExprKind::Name || x.ref != Ref::Local) return;
  auto it = types_.find(x.str);
  if (it == types_.end()) return;
  Ty declared = it->second;
  Ty now = narrowed(x.str, declared);
  std::vector<Ty> ks;
  if (c.kids[2]->kind == ExprKind::Tuple) {
    for (auto& k : c.kids[2]->kids) ks.push_back(k->ty);
  } else {
    ks.push_back(c.kids[2]->ty);
  }
  for (Ty k : ks)
    if (k == Ty::Error) return;
  // An object narrowed to the subclass the test names.
  if (is_class(now) && ks.size() == 1 && is_class(ks[0]) && is_subclass(ks[0], now) && when_true) {
    out.insert(narrow_entry(x.str, ks[0]));
    return;
  }
  if (!is_union(now) && !is_optional(now)) return;
  InstanceSplit s = isinstance_split(now, ks);
  Ty to = when_true ? s.pass : s.fail;
  if (to == Ty::Error || to == now) return;
  if (is_none_value(to)) return;  // only None is left: reads of it are refused as before
  if (is_optional(declared) && to == optional_inner(declared)) {
    out.insert(x.str);  // not None, as `x is not None` says
    return;
  }
  out.insert(narrow_entry(x.str, to));
}

Ty BodyChecker::union_narrowed(const std::string& n, Ty declared) {
  auto it = flow_.not_none.lower_bound(n + kNarrowMark);
  if (it == flow_.not_none.end() || it->compare(0, n.size() + 1, n + kNarrowMark) != 0) return Ty::Error;
  (void)declared;
  return static_cast<Ty>(static_cast<uint16_t>(std::stoul(it->substr(n.size() + 1))));
}

void BodyChecker::forget_union_narrowing(const std::string& n) {
  auto it = flow_.not_none.lower_bound(n + kNarrowMark);
  while (it != flow_.not_none.end() && it->compare(0, n.size() + 1, n + kNarrowMark) == 0)
    it = flow_.not_none.erase(it);
}

void BodyChecker::union_after_assign(const std::string& n, Ty declared, Ty vt) {
  forget_union_narrowing(n);
  Ty inner = is_optional(declared) ? optional_inner(declared) : declared;
  if (!is_union(inner) || vt == Ty::Error || vt == declared || vt == inner || is_none_value(vt) || is_optional(vt))
    return;
  if (union_tag(inner, vt) >= 0 || is_union(vt)) flow_.not_none.insert(narrow_entry(n, vt));
}

Ty BodyChecker::list_alternative(Ty expected) {
  Ty u = is_optional(expected) ? optional_inner(expected) : expected;
  for (Ty a : union_alts(u))
    if (is_list(a)) return a;
  return Ty::Error;
}

bool BodyChecker::match_field(Expr& e, const ClassInfo& c) {
  size_t i = static_cast<size_t>(std::stoul(e.str.substr(1)));
  const std::vector<std::string>* args = nullptr;  // the class's __match_args__, its own or a base's
  for (const ClassInfo* k = &c; k && !args; k = k->base == Ty::Error ? nullptr : class_info(k->base)) {
    if (!k->match_args.empty()) args = &k->match_args;
    if (k->dataclass) break;  // @dataclass makes its own from its fields
  }
  if (args) {
    if (i < args->size()) {
      e.str = (*args)[i];
      return true;
    }
    // python3: TypeError at run time; a positional pattern past them never matches a class that has them.
    error(e.pos, "E1030",
          str_cat(c.name, "() accepts ", args->size(), " positional sub-pattern", args->size() == 1 ? "" : "s", " (",
                  i + 1, " given)"));
    return false;
  }
  if (!c.dataclass || i >= c.fields.size()) {
    error(e.pos, "E1010",
          str_cat("a positional sub-pattern of class ", c.name,
                  c.dataclass ? " past its fields" : ", which has no __match_args__ (a @dataclass has),",
                  " is outside the ppy subset (name the field: `", c.name, "(x=...)`)"));
    return false;
  }
  e.str = c.fields[i].first;
  return true;
}

}  // namespace ppy::frontend::checking
