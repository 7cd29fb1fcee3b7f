// simplify-cfg: unreachable blocks, forwarding blocks, straight-line merges,
// unused and redundant block arguments.
#include <unordered_map>

#include "ir_util.h"
#include "ppy/pipeline/passes.h"

namespace ppy::pipeline {
namespace {

using ir::Block;
using ir::Operation;
using ir::Value;

bool is_br(const Operation* t) { return t && ir::core_op(*t) == ir::CoreOp::Br && t->successors().size() == 1; }

/// Every branch to a block that holds only `core.br` goes straight to its target,
/// with the forwarded arguments substituted. Skipped when the forwarding block's
/// arguments are used anywhere but its own branch.
bool thread_forwarding_blocks(ir::Region& body) {
  auto uses = count_uses(body);
  bool changed = false;
  for (auto& bp : body.blocks()) {
    Block* f = bp.get();
    if (f == body.entry() || f->operations().size() != 1 || !is_br(f->terminator())) continue;
    const ir::Successor& fwd = f->terminator()->successors()[0];
    if (fwd.block == f) continue;
    std::unordered_map<const Value*, int> own;  // uses of f's args inside the br
    for (Value* v : fwd.args) ++own[v];
    bool args_local = true;
    for (auto& a : f->arguments()) args_local &= uses[a.get()] == own[a.get()];
    if (!args_local) continue;
    for (auto& other : body.blocks()) {
      Operation* t = other->terminator();
      if (!t || other.get() == f) continue;
      for (auto& s : t->successors()) {
        if (s.block != f) continue;
        std::vector<Value*> args;
        for (Value* v : fwd.args) args.push_back(v->arg_owner() == f ? s.args[v->index()] : v);
        s = ir::Successor{fwd.block, std::move(args)};
        changed = true;
      }
    }
  }
  return changed;
}

/// Merges a block into its only predecessor when that one ends in `core.br` to it.
bool merge_into_predecessor(ir::Region& body) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    auto preds = predecessors(body);
    for (size_t i = 1; i < body.blocks().size(); ++i) {
      Block* b = body.blocks()[i].get();
      auto it = preds.find(b);
      if (it == preds.end() || it->second.size() != 1) continue;
      Block* p = it->second[0];
      if (p == b || !is_br(p->terminator())) continue;
      std::unordered_map<Value*, Value*> map;
      std::vector<Value*> passed = p->terminator()->successors()[0].args;
      for (size_t k = 0; k < b->num_arguments(); ++k) map[b->argument(k)] = passed[k];
      p->remove(p->operations().size() - 1);
      while (!b->empty()) p->append(b->remove(0));
      apply_replacements(body, map);
      body.remove_block(i);
      again = changed = true;
      break;
    }
  }
  return changed;
}

/// Drops block arguments nobody uses, and those that receive the same value
/// (or themselves) on every edge, from every non-entry block.
bool prune_block_arguments(ir::Region& body) {
  bool changed = false;
  auto preds = predecessors(body);
  auto uses = count_uses(body);
  std::unordered_map<Value*, Value*> repl;
  for (size_t bi = 1; bi < body.blocks().size(); ++bi) {
    Block* b = body.blocks()[bi].get();
    auto pit = preds.find(b);
    for (size_t k = b->num_arguments(); k-- > 0;) {
      Value* arg = b->argument(k);
      // The one value every edge passes, besides the argument itself.
      Value* same = nullptr;
      bool unique = true;
      if (pit != preds.end())
        for (Block* p : pit->second)
          for (auto& s : p->terminator()->successors()) {
            if (s.block != b || s.args.size() <= k) continue;
            Value* v = resolve(repl, s.args[k]);
            if (v == arg) continue;
            if (same && same != v) unique = false;
            same = v;
          }
      bool defined_here = same && (same->arg_owner() == b || (same->def() && same->def()->parent() == b));
      bool redundant = unique && same && !defined_here;
      if (uses[arg] > 0 && !redundant) continue;
      if (redundant) repl[arg] = same;
      if (pit != preds.end())
        for (Block* p : pit->second)
          for (auto& s : p->terminator()->successors())
            if (s.block == b && s.args.size() > k) s.args.erase(s.args.begin() + static_cast<long>(k));
      b->erase_argument(k);
      changed = true;
    }
  }
  apply_replacements(body, repl);
  return changed;
}

class SimplifyCfg : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "simplify-cfg"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override {
    if (has_nested_regions(f)) return false;
    bool changed = false;
    // Each round shrinks the CFG; the bound only guards against a cycle of
    // forwarding blocks bouncing an edge between them.
    for (int round = 0; round < 64; ++round) {
      bool again = remove_unreachable_blocks(f.body());
      again |= thread_forwarding_blocks(f.body());
      again |= remove_unreachable_blocks(f.body());
      again |= merge_into_predecessor(f.body());
      again |= prune_block_arguments(f.body());
      changed |= again;
      if (!again) break;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_simplify_cfg_pass() { return std::make_unique<SimplifyCfg>(); }

}  // namespace ppy::pipeline
