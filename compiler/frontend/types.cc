// Interned compound source types (types.h).
#include "types.h"

#include <algorithm>
#include <deque>

#include "callable.h"
#include "unions.h"
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

enum class Kind { NoneValue, Tuple, Optional, List, Class, Dict, Set, Iterator, Callable, Union };

struct Compound {
  Kind kind;
  std::vector<Ty> elems;  ///< tuple elements; an optional's inner type
  std::string name;
  std::unique_ptr<ClassInfo> cls;  ///< a class's info
};

/// The process's compound types: a deque keeps each name's address stable. A
/// class type outlives its compilation but its info does not: one compilation
/// runs at a time, and release_classes empties what it declared.
struct Table {
  std::mutex mu;
  std::deque<Compound> types;
  std::map<std::tuple<Kind, std::vector<Ty>, std::string>, Ty> index;

  /// `key` tells apart types of one kind with the same elements (classes).
  Ty intern(Kind k, std::vector<Ty> elems, std::string name, std::string key = "") {
    std::lock_guard<std::mutex> lock(mu);
    auto key_t = std::make_tuple(k, elems, std::move(key));
    auto it = index.find(key_t);
    if (it != index.end()) return it->second;
    Compound c{k, std::move(elems), std::move(name), nullptr};
    Ty t = static_cast<Ty>(static_cast<uint16_t>(Ty::FirstCompound) + types.size());
    if (k == Kind::Class) c.cls = std::make_unique<ClassInfo>();
    types.push_back(std::move(c));
    index.emplace(std::move(key_t), t);
    return t;
  }

  const Compound* get(Ty t) {
    if (t < Ty::FirstCompound) return nullptr;
    std::lock_guard<std::mutex> lock(mu);
    size_t i = static_cast<uint16_t>(t) - static_cast<uint16_t>(Ty::FirstCompound);
    return i < types.size() ? &types[i] : nullptr;
  }
};

Table& table() {
  static Table* t = new Table;
  return *t;
}

}  // namespace

Ty none_value() { return table().intern(Kind::NoneValue, {}, "None"); }

// Lazy sequences: a generator's frame.
Ty iterator_of(Ty elem) { return table().intern(Kind::Iterator, {elem}, str_cat("Iterator[", ty_name(elem), "]")); }
bool is_iterator(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Iterator;
}
Ty iterator_elem(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Iterator ? c->elems[0] : Ty::Error;
}

Ty tuple_of(const std::vector<Ty>& elems) {
  std::string name = "tuple[";
  for (size_t i = 0; i < elems.size(); ++i) str_append(name, i ? ", " : "", ty_name(elems[i]));
  name += elems.empty() ? "()]" : "]";
  return table().intern(Kind::Tuple, elems, std::move(name));
}

Ty list_of(Ty elem) {
  if (elem == Ty::Int) return Ty::ListInt;
  if (elem == Ty::Float) return Ty::ListFloat;
  if (elem == Ty::Error) return Ty::Error;
  return table().intern(Kind::List, {elem}, str_cat("list[", ty_name(elem), "]"));
}

bool is_list(Ty t) {
  if (t == Ty::ListInt || t == Ty::ListFloat) return true;
  const Compound* c = table().get(t);
  return c && c->kind == Kind::List;
}

Ty list_elem(Ty t) {
  if (t == Ty::ListInt) return Ty::Int;
  if (t == Ty::ListFloat) return Ty::Float;
  const Compound* c = table().get(t);
  return c && c->kind == Kind::List ? c->elems[0] : Ty::Error;
}

bool list_holdable(Ty t) {
  if (is_callable(t)) return true;  // a function value is a handle (callable.h)
  if (is_iterator(t)) return true;  // a generator frame is a handle (groupby's groups, lazy_values.cc)
  if (is_class(t) || t == Ty::Int || t == Ty::Float || t == Ty::Bool || t == Ty::Str) return true;
  if (is_list(t)) return list_holdable(list_elem(t));
  if (is_dict(t) || is_set(t)) return true;  // issue 32: a table is a handle (its descriptor travels in the list's)
  if (t == Ty::Exc) return true;  // issue 32: `list[Exception]`, boxed as a tuple is
  return (is_tuple(t) || is_optional(t) || is_union(t)) && holdable(t);
}

