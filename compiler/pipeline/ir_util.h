#pragma once
// Helpers the shared passes have in common (private to ppy_pipeline).

#include <unordered_map>
#include <unordered_set>
#include <vector>

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
