#pragma once
/// Structured control flow recovered from a function's CFG, for backends that
/// write source meant to be read (ppy's c and python, a vendor's JavaScript):
/// `while`, `if`/`else`, `break`, `continue` and `return` in place of blocks with
/// arguments and branches, so a source-emitting backend needs no `for (;;)
/// switch (block)` dispatcher. Part of the installed SDK: target
/// `PpySdk::source` (docs/writing-a-backend.md, "Writing source").
///
/// A backend walks the `Seq` that `structure()` returns: for a Block node it
/// writes the block's operations (not the terminator), for an Edge node it
/// assigns the branch's values to the target block's arguments (all at once:
/// `a, b = b, a` may be among them), for If it writes `if (cond) {then} else
/// {else}` with `op->operand(0)` as the condition, for Loop `while (true)
/// {body}`, and Break, Continue and Return as they say (a Return's `op` is the
/// `core.ret`, whose operands are returned, or `core.unreachable`). Every block
/// argument is assigned by the Edge nodes before the block is reached, so a
/// block argument is an ordinary variable declared at the function's top.
///
/// The recovery handles reducible CFGs whose loops have at most one exit target
/// and whose branches rejoin where they post-dominate, which is every CFG the
/// frontend and the shared passes make from ppy source. Anything else (an
/// irreducible CFG, a loop leaving to two places, a jump to an outer loop, a
/// block that would have to be written twice) is reported as not structurable,
/// and the caller falls back to a block-dispatch loop or labels.

#include <optional>
#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::source {

struct Node;
/// Statements in order.
using Seq = std::vector<Node>;

/// One statement of the structured body; which fields are set depends on `kind`.
struct Node {
  enum class Kind {
    Block,     ///< the ops of `block`, its terminator excluded
    Edge,      ///< `edge`'s values assigned to its block's arguments
    If,        ///< `op` is the cond_br: `then_seq` on true, `else_seq` on false
    Loop,      ///< `while True:` over `body`; `block` is the loop header
    Break,     ///< leave the innermost loop
    Continue,  ///< back to the innermost loop's header
    Return,    ///< `op` is the core.ret or core.unreachable
  };
  Kind kind;
  const ir::Block* block = nullptr;
  const ir::Operation* op = nullptr;
  const ir::Successor* edge = nullptr;
  Seq then_seq, else_seq;
  Seq body;
};

/// The body of `f` as structured statements, or nullopt when its CFG does not
/// take that shape (see above). Every block reachable from the entry appears
/// exactly once as a Block node; unreachable blocks are left out.
std::optional<Seq> structure(const ir::Function& f);

/// The blocks of `f` reachable from its entry, in reverse post-order (the
/// order a block-dispatch fallback numbers them).
std::vector<const ir::Block*> reachable_blocks(const ir::Function& f);

}  // namespace ppy::source
