#pragma once
// Source types made of other types: tuples (`tuple[int, float]`) and optional
// values (`int | None`), and the type of the value None itself. Each is
// interned once per process as a `Ty` from `Ty::FirstCompound` up, so types
// compare with `==` and travel in interfaces by name (`ty_name`, `ty_from_name`).

#include <map>
#include <string>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

struct ModuleInfo;

/// The type of the value `None` (a literal, or what a `T | None` may hold).
Ty none_value();
/// `tuple[e0, e1, ...]`.
Ty tuple_of(const std::vector<Ty>& elems);
/// `list[elem]` (Ty::ListInt and Ty::ListFloat for int and float).
Ty list_of(Ty elem);
/// A list's element type (Error for anything else).
Ty list_elem(Ty t);
/// Whether a list may hold values of type `t`: int, float, bool, str, lists,
/// tuples and optionals of those (a tuple or an optional is boxed, docs/runtime.md).
bool list_holdable(Ty t);
/// `Iterator[elem]` (also `Generator[elem, None, None]`): a generator's frame on the collector (lazy sequences).
Ty iterator_of(Ty elem);
bool is_iterator(Ty t);
/// What an iterator yields (Error for anything else).
Ty iterator_elem(Ty t);
/// `dict[key, value]` and `set[elem]`: handles to the runtime's tables (ppy_dict.h).
Ty dict_of(Ty key, Ty value);
Ty set_of(Ty elem);
bool is_dict(Ty t);
bool is_set(Ty t);
/// A dict's key type or a set's element type (Error for anything else).
Ty key_of(Ty t);
/// A dict's value type (Error for anything else).
Ty dict_value(Ty t);
/// Whether a dict key or set element may be of type `t`: int, str, or a tuple of ints and strs.
bool key_holdable(Ty t);
/// Whether a dict value may be of type `t`: what a list holds.
bool dict_value_holdable(Ty t);
/// The refusal of a value `dict_value_holdable` refuses, for `holder` ("dict", "defaultdict"): what dicts hold.
std::string dict_value_refusal(const std::string& holder, Ty t);
/// `inner | None`; an optional of an optional is the optional itself.
Ty optional_of(Ty inner);

bool is_tuple(Ty t);
bool is_optional(Ty t);
bool is_none_value(Ty t);
/// A tuple's element types (empty for anything else).
std::vector<Ty> tuple_elems(Ty t);
/// What an optional holds when it is not None (Error for anything else).
Ty optional_inner(Ty t);
/// The name of a compound type as Python spells it; null for a builtin one.
const char* compound_name(Ty t);

/// Whether a value of type `from` may be stored where `to` is declared: the
/// same type, a value or None into an optional of it, tuples element by element.
/// (An int is never a float: Python keeps an int an int.)
bool assignable(Ty from, Ty to);

/// A class of the module being compiled (docs/language.md, "Classes"): an
/// instance is a reference, `ptr<struct<Name, __tid: i64, fields...>>` on the
/// IR.
struct ClassInfo {
  std::string module, name;
  /// The module that declares the class, where its methods, defaults and
  /// constants live (issue 32: another module may import the class).
  ModuleInfo* owner = nullptr;
  Ty ty = Ty::Error;
  Ty base = Ty::Error;  ///< the base class, Error when none
  bool dataclass = false;
  bool frozen = false;  ///< `@dataclass(frozen=True)` (dataclass_options.h)
  /// An exception class (exception_classes.h): the builtin exception at the
  /// root of its bases (`ValueError`), empty for any other class.
  std::string exception_base;
  /// Every field, the base's first (a subclass's struct starts with its
  /// base's).
  std::vector<std::pair<std::string, Ty>> fields;
  /// Each method the class has (its own or inherited) -> the class that defines
  /// it.
  std::map<std::string, Ty> methods;
  std::vector<Ty> subclasses;  ///< direct subclasses, in source order
  /// `__match_args__ = ("x", "y")` of the class body: the fields a positional
  /// class pattern names (a dataclass without it: its fields in order).
  std::vector<std::string> match_args;
  /// Type ids in preorder: this class and its subclasses have ids in [tid,
  /// tid_end).
  int64_t tid = 0, tid_end = 0;
  /// The index of field `n` in `fields`, or -1.
  int field(const std::string& n) const {
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i].first == n) return static_cast<int>(i);
    return -1;
  }
};
/// The class `name` of `module` (interned; its info starts empty).
Ty class_type(const std::string& module, const std::string& name);
/// A class type's info (null for any other type).
ClassInfo* class_info(Ty t);
/// Empties the info of every class that one of `owners` declared, back to its
/// module and name: class types are interned per process, so a compilation
/// that ends (its modules freed) must leave neither a pointer to them nor its
/// fields, methods and subclasses to the next one (frontend.cc).
void release_classes(const std::vector<const ModuleInfo*>& owners);
bool is_class(Ty t);
/// Whether `a` is `b` or derives from it.
bool is_subclass(Ty a, Ty b);
/// Whether a value of type `t` is or holds an object (in a list, tuple or
/// optional).
bool holds_object(Ty t);
/// Whether ppy prints a value of type `t` as Python does (else `why` says what
/// it cannot print): objects only of dataclasses whose fields hold no object,
/// no list of objects.
bool printable(Ty t, std::string* why);
/// Whether every class from `t` down prints through its own `__str__` /
/// `__repr__` or as an exception (dunder_methods.cc).
bool printable_object(Ty t);


/// Whether Python orders values of type `t` with `<`: numbers, bools, strs,
/// and lists and tuples of those (not None, so not optionals).
bool orderable(Ty t);

/// Whether a value of type `t` may be stored as an element of type `elem`: the
/// same type, or one a tuple or optional element takes (`(1, None)`, `3` for `int | None`).
bool element_fits(Ty t, Ty elem);

/// Whether a tuple or an optional may hold values of type `t`: int, float,
/// bool, str, None, objects, lists, tuples and optionals of those.
bool holdable(Ty t);

}  // namespace ppy::frontend
