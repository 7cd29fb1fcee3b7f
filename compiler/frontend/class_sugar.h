#pragma once
/// The classes the standard library makes for a program, written as the
/// program's own before the declarer runs: enum.Enum / enum.IntEnum
/// (enum_classes.h), typing.NamedTuple (namedtuple_classes.h) and
/// `@dataclass(order=True)`'s comparisons (dataclass_options.h).

#include <string>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

void expand_class_sugar(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags);

}  // namespace ppy::frontend
