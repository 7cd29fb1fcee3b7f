#pragma once
/// Quoted annotations (issue 32, docs/language.md "Classes"): `manager: "Employee | None"`,
/// `def f(x: "Node") -> "list[Node]"`, as programs checked by mypy write forward
/// references. Each str annotation that parses as an expression is replaced by it before
/// anything reads the module's types, so a quoted annotation means what it would unquoted.

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// Replaces every quoted annotation of `ast` (parameters, results, annotated
/// assignments and fields, and quoted parts of them: `list["Node"]`) by the expression
/// its text spells; one that does not parse is left for the checker to refuse.
void unquote_annotations(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend
