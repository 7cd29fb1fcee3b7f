#pragma once
/// Fields read before any assignment (docs/runtime.md, "Objects", *Unset
/// fields*). Python raises `AttributeError: 'Point' object has no attribute
/// 'z'` when a field is read before `__init__` (or anything else) assigned it.
/// Most fields cannot be: `__init__` assigns them at its top level before
/// `self` goes anywhere. A definite-assignment walk of each class's
/// construction finds those; every other field gets a hidden bool field (its
/// *set flag*, right after it in the declaring class's struct, so a base's
/// struct stays a prefix of its subclasses') that a write sets and a read
/// tests.

#include <string>
#include <string_view>

#include "checker.h"

namespace ppy::frontend {

/// The name of field `field`'s set flag (`__isset_<field>`: an identifier, as the C
/// backend names struct members after fields).
[[nodiscard]] std::string field_set_flag(std::string_view field);
/// Whether `name` is a set flag.
[[nodiscard]] bool is_field_set_flag(std::string_view name);

/// Adds a set flag after each field of the module's classes that some
/// object may be read through before it is assigned. Runs once the classes
/// are declared (their fields and methods known), before anything reads a
/// class's layout.
void add_field_set_flags(ModuleInfo& m);

}  // namespace ppy::frontend
