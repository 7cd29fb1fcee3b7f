#pragma once
/// `enum.Enum` and `enum.IntEnum` (docs/language.md, "Enums"), written as the
/// program's own code before the declarer runs: an enum class becomes a class
/// with the fields `name` and `value`, `__repr__` (`<Color.RED: 1>`) and
/// `__str__` (`Color.RED`; an IntEnum's value), the comparisons and arithmetic
/// of an IntEnum's value; its members are made once, after the class, in a
/// module list (`__ppy_Color_members`, definition order, aliases left out).
/// The program's uses are rewritten to calls of functions written beside it:
/// `Color.RED` (`__ppy_Color_member(0)`, the same object each time, so `is`
/// and `==` are identity), `Color(1)` (ValueError `1 is not a valid Color`),
/// `Color['RED']` (KeyError) and `Color` as a value (`for c in Color`,
/// `len(Color)`, `list(Color)`: the members in order).

#include <string>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

/// Rewrites the enum classes of `ast` (and their uses) as above; reports
/// (E1010) the members ppy does not take (a value other than an int or str
/// literal or `auto()`, or members of both kinds).
void expand_enum_classes(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags);

}  // namespace ppy::frontend
