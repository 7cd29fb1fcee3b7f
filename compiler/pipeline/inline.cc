// inline: small non-recursive calls of functions defined in the module that
// have no traceback frame of their own are replaced by a copy of the callee's
// body, at the call's location. The caller's block is split at the
// call; the copy's `core.ret`s branch to the continuation, whose arguments
// are the call's results.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir_util.h"
#include "ppy/ir/trace.h"
#include "ppy/pipeline/passes.h"

namespace ppy::pipeline {
namespace {

using ir::Block;
using ir::Function;
using ir::Operation;
using ir::Value;

const ir::SymbolRef* callee_of(const Operation& op) {
  if (ir::core_op(op) != ir::CoreOp::Call) return nullptr;
  const ir::Attribute* c = op.attr("callee");
  return c && c->is<ir::SymbolRef>() ? &c->as_symbol() : nullptr;
}

/// Functions that can reach themselves through calls.
std::unordered_set<const Function*> recursive_functions(const ir::Module& m) {
  std::unordered_map<std::string, const Function*> by_name;
  for (auto& f : m.functions()) by_name[f->name()] = f.get();
  std::unordered_map<const Function*, std::vector<const Function*>> calls;
  for (auto& f : m.functions())
    ir::walk(f->body(), [&](const Operation& op) {
      if (const ir::SymbolRef* c = callee_of(op))
        if (auto it = by_name.find(c->name); it != by_name.end()) calls[f.get()].push_back(it->second);
    });
  std::unordered_set<const Function*> out;
  for (auto& f : m.functions()) {
    std::unordered_set<const Function*> seen;
    std::vector<const Function*> work = calls[f.get()];
    while (!work.empty()) {
      const Function* g = work.back();
      work.pop_back();
      if (g == f.get()) {
        out.insert(g);
        break;
      }
      if (!seen.insert(g).second) continue;
      for (const Function* h : calls[g]) work.push_back(h);
    }
  }
  return out;
}

/// Moves the blocks appended to `body` from `first` on to just after position `after`.
void move_appended_blocks(ir::Region& body, size_t first, size_t after) {
  auto& bs = body.blocks();
  std::rotate(bs.begin() + static_cast<long>(after) + 1, bs.begin() + static_cast<long>(first), bs.end());
}

/// Inlines the call at `block->operations()[pos]` to `callee`.
void inline_call(Function& caller, Block* block, size_t pos, const Function& callee) {
  ir::Region& body = caller.body();
  size_t block_index = 0;
  while (body.blocks()[block_index].get() != block) ++block_index;
  size_t first_new = body.blocks().size();
  std::unique_ptr<Operation> call = block->remove(pos);

  // The copy of the callee's blocks.
  std::unordered_map<const Value*, Value*> values;
  std::unordered_map<const Block*, Block*> blocks;
  for (auto& cb : callee.body().blocks()) {
    Block* nb = body.add_block(fresh_label(body, callee.name() + "." + cb->label()));
    blocks[cb.get()] = nb;
    for (size_t k = 0; k < cb->num_arguments(); ++k)
      values[cb->argument(k)] = cb.get() == callee.body().entry() ? call->operand(k)
                                : nb->add_argument(cb->argument(k)->type(), cb->argument(k)->hint());
  }
  // The continuation: the rest of the block, the call's results as arguments.
  // `^b.cont`, `^b.cont.1`, ... for every split of b, not `^b.cont.cont`.
  std::string base = block->label().substr(0, block->label().find(".cont"));
  Block* cont = body.add_block(fresh_label(body, base + ".cont"));
  std::unordered_map<Value*, Value*> results;
  for (size_t k = 0; k < call->num_results(); ++k)
    results[call->result(k)] = cont->add_argument(call->result(k)->type(), call->result(k)->hint());
  while (block->operations().size() > pos) cont->append(block->remove(pos));

  std::vector<std::pair<const Operation*, Operation*>> made;
  for (auto& cb : callee.body().blocks())
    for (auto& op : cb->operations()) {
      bool ret = ir::core_op(*op) == ir::CoreOp::Ret;
      std::vector<ir::Type> types;
      for (auto& r : op->results()) types.push_back(r.type());
      // The copy is at the call's place: the IR's `loc` has no inlined-at, and the
      // callee has no frame (it cannot raise), so its lines are the caller's line
      // (a traceback's line for an op without a `loc` after it is the one before).
      ir::AttrDict attrs = ret ? ir::AttrDict{} : op->attributes();
      // Its comprehension frame (ppy/ir/trace.h) is the call's too: the callee's numbers name its own table.
      (void)attrs.take("ppy.comp");
      if (const ir::Attribute* k = call->attributes().get("ppy.comp")) attrs.set("ppy.comp", *k);
      auto copy = Operation::create(ret ? "core.br" : op->name(), {}, types, std::move(attrs), call->loc());
      for (size_t k = 0; k < op->num_results(); ++k) {
        copy->result(k)->set_hint(op->result(k)->hint());
        values[op->result(k)] = copy->result(k);
      }
      made.emplace_back(op.get(), blocks[cb.get()]->append(std::move(copy)));
    }
  auto map = [&](Value* v) {
    auto it = values.find(v);
    return it == values.end() ? v : it->second;
  };
  for (auto& [old, copy] : made) {
    if (ir::core_op(*old) == ir::CoreOp::Ret) {
      ir::Successor s{cont, {}};
      for (Value* v : old->operands()) s.args.push_back(map(v));
      copy->successors().push_back(std::move(s));
      continue;
    }
    for (Value* v : old->operands()) copy->operands().push_back(map(v));
    for (auto& s : old->successors()) {
      ir::Successor ns{blocks.at(s.block), {}};
      for (Value* v : s.args) ns.args.push_back(map(v));
      copy->successors().push_back(std::move(ns));
    }
  }
  ir::AttrDict at_call;
  if (const ir::Attribute* k = call->attributes().get("ppy.comp")) at_call.set("ppy.comp", *k);
  auto br = Operation::create("core.br", {}, {}, std::move(at_call), call->loc());
  br->successors().push_back({blocks.at(callee.body().entry()), {}});
  block->append(std::move(br));
  apply_replacements(body, results);
  move_appended_blocks(body, first_new, block_index);
}

class Inliner : public ir::ModulePass {
 public:
  explicit Inliner(InlineOptions options) : options_(options) {}
  std::string_view name() const override { return "inline"; }