Ty dict_of(Ty key, Ty value) {
  if (key == Ty::Error || value == Ty::Error) return Ty::Error;
  return table().intern(Kind::Dict, {key, value}, str_cat("dict[", ty_name(key), ", ", ty_name(value), "]"));
}
Ty set_of(Ty elem) {
  if (elem == Ty::Error) return Ty::Error;
  return table().intern(Kind::Set, {elem}, str_cat("set[", ty_name(elem), "]"));
}
bool is_dict(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Dict;
}
bool is_set(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Set;
}
Ty key_of(Ty t) {
  const Compound* c = table().get(t);
  return c && (c->kind == Kind::Dict || c->kind == Kind::Set) ? c->elems[0] : Ty::Error;
}
Ty dict_value(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Dict ? c->elems[1] : Ty::Error;
}
bool key_holdable(Ty t) {
  if (t == Ty::Int || t == Ty::Str || is_class(t)) return true;  // objects: issue 32 (hash_key_helpers.h)
  if (!is_tuple(t)) return false;
  std::vector<Ty> elems = tuple_elems(t);
  for (Ty e : elems)
    if (e != Ty::Int && e != Ty::Str && !is_class(e)) return false;
  return !elems.empty();
}
bool dict_value_holdable(Ty t) {
  if (is_dict(t) || is_set(t)) return true;  // issue 32: dicts and sets inside dicts
  if (is_class(t)) return true;  // issue 32: objects (handles, as strs)
  if (is_callable(t)) return true;  // function values (a closure's handle, as strs: callable.h)
  if (is_tuple(t)) return holdable(t);  // issue 32: boxed, as a list holds a tuple (lower_dict.cc)
  return t == Ty::Int || t == Ty::Float || t == Ty::Bool || t == Ty::Str || (is_list(t) && list_holdable(t));
}

std::string dict_value_refusal(const std::string& holder, Ty t) {
  return str_cat(holder,
                 " values are int, float, bool, str, objects of classes, or tuples, lists, dicts and sets of those in "
                 "the ppy subset, not ",
                 ty_name(t));
}

Ty optional_of(Ty inner) {
  if (is_optional(inner) || is_none_value(inner) || inner == Ty::Error) return inner;
  return table().intern(Kind::Optional, {inner}, str_cat(ty_name(inner), " | None"));
}

bool is_tuple(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Tuple;
}
bool is_optional(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Optional;
}
bool is_none_value(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::NoneValue;
}
std::vector<Ty> tuple_elems(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Tuple ? c->elems : std::vector<Ty>{};
}
Ty optional_inner(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Optional ? c->elems[0] : Ty::Error;
}
const char* compound_name(Ty t) {
  const Compound* c = table().get(t);
  if (!c) return nullptr;
  return c->name.c_str();
}

bool assignable(Ty from, Ty to) {
  if (from == to) return true;
  if (is_union(to) || is_union(from)) return union_accepts(to, from);  // unions.cc
  if (from == Ty::Bool && to == Ty::Int) return true;  // unions: a bool is an int, as Python's (coerce() widens it)
  if (is_class(from) && is_class(to)) return is_subclass(from, to);  // a subclass's instance is its base's
  // issue 32: an exception class's instance where `Exception` is declared (coerce() makes the caught tuple)
  if (to == Ty::Exc && is_class(from)) return !class_info(from)->exception_base.empty();
  if (to == Ty::Exc && is_none_value(from)) return true;  // `__exit__(self, exc_type, exc, tb)` of a with that did not raise
  if (is_optional(to)) return is_none_value(from) || assignable(from, optional_inner(to));
  if (is_tuple(from) && is_tuple(to)) {
    std::vector<Ty> a = tuple_elems(from), b = tuple_elems(to);
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!assignable(a[i], b[i])) return false;
    return true;
  }
  return false;
}

bool orderable(Ty t) {
  if (t == Ty::Int || t == Ty::Float || t == Ty::Bool || t == Ty::Str) return true;
  if (is_list(t)) return orderable(list_elem(t));
  if (!is_tuple(t)) return false;
  for (Ty e : tuple_elems(t))
    if (!orderable(e)) return false;
  return true;
}

bool element_fits(Ty t, Ty elem) {
  return t == elem || ((is_tuple(elem) || is_optional(elem) || is_union(elem)) && assignable(t, elem));
}

bool holdable(Ty t) {
  if (is_callable(t)) return true;  // a function value is a handle (callable.h)
  if (is_iterator(t)) return true;  // a generator frame is a handle: groupby's (key, group) pairs
  if (t == Ty::Int || t == Ty::Float || t == Ty::Bool || t == Ty::Str || is_none_value(t) || is_class(t)) return true;
  if (t == Ty::Exc) return true;  // issue 32: an exception as a value (a tuple of handles)
  if (is_optional(t)) return holdable(optional_inner(t));
  if (is_union(t)) return true;  // its alternatives were each holdable (unions.cc)
  if (is_list(t)) return list_holdable(list_elem(t));
  if (is_tuple(t)) {
    for (Ty e : tuple_elems(t))
      if (!holdable(e)) return false;
    return true;
  }
  return false;
}

Ty class_type(const std::string& module, const std::string& name) {
  // '\0' between them: class `shapes.Square` of module `geo` (a dotted path
  // looked up as a class) is not class `Square` of `geo.shapes`.
  Ty t = table().intern(Kind::Class, {}, name, str_cat(module, std::string(1, '\0'), name));
  class_info(t)->ty = t;
  return t;
}

void release_classes(const std::vector<const ModuleInfo*>& owners) {
  Table& tab = table();
  std::lock_guard<std::mutex> lock(tab.mu);
  for (Compound& c : tab.types) {
    if (!c.cls || std::find(owners.begin(), owners.end(), c.cls->owner) == owners.end()) continue;
    ClassInfo fresh;
    fresh.module = std::move(c.cls->module);
    fresh.name = std::move(c.cls->name);
    fresh.ty = c.cls->ty;
    *c.cls = std::move(fresh);
  }
}

