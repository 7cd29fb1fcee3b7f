#pragma once
/// Which ops an exception can come out of from code they call (tracebacks,
/// docs/runtime.md): where a frame's line must be current before the op
/// runs. One answer for every road that keeps frames (LLVM, C).

#include "ppy/ir/ir.h"

namespace ppy::runtime {

/// True for a call of a function of the program or of a function value, and
/// for a call of a runtime function whose ABI entry says it may raise or never
/// returns (or that the table does not know); false for every other op (a
/// guard raises from its own failing edge, not through a callee).
[[nodiscard]] bool exception_may_come_through(const ir::Operation& op);

/// Whether a source backend may write the value `def` makes inside the op
/// `user` and keep tracebacks' lines: not when an exception may come through
/// `def` and `user` is on another line (`left = obj.f()` then `return left`)
/// or in another comprehension's frame (`sum(f(x) for x in xs)`'s addition),
/// as the one line a statement writes (C) or maps to (Python) is `user`'s.
[[nodiscard]] bool inlining_keeps_line(const ir::Operation& def, const ir::Operation& user);

}  // namespace ppy::runtime
