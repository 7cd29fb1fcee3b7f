#pragma once
// Module variables that functions read or write (`global`): a mutable IR
// global each, assigned by the module's code before any function runs
// (docs/language.md, "Module variables").

#include "ast.h"

namespace ppy::frontend {

/// Whether functions may use a module variable of type `t`: int, float, bool,
/// str, a list, dict or set, or a tuple of these whose elements are all one
/// machine word wide (no bool beside a str or a container) or all scalars.
bool module_var_type(Ty t);

/// How many machine words of a module variable of type `t` the collector must
/// scan: 1 for a str or a container, a tuple's width when it holds one, else 0
/// (nothing the collector traces). A JIT's globals are not scanned otherwise.
int rooted_words(Ty t);

}  // namespace ppy::frontend
