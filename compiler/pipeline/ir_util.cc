#include "ir_util.h"

#include <functional>

#include "ppy/util/str_cat.h"

namespace ppy::pipeline {

std::unordered_map<const ir::Value*, int> count_uses(const ir::Region& region) {
  std::unordered_map<const ir::Value*, int> uses;
  ir::walk(region, [&](const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) ++uses[v];
    for (auto& s : op.successors())
      for (const ir::Value* v : s.args) ++uses[v];
  });
  return uses;
}

bool is_pure(const ir::Operation& op, const ir::DialectRegistry& reg) {
  const ir::OpSpec* spec = reg.op(op.name());
  return spec && spec->pure && !spec->terminator;
}

const ir::Attribute* const_value(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d ? ir::const_value(*d) : nullptr;
}

std::vector<ir::Block*> reverse_post_order(ir::Region& region) {
  std::vector<ir::Block*> order;
  if (region.empty()) return order;
  std::unordered_set<ir::Block*> seen;
  // Iterative DFS: (block, next successor index).
  std::vector<std::pair<ir::Block*, size_t>> stack{{region.entry(), 0}};
  seen.insert(region.entry());
  while (!stack.empty()) {
    auto& [b, i] = stack.back();
    ir::Operation* t = b->terminator();
    if (t && i < t->successors().size()) {
      ir::Block* s = t->successors()[i++].block;
      if (s && s->parent() == &region && seen.insert(s).second) stack.push_back({s, 0});
      continue;
    }
    order.push_back(b);
    stack.pop_back();
  }
  return {order.rbegin(), order.rend()};
}

std::unordered_map<const ir::Block*, std::vector<ir::Block*>> predecessors(ir::Region& region) {
  std::unordered_map<const ir::Block*, std::vector<ir::Block*>> preds;
  for (auto& b : region.blocks())
    if (ir::Operation* t = b->terminator())
      for (auto& s : t->successors()) preds[s.block].push_back(b.get());
  return preds;
}

bool remove_unreachable_blocks(ir::Region& region) {
  std::vector<ir::Block*> live = reverse_post_order(region);
  if (live.size() == region.blocks().size()) return false;
  std::unordered_set<ir::Block*> keep(live.begin(), live.end());
  auto& blocks = region.blocks();
  // Unreachable blocks may use each other's values; dropping them together is safe
  // because no reachable block can use a value an unreachable one defines.
  std::vector<std::unique_ptr<ir::Block>> dead;
  for (size_t i = blocks.size(); i-- > 0;)
    if (!keep.count(blocks[i].get())) dead.push_back(region.remove_block(i));
  return true;
}

ir::Value* resolve(const std::unordered_map<ir::Value*, ir::Value*>& map, ir::Value* v) {
  for (auto it = map.find(v); it != map.end(); it = map.find(v)) v = it->second;
  return v;
}

void apply_replacements(ir::Region& region, const std::unordered_map<ir::Value*, ir::Value*>& map) {
  if (map.empty()) return;
  ir::walk(region, [&](ir::Operation& op) {
    for (auto& v : op.operands()) v = resolve(map, v);
    for (auto& s : op.successors())
      for (auto& v : s.args) v = resolve(map, v);
  });
}

bool has_nested_regions(const ir::Function& f) {
  for (auto& b : f.body().blocks())
    for (auto& op : b->operations())
      if (!op->regions().empty()) return true;
  return false;
}

size_t op_count(const ir::Function& f) {
  size_t n = 0;
  ir::walk(f.body(), [&](const ir::Operation&) { ++n; });
  return n;
}

std::string fresh_label(const ir::Region& region, std::string_view base) {
  std::unordered_set<std::string> used;
  for (auto& b : region.blocks()) used.insert(b->label());
  if (!used.count(std::string(base))) return std::string(base);
  for (int i = 1;; ++i) {
    std::string l = ppy::str_cat(base, ".", i);
    if (!used.count(l)) return l;
  }
}

}  // namespace ppy::pipeline

namespace ppy::pipeline {

bool erase_dead_ops(ir::Function& f, const ir::DialectRegistry& reg) {
  auto uses = count_uses(f.body());
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (auto& b : f.body().blocks()) {
      auto& ops = b->operations();
      for (size_t i = ops.size(); i-- > 0;) {
        ir::Operation& op = *ops[i];
        if (!is_pure(op, reg) || !op.regions().empty()) continue;
        bool used = false;
        for (auto& r : op.results()) used |= uses[&r] > 0;
        if (used) continue;
        for (ir::Value* v : op.operands()) --uses[v];
        b->remove(i);
        again = changed = true;
      }
    }
  }
  return changed;
}

}  // namespace ppy::pipeline
