#pragma once
// Helpers the shared passes have in common (private to ppy_pipeline).

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::pipeline {

/// Uses of each value under `region` (operands and successor arguments).
std::unordered_map<const ir::Value*, int> count_uses(const ir::Region& region);

/// Whether the op's spec says it has no effect beyond its results.
bool is_pure(const ir::Operation& op, const ir::DialectRegistry& reg);

/// The `value` attribute of a core.const defining `v`, or null.
const ir::Attribute* const_value(const ir::Value* v);

/// Blocks reachable from the entry, in reverse post-order.
std::vector<ir::Block*> reverse_post_order(ir::Region& region);

/// Predecessor blocks, one entry per edge (a cond_br to one block twice counts twice).
std::unordered_map<const ir::Block*, std::vector<ir::Block*>> predecessors(ir::Region& region);

/// Removes blocks the entry cannot reach; returns whether any went.
bool remove_unreachable_blocks(ir::Region& region);

/// Rewrites every operand and successor argument under `region` through `map`
/// (following chains: a value mapped to a mapped value ends at the last).
void apply_replacements(ir::Region& region, const std::unordered_map<ir::Value*, ir::Value*>& map);

/// Follows `map` from `v` to the final replacement.
ir::Value* resolve(const std::unordered_map<ir::Value*, ir::Value*>& map, ir::Value* v);

/// Whether any op of the function owns a nested region (the passes here only
/// transform flat bodies, which is all core lowering writes).
bool has_nested_regions(const ir::Function& f);

/// The number of ops in the function's body.
size_t op_count(const ir::Function& f);

/// A label not yet used in `region`, built from `base`.
std::string fresh_label(const ir::Region& region, std::string_view base);

}  // namespace ppy::pipeline

namespace ppy::pipeline {
/// Erases pure ops whose results nobody uses, to a fixed point; returns
/// whether any went.
bool erase_dead_ops(ir::Function& f, const ir::DialectRegistry& reg);
}  // namespace ppy::pipeline

namespace ppy::pipeline {

/// The CFG of the reachable blocks, numbered in reverse post-order.
struct Cfg {
  /// Children in the dominator tree, by block number.
  std::vector<std::vector<int>> children;
  std::vector<ir::Block*> blocks;
  std::unordered_map<const ir::Block*, int> id;
  std::vector<std::vector<int>> preds;
  std::vector<int> idom;
  std::vector<std::vector<int>> frontier;

  explicit Cfg(ir::Region& body) {
    blocks = reverse_post_order(body);
    for (size_t i = 0; i < blocks.size(); ++i) id[blocks[i]] = static_cast<int>(i);
    preds.resize(blocks.size());
    for (size_t i = 0; i < blocks.size(); ++i)
      if (ir::Operation* t = blocks[i]->terminator())
        for (auto& s : t->successors()) preds[id.at(s.block)].push_back(static_cast<int>(i));
    dominators();
    frontiers();
    children.assign(blocks.size(), {});
    for (size_t b = 1; b < blocks.size(); ++b)
      if (idom[b] >= 0) children[idom[b]].push_back(static_cast<int>(b));
  }

  // Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm".
  void dominators() {
    idom.assign(blocks.size(), -1);
    idom[0] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 1; b < blocks.size(); ++b) {
        int nd = -1;
        for (int p : preds[b]) {
          if (idom[p] < 0) continue;
          nd = nd < 0 ? p : intersect(p, nd);
        }
        if (nd != idom[b]) {
          idom[b] = nd;
          changed = true;
        }
      }
    }
  }
  int intersect(int a, int b) const {
    while (a != b) {
      while (a > b) a = idom[a];
      while (b > a) b = idom[b];
    }
    return a;
  }
  void frontiers() {
    frontier.assign(blocks.size(), {});
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (preds[b].size() < 2) continue;
      for (int p : preds[b])
        for (int r = p; r != idom[b]; r = idom[r]) {
          auto& f = frontier[r];
          if (f.empty() || f.back() != static_cast<int>(b)) f.push_back(static_cast<int>(b));
          if (r == 0) break;
        }
    }
  }
};

}  // namespace ppy::pipeline
