// The body checker, objects as dict keys and set members (hash_key_helpers.h;
// docs/language.md, "Dicts and sets").
#include "body_checker.h"
#include "checker_internal.h"
#include "field_init.h"
#include "hash_key_helpers.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool BodyChecker::object_key(Ty key, Pos p) {
  if (is_tuple(key)) {
    for (Ty e : tuple_elems(key))
      if (!object_key(e, p)) return false;
    return true;
  }
  if (!is_class(key) || !object_key_helped(key)) return true;  // hashed by identity
  if (unhashable_class(key)) {
    raises();  // TypeError: unhashable type
    return true;
  }
  const ClassInfo& c = *class_info(key);
  std::string helper = hash_key_helper(c.name);
  bool mine = c.module == m_.name;
  if (mine ? !m_.func(helper) : !all_.count(c.module) || !all_.at(c.module).functions.count(helper)) {
    error(p, "E1010",
          str_cat("instances of ", c.name,
                  " as dict keys or set members (a frozen dataclass whose fields are not all int or str) are "
                  "outside the ppy subset"));
    return false;
  }
  std::string q = c.module + "." + helper;
  f_.callees.insert(q);
  f_.callee_sites.emplace(q, p);
  if (!mine) m_.externals.insert(q);
  raises();  // what __hash__ and __eq__ raise
  return true;
}

namespace {

/// Whether `t` or a base of it is a frozen dataclass (hashed by its fields, not by identity).
bool frozen_class_chain(Ty t) {
  for (Ty c = t; is_class(c); c = class_info(c)->base)
    if (class_info(c)->frozen) return true;
  return false;
}

/// Whether hash() takes a value of type `t` by the runtime's hashes (ppy_hash_int, ppy_hash_text,
/// ppy_hash_lanes): a frozen dataclass's (or NamedTuple's) is its fields' tuple's.
bool hashed_by_value(Ty t) {
  if (t == Ty::Int || t == Ty::Bool || t == Ty::Str) return true;
  if (is_class(t)) {
    if (!frozen_class_chain(t) || class_info(t)->methods.count("__eq__") || class_info(t)->fields.empty()) return false;
    for (auto& f : class_info(t)->fields)
      if (!is_field_set_flag(f.first) && !hashed_by_value(f.second)) return false;
    return true;
  }
  std::vector<Ty> elems = tuple_elems(t);
  for (Ty e : elems)
    if (!hashed_by_value(e)) return false;
  return !elems.empty();
}

}  // namespace

Ty BodyChecker::hash_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  if (nargs != 1) {
    error(e.pos, "E1032", str_cat("hash() takes exactly one argument (", nargs, " given)"));
    return Ty::Error;
  }
  Ty t = value(*e.kids[1], Ty::Error);
  if (t == Ty::Error) return t;
  if (is_class(t) && class_info(t)->methods.count("__hash__")) return dunder_call(e, std::move(e.kids[1]), "__hash__", {});
  if (is_class(t) && unhashable_class(t)) {
    raises();  // TypeError: unhashable type (lower_hash_key.cc)
    return Ty::Int;
  }
  if (is_class(t) && !frozen_class_chain(t)) {  // object.__hash__: by identity (lower_hash_key.cc), issue 32
    effect("reads");
    return Ty::Int;
  }
  if (!hashed_by_value(t)) {
    error(e.kids[1]->pos, "E1010",
          str_cat("hash() of ", ty_name(t),
                  " is outside the ppy subset (it takes ints, strs, tuples of those, frozen dataclasses of "
                  "those and objects whose class defines __hash__)"));
    return Ty::Error;
  }
  return Ty::Int;
}

}  // namespace ppy::frontend::checking
