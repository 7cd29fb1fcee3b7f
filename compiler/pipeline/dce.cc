// dce: pure ops nobody uses, loads nobody reads, stack slots only written.
#include <unordered_set>

#include "ir_util.h"
#include "ppy/pipeline/passes.h"

namespace ppy::pipeline {
namespace {

bool is_alloca(const ir::Value* v) { return v->def() && ir::core_op(*v->def()) == ir::CoreOp::Alloca; }

/// Unused loads from stack slots: a load of an alloca cannot fault.
bool erase_dead_loads(ir::Function& f) {
  auto uses = count_uses(f.body());
  bool changed = false;
  for (auto& b : f.body().blocks()) {
    auto& ops = b->operations();
    for (size_t i = ops.size(); i-- > 0;) {
      ir::Operation& op = *ops[i];
      if (ir::core_op(op) == ir::CoreOp::Load && uses[op.result()] == 0 && is_alloca(op.operand(0))) {
        b->remove(i);
        changed = true;
      }
    }
  }
  return changed;
}

/// Allocas whose every use is the address of a store: nothing reads them.
bool erase_write_only_slots(ir::Function& f) {
  std::unordered_set<const ir::Value*> read;  // slots used any other way
  ir::walk(f.body(), [&](const ir::Operation& op) {
    for (size_t i = 0; i < op.num_operands(); ++i)
      if (!(ir::core_op(op) == ir::CoreOp::Store && i == 1)) read.insert(op.operand(i));
    for (auto& s : op.successors()) read.insert(s.args.begin(), s.args.end());
  });
  bool changed = false;
  for (auto& b : f.body().blocks()) {
    auto& ops = b->operations();
    for (size_t i = ops.size(); i-- > 0;) {
      ir::Operation& op = *ops[i];
      const ir::CoreOp kind = ir::core_op(op);
      bool dead_store = kind == ir::CoreOp::Store && is_alloca(op.operand(1)) && !read.count(op.operand(1));
      bool dead_slot = kind == ir::CoreOp::Alloca && !read.count(op.result());
      if (dead_store || dead_slot) {
        b->remove(i);
        changed = true;
      }
    }
  }
  return changed;
}

class DeadCodeElimination : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "dce"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override {
    if (has_nested_regions(f)) return erase_dead_ops(f, *ctx.registry);
    bool changed = false;
    for (bool again = true; again;) {
      again = erase_dead_ops(f, *ctx.registry);
      again |= erase_dead_loads(f);
      again |= erase_write_only_slots(f);
      changed |= again;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_dce_pass() { return std::make_unique<DeadCodeElimination>(); }

}  // namespace ppy::pipeline