  absl::StatusOr<bool> run_on_module(ir::Module& m, const ir::PassContext& ctx) override {
    auto recursive = recursive_functions(m);
    std::unordered_map<std::string, const Function*> by_name;
    for (auto& f : m.functions()) by_name[f->name()] = f.get();
    bool changed = false;
    for (auto& fp : m.functions()) {
      Function& f = *fp;
      if (f.is_declaration() || has_nested_regions(f) || opt_level_zero(f)) continue;
      size_t size = op_count(f);
      // Scan block by block; an inlined body is scanned in its turn, so its
      // own small calls are inlined too (no recursion: cycles are excluded).
      for (size_t bi = 0; bi < f.body().blocks().size() && size < options_.max_caller_ops; ++bi) {
        Block* b = f.body().blocks()[bi].get();
        for (size_t i = 0; i < b->operations().size(); ++i) {
          const Function* callee = inlinable(*b->operations()[i], f, by_name, recursive);
          if (!callee) continue;
          inline_call(f, b, i, *callee);
          size += op_count(*callee);
          changed = true;
          break;  // the rest of b moved to its continuation, scanned later
        }
      }
    }
    return changed;
  }

 private:
  const Function* inlinable(const Operation& op, const Function& caller,
                            const std::unordered_map<std::string, const Function*>& by_name,
                            const std::unordered_set<const Function*>& recursive) const {
    const ir::SymbolRef* c = callee_of(op);
    if (!c) return nullptr;
    if (const ir::Attribute* cs = op.attr("capture_status"); cs && !(cs->is<bool>() && !cs->as_bool())) return nullptr;
    auto it = by_name.find(c->name);
    if (it == by_name.end()) return nullptr;
    const Function* g = it->second;
    if (g == &caller || g->is_declaration() || recursive.count(g) || has_nested_regions(*g) || opt_level_zero(*g) ||
        owns_frame(*g))
      return nullptr;
    if (g->params().size() != op.num_operands() || g->results().size() != op.num_results()) return nullptr;
    if (op_count(*g) > options_.max_callee_ops) return nullptr;
    return g;
  }

  /// A function with a traceback frame of its own (one that may raise) stays a
  /// call here, so every road shows its frame at every level (issue 34); the
  /// LLVM road's inliner may still inline it, keeping its frame's link and lines.
  /// A plugin's stub (its locations name a `.pyi`) is glue and inlined as ever:
  /// the plugin's own passes look for the native calls it makes (a fused
  /// `axpy` then `norm`), and python3 would show the library's frame, not it.
  static bool owns_frame(const Function& f) {
    if (ir::trace_role(f) != ir::TraceRole::kOwns) return false;
    std::string file = ir::trace_file(f);
    return file.size() < 4 || file.compare(file.size() - 4, 4, ".pyi") != 0;
  }

  /// `@ppy.opt(0)` (`ppy.opt_level = 0`): the function stays a function of its
  /// own, neither inlined nor inlining, so a backend can leave it unoptimized.
  static bool opt_level_zero(const Function& f) {
    const ir::Attribute* o = f.attributes().get("ppy.opt_level");
    return o && o->is<int64_t>() && o->as_int() == 0;
  }

  InlineOptions options_;
};

}  // namespace

std::unique_ptr<ir::Pass> create_inline_pass(InlineOptions options) { return std::make_unique<Inliner>(options); }

}  // namespace ppy::pipeline
