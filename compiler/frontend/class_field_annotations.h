#pragma once
/// A plain class's bare field annotations (docs/language.md, *Classes*):
///
///     class Person:
///         name: str
///         age: int
///
///         def __init__(self, name: str, age: int) -> None: ...
///
/// Python developers write them to say which fields `__init__` sets and of
/// what type; python3 keeps them only in `__annotations__` (`Person.name` is
/// an AttributeError), so ppy reads each as a field's declaration, never as a
/// class attribute. A value (`MAX: int = 10`) makes a class attribute instead
/// (a constant, declarer.cc's class_constant).

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// The field a plain class's body statement `s` declares (`name: T`, no value),
/// or null when `s` is something else.
[[nodiscard]] const std::string* bare_field_annotation(const Stmt& s);

}  // namespace ppy::frontend
