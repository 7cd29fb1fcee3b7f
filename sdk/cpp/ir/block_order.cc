// Reverse post-order of a region's blocks (ppy/ir/block_order.h).
#include "ppy/ir/block_order.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace ppy::ir {

std::vector<const Block*> reverse_post_order(const Region& region) {
  std::vector<const Block*> order;
  const Block* entry = region.entry();
  if (!entry) return order;
  std::unordered_set<const Block*> seen{entry};
  std::vector<std::pair<const Block*, size_t>> stack{{entry, 0}};
  while (!stack.empty()) {
    auto& [blk, next] = stack.back();
    const Operation* t = blk->terminator();
    if (t && next < t->successors().size()) {
      const Block* s = t->successors()[next++].block;
      if (s && seen.insert(s).second) stack.push_back({s, 0});
      continue;
    }
    order.push_back(blk);
    stack.pop_back();
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace ppy::ir
