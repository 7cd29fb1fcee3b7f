// mem2reg: stack slots used only by load/store become SSA values, carried
// between blocks by block arguments (pruned SSA: an argument only where the
// variable is live, placed on the iterated dominance frontier of its stores).
#include <unordered_map>

#include "ir_util.h"
#include "ppy/pipeline/builder.h"
#include "ppy/pipeline/passes.h"
#include "ppy/util/str_cat.h"

namespace ppy::pipeline {
namespace {

using ir::Block;
using ir::Operation;
using ir::Value;

/// The promotable slots: single-element allocas used only as load/store addresses.
std::vector<Operation*> promotable_slots(ir::Function& f) {
  std::unordered_map<const Value*, Operation*> slots;
  std::vector<Operation*> order;
  for (auto& b : f.body().blocks())
    for (auto& op : b->operations()) {
      const ir::Attribute* count = op->attr("count");
      if (ir::core_op(*op) == ir::CoreOp::Alloca && (!count || (count->is<int64_t>() && count->as_int() == 1)) &&
          op->result()->type().is_ptr()) {
        slots[op->result()] = op.get();
        order.push_back(op.get());
      }
    }
  std::unordered_map<const Operation*, bool> ok;
  for (Operation* a : order) ok[a] = true;
  ir::walk(f.body(), [&](const Operation& op) {
    for (size_t i = 0; i < op.num_operands(); ++i) {
      auto it = slots.find(op.operand(i));
      if (it == slots.end()) continue;
      ir::Type elem = it->second->result()->type().elem();
      const ir::CoreOp kind = ir::core_op(op);
      bool load = kind == ir::CoreOp::Load && i == 0 && op.result()->type() == elem;
      bool store = kind == ir::CoreOp::Store && i == 1 && op.operand(0)->type() == elem;
      if (!load && !store) ok[it->second] = false;
    }
    for (auto& s : op.successors())
      for (const Value* v : s.args)
        if (auto it = slots.find(v); it != slots.end()) ok[it->second] = false;
  });
  std::vector<Operation*> out;
  for (Operation* a : order)
    if (ok[a]) out.push_back(a);
  return out;
}

/// The constant standing for a variable read before any write, or null when
/// the type has none (the slot is then left in memory).
ir::Attribute undef_of(ir::Type t, bool& has) {
  has = true;
  if (t.is_float()) return ir::Attribute(0.0);
  if (t.is_bool()) return ir::Attribute(false);
  if (t.is_integer_like()) return ir::Attribute(int64_t{0});
  has = false;
  return {};
}

class Mem2Reg : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "mem2reg"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override {
    if (has_nested_regions(f) || predecessors(f.body()).count(f.body().entry())) return false;
    bool changed = remove_unreachable_blocks(f.body());
    std::vector<Operation*> slots = promotable_slots(f);
    if (slots.empty()) return changed;
    Cfg cfg(f.body());
    size_t nb = cfg.blocks.size();

    // Per variable: the blocks that store it and those that read it first.
    std::unordered_map<const Value*, int> var;
    for (size_t v = 0; v < slots.size(); ++v) var[slots[v]->result()] = static_cast<int>(v);
    size_t nv = slots.size();
    std::vector<std::vector<char>> stores(nv, std::vector<char>(nb)), exposed(nv, std::vector<char>(nb));
    for (size_t b = 0; b < nb; ++b) {
      std::vector<char> stored(nv);
      for (auto& op : cfg.blocks[b]->operations()) {
        const ir::CoreOp kind = ir::core_op(*op);
        if (kind == ir::CoreOp::Load) {
          if (auto it = var.find(op->operand(0)); it != var.end() && !stored[it->second]) exposed[it->second][b] = 1;
        } else if (kind == ir::CoreOp::Store) {
          if (auto it = var.find(op->operand(1)); it != var.end()) stored[it->second] = stores[it->second][b] = 1;
        }
      }
    }

