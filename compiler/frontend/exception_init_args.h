#pragma once
/// Faster raising (issue 32): an exception class's constructor fills the hidden
/// `__str` / `__args` fields from its own arguments (BaseException.__new__),
/// then runs `__init__`. When that `__init__` begins with
/// `super().__init__(...)` of the builtin root, whose arguments do not read
/// `self`, the refill overwrites them before anything can see them: the first
/// fill (reprs of every argument, their text) is skipped.

#include "ast.h"

namespace ppy::frontend {

/// Whether `init` (an exception class's `__init__`, `self` its first
/// parameter) starts with `super().__init__(...)` naming BaseException's own
/// (`kBaseExceptionInit`) with arguments that never name `self`.
[[nodiscard]] bool init_refills_args_first(const FuncDef& init);

}  // namespace ppy::frontend
