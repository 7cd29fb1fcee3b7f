#pragma once
// A tuple whose elements share one type, where Python iterates it (`for d in
// DIRECTIONS`, `x in LEVELS`, `enumerate(t)`, `sorted(t)`, `max(t)`, `t[i]`): walked
// as the list display of its elements, `[t[0], t[1], ...]`, which every road runs.

#include "ast.h"

namespace ppy::frontend::checking {

/// Rewrites `e`, a checked expression of type `t`, into the unchecked list
/// display of its elements when `t` is a non-empty tuple of one element type
/// and `e` reads a variable (a name, or attributes of one), so repeating it has
/// no effect; the caller checks `e` again. False, leaving `e`, otherwise.
bool tuple_as_list(Expr& e, Ty t);

/// Whether `e` reads a variable (a name, or attributes of one): naming it again
/// means what evaluating it once means.
bool reads_a_variable(const Expr& e);

/// Whether `ix`, a subscript's index, is neither a literal int (`t[0]`, `t[-1]`), whose
/// element type the checker reads off the tuple, nor a slice or a tuple.
bool computed_index(const Expr& ix);

}  // namespace ppy::frontend::checking
