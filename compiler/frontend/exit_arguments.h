#pragma once
/// `__exit__(self, exc_type, exc, tb)` whose body tests whether the `with`
/// body raised (issue 32, docs/language.md "Classes"): `exc_type is None`,
/// `exc_type is not None`, `if exc_type:`, `not exc_type`, written before the
/// declarer runs as tests of a bool that check_with.cc passes (True from the
/// `except` path, False after the body ends). Reading `exc` or `tb`, or
/// `exc_type` otherwise, stays outside (E1010 at the `with`).

#include "ast.h"

namespace ppy::frontend {

/// The marker (in the annotation's `ival`) of an `exc_type` or `exc` rewritten as a bool.
inline constexpr int64_t kExitTypeAsBool = 0x65786974;

/// Rewrites `f` (an `__exit__` of four parameters whose body reads only
/// `exc_type` and `exc`, and only as above) and annotates its three parameters
/// as bools, `exc_type`'s and `exc`'s with the marker; false otherwise.
bool exit_type_as_bool(FuncDef& f);

}  // namespace ppy::frontend
