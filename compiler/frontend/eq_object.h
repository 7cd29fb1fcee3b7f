#pragma once
/// `def __eq__(self, other: object) -> bool:` (issue 32), python3's idiom for
/// equality: `return isinstance(other, P) and self.x == other.x`, or
/// `if not isinstance(other, P): return NotImplemented` first. ppy has no
/// `object` type; an `__eq__` (or `__ne__`) of class P whose `other: object` is
/// tested with `isinstance(other, P)` takes `other: P` instead, the test is
/// True, and the early `return NotImplemented` (or `return False`) goes. So
/// comparing two P runs the method as python3 does; comparing a P with another
/// type is a type error at compile time (E1030), as ppy's `==` of different
/// classes is. An `other: object` without that test is left for the declarer
/// to refuse.

#include "ast.h"

namespace ppy::frontend {

/// Rewrites the `__eq__`/`__ne__` methods of `ast`'s classes as above.
void type_eq_object(ModuleAst& ast);

}  // namespace ppy::frontend
