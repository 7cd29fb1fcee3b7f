#pragma once
/// `typing.Final` (docs/language.md, "Annotations"): `MAX: Final = 10`, `RATE: Final[float] = 0.5`,
/// as programs checked by mypy mark their constants. Final only tells a type checker not to
/// reassign the name; python3 runs the program as if the annotation were the type inside
/// (`Final[T]`: T) or the value's own (`Final`: an assignment without one), so each is
/// rewritten that way before anything reads the module's types.

#include "ast.h"

namespace ppy::frontend {

/// Rewrites every annotated assignment of `ast` whose annotation is `Final[T]` to one
/// annotated T, and `x: Final = v` to `x: int = v` for a literal (a dataclass field stays
/// a field) or `x = v` for any other value.
void strip_final_annotations(ModuleAst& ast);

}  // namespace ppy::frontend
