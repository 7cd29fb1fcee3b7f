// cse: a pure op computing what a dominating op already computed (same name,
// operands, attributes and result types) is replaced by that op's results.
#include <unordered_map>

#include "ir_util.h"
#include "ppy/pipeline/passes.h"
#include "ppy/util/str_cat.h"

namespace ppy::pipeline {
namespace {

using ir::Operation;
using ir::Value;

/// What must be equal, besides the attributes, for two ops to be one.
std::string key_of(const Operation& op) {
  std::string key = op.name();
  for (const Value* v : op.operands()) ppy::str_append(key, "|", reinterpret_cast<uintptr_t>(v));
  for (auto& r : op.results()) ppy::str_append(key, ":", r.type().str());
  return key;
}

class CommonSubexpressions : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "cse"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override {
    if (has_nested_regions(f)) return false;
    Cfg cfg(f.body());
    std::unordered_map<std::string, std::vector<Operation*>> table;
    std::unordered_map<Value*, Value*> repl;
    bool changed = false;
    // Preorder over the dominator tree; each block's entries leave with it.
    std::vector<std::pair<int, size_t>> stack{{0, 0}};
    std::vector<std::vector<std::string>> added(cfg.blocks.size());
    while (!stack.empty()) {
      auto [b, next] = stack.back();
      if (next == 0) visit(*cfg.blocks[b], *ctx.registry, table, repl, added[b], changed);
      if (next < cfg.children[b].size()) {
        stack.back().second++;
        stack.push_back({cfg.children[b][next], 0});
        continue;
      }
      for (auto& k : added[b]) table[k].pop_back();
      stack.pop_back();
    }
    apply_replacements(f.body(), repl);
    return changed;
  }

 private:
  static void visit(ir::Block& block, const ir::DialectRegistry& reg,
                    std::unordered_map<std::string, std::vector<Operation*>>& table,
                    std::unordered_map<Value*, Value*>& repl, std::vector<std::string>& added, bool& changed) {
    auto& ops = block.operations();
    for (size_t i = 0; i < ops.size(); ++i) {
      Operation& op = *ops[i];
      for (auto& v : op.operands()) v = resolve(repl, v);
      if (!is_pure(op, reg) || op.num_results() == 0 || ir::core_op(op) == ir::CoreOp::Const || !op.regions().empty())
        continue;
      std::string key = key_of(op);
      Operation* same = nullptr;
      for (Operation* c : table[key])
        if (c->attributes() == op.attributes()) same = c;
      if (!same) {
        table[key].push_back(&op);
        added.push_back(std::move(key));
        continue;
      }
      for (size_t r = 0; r < op.num_results(); ++r) repl[op.result(r)] = same->result(r);
      block.remove(i--);
      changed = true;
    }
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_cse_pass() { return std::make_unique<CommonSubexpressions>(); }

}  // namespace ppy::pipeline
