#pragma once
/// The order in which a backend walks a function's blocks: one place, so the
/// LLVM lowering and the C writer's traceback lines agree on it.

#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::ir {

/// The blocks of `region` reachable from its entry, in reverse post-order:
/// a block comes after every block that dominates it, so a value is seen
/// before its uses and an op's predecessor in the order ran before it.
/// Iterative, as a function may have tens of thousands of blocks.
[[nodiscard]] std::vector<const Block*> reverse_post_order(const Region& region);

}  // namespace ppy::ir
