#pragma once
// Unions of types (issue 32): `int | str`, `Union[int, str]`, and with None
// `int | str | None`, which is the optional of the union (`T | None` keeps
// its one representation, types.h). A union value is the IR tuple
// `(i64 tag, alt0, alt1, ...)`: the tag is the index of the alternative it
// holds, the other slots hold zero values (docs/runtime.md, "Unions").

#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// The union of `alts` as Python means it: nested unions flattened, repeats
/// dropped, `None` making it an optional; one alternative is itself. Error
/// when an alternative is Error.
Ty union_of(std::vector<Ty> alts);
/// The interned union of distinct alternatives in Ty order (types.cc; use union_of).
Ty union_interned(const std::vector<Ty>& alts);
bool is_union(Ty t);
/// A union's alternatives in tag order (empty for anything else).
std::vector<Ty> union_alts(Ty t);
/// The tag of alternative `alt` in union `u`, or -1.
int union_tag(Ty u, Ty alt);
/// The alternative of union `u` a value of type `t` is stored as: `t`
/// itself, else the first alternative `t` is assignable to (a subclass's
/// object to its base, a bool to int); Error when none.
Ty union_slot_for(Ty u, Ty t);
/// Whether a value of type `from` may be stored where `to` is declared when
/// either is a union (assignable() of types.h asks it).
bool union_accepts(Ty to, Ty from);
/// Whether a value of type `t` may be an alternative of a union: what a
/// tuple holds, less None, callables and iterators.
bool union_member(Ty t);

/// What `isinstance(x, k)` knows of a value of static type `t` for the
/// builtin type or class `k`: the part of `t` that passes (Error when none
/// can) and the part that fails (Error when none can). For a union these are
/// the unions of the alternatives on each side; a class's subclass test is
/// `Ty::Error` on neither side when only the runtime can tell.
struct InstanceSplit {
  Ty pass = Ty::Error;
  Ty fail = Ty::Error;
  bool runtime_class_test = false;  ///< a class alternative whose subclass the runtime must test
};
InstanceSplit isinstance_split(Ty t, const std::vector<Ty>& ks);

}  // namespace ppy::frontend