ClassInfo* class_info(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Class ? c->cls.get() : nullptr;
}

bool is_class(Ty t) { return class_info(t) != nullptr; }

bool is_subclass(Ty a, Ty b) {
  for (int depth = 0; depth < 1000 && is_class(a); ++depth) {
    if (a == b) return true;
    a = class_info(a)->base;
  }
  return false;
}

bool holds_object(Ty t) {
  if (is_class(t) || is_callable(t)) return true;  // a function value is compared and printed as an object is
  if (is_list(t)) return holds_object(list_elem(t));
  if (is_optional(t)) return holds_object(optional_inner(t));
  for (Ty e : union_alts(t))
    if (holds_object(e)) return true;
  for (Ty e : tuple_elems(t))
    if (holds_object(e)) return true;
  return false;
}

// Containers of objects print (issue 32: lower_str.cc's list_repr); what stays refused is a
// function value, a generator or other iterator (alone or in a container), a caught exception in a
// container, and a dataclass whose fields lead back to it.
bool printable(Ty t, std::string* why) {
  if (is_callable(t)) {
    *why = "printing a function value is outside the ppy subset (Python prints its address)";
    return false;
  }
  if (is_iterator(t)) {  // a generator, an itertools.groupby group: Python prints `<generator object f at 0x...>`
    *why = str_cat("printing a generator or iterator (", ty_name(t),
                   ") is outside the ppy subset (Python prints its address; print list() of it)");
    return false;
  }
  if (is_class(t)) {
    const ClassInfo& c = *class_info(t);
    if (printable_object(t)) return true;  // exception classes, __str__ and __repr__ (lower_dunder.cc)
    if (!c.dataclass) {
      *why = str_cat("printing an instance of ", c.name,
                     ", which is not a @dataclass, is outside the ppy subset "
                     "(Python prints its address)");
      return false;
    }
    // A dataclass prints its fields' reprs, written out where it is printed: one that holds its own
    // class again (a tree, a linked list) would be written out without end.
    thread_local std::vector<Ty> open;
    if (std::find(open.begin(), open.end(), t) != open.end()) {
      *why = str_cat("printing dataclass ", c.name, ", whose fields lead back to ", c.name,
                     ", is outside the ppy subset (give it a __repr__)");
      return false;
    }
    open.push_back(t);
    bool ok = true;
    for (auto& f : c.fields)
      if (!(ok = printable(f.second, why))) break;
    open.pop_back();
    return ok;
  }
  if ((is_dict(t) || is_set(t)) && (key_of(t) == Ty::Exc || (is_dict(t) && dict_value(t) == Ty::Exc))) {
    *why = str_cat("printing a ", ty_name(t), " is outside the ppy subset (print its keys one by one)");
    return false;
  }
  if (is_list(t) && list_elem(t) == Ty::Exc) {  // a caught exception: issue 32
    *why = str_cat("printing a ", ty_name(t), " is outside the ppy subset (print its elements one by one)");
    return false;
  }
  if (is_optional(t)) return printable(optional_inner(t), why);
  for (Ty e : union_alts(t))
    if (!printable(e, why)) return false;
  for (Ty e : tuple_elems(t)) {
    if (e == Ty::Exc) {  // its repr is the exception's own (check_exception_args.cc), not a container's
      *why = str_cat("printing a ", ty_name(t), " is outside the ppy subset (print its elements one by one)");
      return false;
    }
    if (!printable(e, why)) return false;
  }
  if (is_dict(t) || is_set(t)) return printable(key_of(t), why) && (is_set(t) || printable(dict_value(t), why));
  if (is_list(t)) return printable(list_elem(t), why);
  return true;
}

// ---- Unions (unions.h): interned with their alternatives in Ty order ----

Ty union_interned(const std::vector<Ty>& alts) {
  std::string name;
  for (size_t i = 0; i < alts.size(); ++i) str_append(name, i ? " | " : "", ty_name(alts[i]));
  return table().intern(Kind::Union, alts, std::move(name));
}

bool is_union(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Union;
}

std::vector<Ty> union_alts(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Union ? c->elems : std::vector<Ty>{};
}

// ---- Functions as values (callable.h) ----

Ty callable_of(const std::vector<Ty>& params, Ty result) {
  std::string name = "Callable[[";
  for (size_t i = 0; i < params.size(); ++i) str_append(name, i ? ", " : "", ty_name(params[i]));
  str_append(name, "], ", result == Ty::None ? "None" : ty_name(result), "]");
  std::vector<Ty> elems = params;
  elems.push_back(result);
  return table().intern(Kind::Callable, std::move(elems), std::move(name));
}

bool is_callable(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Callable;
}

std::vector<Ty> callable_params(Ty t) {
  const Compound* c = table().get(t);
  if (!c || c->kind != Kind::Callable) return {};
  return std::vector<Ty>(c->elems.begin(), c->elems.end() - 1);
}

Ty callable_result(Ty t) {
  const Compound* c = table().get(t);
  return c && c->kind == Kind::Callable ? c->elems.back() : Ty::Error;
}

}  // namespace ppy::frontend
