#pragma once
/// Class type ids unique across a project (issue 32): `isinstance`, method
/// dispatch and `except` compare an object's `__tid` with constants, so two
/// modules' classes must never share an id, even when both are named alike.
/// The entry module numbers its classes from 1 (as a program of one module
/// always has); any other module from a base drawn from its own name. A
/// module's ids then depend on nothing but its name and source, which its
/// artifact's cache key already covers: a change elsewhere cannot leave a
/// cached module with ids that collide.

#include <cstdint>
#include <string>

#include "types.h"

namespace ppy::frontend {

/// Each module may number up to 2^20 classes from its first id.
inline constexpr int kClassIdBits = 20;

/// The first class id of module `name`: 1 for the entry, else 1 past a base
/// of `(1 + (FNV-1a(name) mod 2^40)) << kClassIdBits` (never 0, below 2^61).
[[nodiscard]] int64_t first_class_id(const std::string& name, bool is_entry);

/// The name an exception of class `c` goes by where names are compared or
/// shown (its `__classes`, an `except` that names it, an uncaught one's
/// report): `Name` for a class of the entry module, `module.Name` for any
/// other, as python3 reports a class outside `__main__`. Two modules' classes
/// of one name stay apart.
[[nodiscard]] std::string exception_class_name(const ClassInfo& c);

}  // namespace ppy::frontend
