#pragma once
/// Structured control flow recovered from a function's CFG, for backends that
/// write source meant to be read (c, python): `while`, `if`/`else`, `break`,
/// `continue` and `return` in place of blocks and branches.
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

namespace ppy::backends::source {

struct Node;
/// Statements in order.
using Seq = std::vector<Node>;

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

}  // namespace ppy::backends::source