    // Liveness, argument placement, and whether a read may precede every write.
    std::vector<std::vector<char>> live(nv), arg_at(nv);
    std::vector<char> promoted(nv, 1);
    std::vector<Value*> undef(nv, nullptr);
    Builder at_entry(cfg.blocks[0], 0);
    for (size_t v = 0; v < nv; ++v) {
      live[v] = exposed[v];
      std::vector<int> work;
      for (size_t b = 0; b < nb; ++b)
        if (live[v][b]) work.push_back(static_cast<int>(b));
      while (!work.empty()) {
        int b = work.back();
        work.pop_back();
        for (int p : cfg.preds[b])
          if (!live[v][p] && !stores[v][p]) {
            live[v][p] = 1;
            work.push_back(p);
          }
      }
      ir::Type elem = slots[v]->result()->type().elem();
      if (live[v][0]) {
        bool has = false;
        ir::Attribute zero = undef_of(elem, has);
        if (!has) {
          promoted[v] = 0;
          continue;
        }
        at_entry.set_loc(slots[v]->loc());
        undef[v] = at_entry.op("core.const", {}, elem, ir::AttrDict{{"value", zero}});
      }
      std::vector<char> placed(nb);
      arg_at[v].assign(nb, 0);
      work.clear();
      for (size_t b = 0; b < nb; ++b)
        if (stores[v][b]) work.push_back(static_cast<int>(b));
      while (!work.empty()) {
        int b = work.back();
        work.pop_back();
        for (int y : cfg.frontier[b]) {
          if (placed[y]) continue;
          placed[y] = 1;
          if (live[v][y]) arg_at[v][y] = 1;
          if (!stores[v][y]) work.push_back(y);
        }
      }
    }

    // Block arguments, in variable order.
    std::vector<std::vector<std::pair<int, Value*>>> args(nb);
    for (size_t b = 0; b < nb; ++b)
      for (size_t v = 0; v < nv; ++v)
        if (promoted[v] && arg_at[v][b]) {
          const std::string& hint = slots[v]->result()->hint();
          args[b].push_back({static_cast<int>(v), cfg.blocks[b]->add_argument(slots[v]->result()->type().elem(), hint)});
        }

    // Renaming, in reverse post-order: a block starts from its idom's end state.
    std::vector<std::vector<Value*>> end(nb);
    std::unordered_map<Value*, Value*> repl;
    for (size_t b = 0; b < nb; ++b) {
      std::vector<Value*> cur = b == 0 ? undef : end[cfg.idom[b]];
      for (auto& [v, a] : args[b]) cur[v] = a;
      auto& ops = cfg.blocks[b]->operations();
      for (size_t i = 0; i < ops.size(); ++i) {
        Operation& op = *ops[i];
        for (auto& o : op.operands()) o = resolve(repl, o);
        int v = -1;
        const ir::CoreOp kind = ir::core_op(op);
        if (kind == ir::CoreOp::Load || kind == ir::CoreOp::Store) {
          auto it = var.find(op.operand(kind == ir::CoreOp::Load ? 0 : 1));
          if (it != var.end() && promoted[it->second]) v = it->second;
        }
        if (v < 0) continue;
        if (kind == ir::CoreOp::Store) {
          cur[v] = op.operand(0);
        } else {
          if (!cur[v]) return absl::InternalError(ppy::str_cat("mem2reg: no value for a read in @", f.name()));
          repl[op.result()] = cur[v];
        }
        cfg.blocks[b]->remove(i--);
      }
      end[b] = std::move(cur);
    }
    for (size_t b = 0; b < nb; ++b)
      for (auto& s : cfg.blocks[b]->terminator()->successors())
        for (auto& [v, a] : args[cfg.id.at(s.block)]) {
          Value* val = end[b][v];
          if (!val) return absl::InternalError(ppy::str_cat("mem2reg: no value on an edge in @", f.name()));
          s.args.push_back(val);
        }
    apply_replacements(f.body(), repl);
    for (size_t v = 0; v < nv; ++v)
      if (promoted[v]) {
        Block* b = slots[v]->parent();
        auto& ops = b->operations();
        for (size_t i = 0; i < ops.size(); ++i)
          if (ops[i].get() == slots[v]) {
            b->remove(i);
            break;
          }
      }
    return true;
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_mem2reg_pass() { return std::make_unique<Mem2Reg>(); }

}  // namespace ppy::pipeline
