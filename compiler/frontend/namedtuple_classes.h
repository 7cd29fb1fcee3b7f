#pragma once
/// `typing.NamedTuple` classes (docs/language.md, "Named tuples"), written as
/// the program's own code before the declarer runs: `class P(NamedTuple)`
/// becomes a frozen dataclass with `order=True` (its fields, defaults, repr
/// `P(x=1, y=2)`, `==` and ordering as tuples), plus `_replace(...)` and the
/// marker method `_ppy_namedtuple`; the checker reads `p[0]` as the field it
/// names and unpacks `x, y = p` field by field.

#include <string>

#include "ast.h"
#include "types.h"

namespace ppy::frontend {

/// Rewrites the NamedTuple classes of `ast` as above.
void expand_namedtuple_classes(ModuleAst& ast, const std::string& file);

/// Whether `t` is a class written from a NamedTuple.
[[nodiscard]] bool is_namedtuple_class(Ty t);

/// `p[i]` of a NamedTuple `p` with a constant `i` in range: `e` becomes the
/// attribute `p.field` (unchecked; its object already checked). False when `e`
/// is not that.
[[nodiscard]] bool namedtuple_item_as_field(Expr& e, Ty object);

/// `x, y = p` of a NamedTuple variable `p`: `v` (the Name) becomes the
/// display `(p.x, p.y)` (unchecked). False when `v` is not such a name.
[[nodiscard]] bool namedtuple_as_display(Expr& v, Ty t);

}  // namespace ppy::frontend
