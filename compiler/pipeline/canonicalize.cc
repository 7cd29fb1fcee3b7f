// canonicalize: folding and the dialects' patterns, to a fixed point; trivially
// dead ops go and constants are uniqued in the entry block, as in MLIR.
#include <bit>
#include <cmath>
#include <unordered_map>

#include "fold.h"
#include "ir_util.h"
#include "ppy/pipeline/passes.h"
#include "ppy/util/str_cat.h"

namespace ppy::pipeline {
namespace {

using ir::Operation;
using ir::Type;
using ir::Value;

bool is_commutative(ir::CoreOp n) {
  using enum ir::CoreOp;
  return n == Add || n == Mul || n == And || n == Or || n == Xor;
}

/// Turns `op` into `core.const value` in place, so its result keeps its uses.
void make_const(Operation& op, ir::Attribute value) {
  op.set_name("core.const");
  op.operands().clear();
  op.attributes() = ir::AttrDict{{"value", std::move(value)}};
}

bool is_int_const(const Value* v, int64_t want) {
  auto i = int_of(v);
  return i && *i == want && !v->type().is_float();
}
bool is_float_const(const Value* v, double want, bool check_sign = false) {
  auto f = float_of(v);
  return f && *f == want && (!check_sign || std::signbit(*f) == std::signbit(want));
}
/// All bits set for the type: -1 for integers, true for bool.
bool is_all_ones(const Value* v) {
  auto i = int_of(v);
  return i && (v->type().is_bool() ? *i == 1 : *i == -1);
}

/// The value `op`'s result equals by an algebraic identity, or null. May turn
/// `op` into a constant instead (x*0, x-x), returning its own result.
Value* simplify(Operation& op) {
  using enum ir::CoreOp;
  const ir::CoreOp n = ir::core_op(op);
  if (op.num_results() != 1) return nullptr;
  Type t = op.result()->type();
  if (n == Select) {
    if (auto c = int_of(op.operand(0))) return *c ? op.operand(1) : op.operand(2);
    if (op.operand(1) == op.operand(2)) return op.operand(1);
    return nullptr;
  }
  if (n == Cast) return op.operand(0)->type() == t ? op.operand(0) : nullptr;
  if (op.num_operands() != 2) return nullptr;
  Value* x = op.operand(0);
  Value* y = op.operand(1);
  bool is_int = t.is_integer_like() || t.is_bool();
  if (n == Cmp && x == y && (x->type().is_integer_like() || x->type().is_bool())) {
    std::optional<ir::Predicate> p = ir::predicate_of(op);
    make_const(op, ir::Attribute(p == ir::Predicate::Eq || p == ir::Predicate::Le || p == ir::Predicate::Ge));
    return op.result();
  }
  if (!t.is_scalar()) return nullptr;
  if (is_int) {
    if ((n == Add || n == Sub || n == Or || n == Xor || n == Shl || n == Shr) && is_int_const(y, 0)) return x;
    if ((n == Mul || n == Div) && is_int_const(y, 1)) return x;
    if ((n == And || n == Or) && x == y) return x;
    if (n == And && is_all_ones(y)) return x;
    if (((n == Mul || n == And) && is_int_const(y, 0)) || ((n == Sub || n == Xor) && x == y)) {
      make_const(op, int_attr(0, t));
      return op.result();
    }
    if (n == Or && is_all_ones(y)) {
      make_const(op, int_attr(t.is_bool() ? 1 : -1, t));
      return op.result();
    }
    return nullptr;
  }
  if (t.is_float()) {
    // Only identities exact for every float, -0.0, inf and NaN included.
    if (n == Add && is_float_const(y, -0.0, true)) return x;
    if (n == Sub && is_float_const(y, 0.0, true)) return x;
    if (n == Mul && is_float_const(y, 1.0)) return x;
    if (n == Div && ir::rounding_of(op) == ir::Rounding::None && is_float_const(y, 1.0)) return x;
  }
  return nullptr;
}

/// Rewrites a terminator whose choice is known into a `core.br`; returns the
/// replacement, or null.
std::unique_ptr<Operation> fold_branch(Operation& op) {
  if (ir::core_op(op) != ir::CoreOp::CondBr || op.successors().size() != 2) return nullptr;
  int pick = -1;
  if (auto c = int_of(op.operand(0))) pick = *c ? 0 : 1;
  auto& s = op.successors();
  if (pick < 0 && s[0].block == s[1].block && s[0].args == s[1].args) pick = 0;
  if (pick < 0) return nullptr;
  auto br = Operation::create("core.br", {}, {}, {}, op.loc());
  br->successors().push_back(s[pick]);
  return br;
}

/// A key telling constants apart exactly: type and value, -0.0 from 0.0.
std::string const_key(const Operation& op) {
  const ir::Attribute* v = op.attr("value");
  std::string key = op.result()->type().str() + "|";
  if (!v) return key;
  if (v->is<double>()) {
    ppy::str_append(key, "f", std::bit_cast<int64_t>(v->as_float()));
  } else if (v->is<int64_t>()) {
    ppy::str_append(key, "i", v->as_int());
  } else if (v->is<bool>()) {
    ppy::str_append(key, v->as_bool() ? "true" : "false");
  } else if (v->is<std::string>()) {
    ppy::str_append(key, "s", v->as_string());
  } else {
    return "";  // not uniqued
  }
  return key;
}

/// One constant per (type, value), in the entry block: constants elsewhere
/// move to the entry's start (it dominates every use), duplicates go.
bool unique_constants(ir::Function& f) {
  ir::Block* entry = f.body().entry();
  std::unordered_map<std::string, Value*> seen;
  std::unordered_map<Value*, Value*> repl;
  bool changed = false;
  auto& eops = entry->operations();
  for (size_t i = 0; i < eops.size(); ++i) {
    if (ir::core_op(*eops[i]) != ir::CoreOp::Const || eops[i]->num_results() != 1) continue;
    std::string key = const_key(*eops[i]);
    if (key.empty()) continue;
    auto [it, fresh] = seen.emplace(key, eops[i]->result());
    if (fresh) continue;
    repl[eops[i]->result()] = it->second;
    entry->remove(i--);
    changed = true;
  }
  size_t insert_at = 0;
  for (auto& b : f.body().blocks()) {
    if (b.get() == entry) continue;
    auto& ops = b->operations();
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ir::core_op(*ops[i]) != ir::CoreOp::Const || ops[i]->num_results() != 1) continue;
      std::string key = const_key(*ops[i]);
      if (key.empty()) continue;
      auto it = seen.find(key);
      if (it != seen.end()) {
        repl[ops[i]->result()] = it->second;
      } else {
        seen.emplace(key, ops[i]->result());
        entry->insert(insert_at++, b->remove(i--));
        changed = true;
        continue;
      }
      b->remove(i--);
      changed = true;
    }
  }
  apply_replacements(f.body(), repl);
  return changed;
}

class Canonicalize : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "canonicalize"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override {
    registry_ = ctx.registry;
    bool changed = false;
    for (int round = 0; round < 32; ++round) {
      bool c = sweep(f);
      changed |= c;
      if (!c) break;
    }
    return changed;
  }

 private:
  const ir::DialectRegistry* registry_ = nullptr;

  /// One walk over every op; returns whether anything changed.
  bool sweep(ir::Function& f) {
    std::unordered_map<Value*, Value*> repl;
    bool changed = false;
    for (auto& block : f.body().blocks()) {
      auto& ops = block->operations();
      for (size_t i = 0; i < ops.size(); ++i) {
        Operation& op = *ops[i];
        for (auto& v : op.operands()) v = resolve(repl, v);
        for (auto& s : op.successors())
          for (auto& v : s.args) v = resolve(repl, v);
        if (auto br = fold_branch(op)) {
          block->remove(i);
          block->insert(i, std::move(br));
          changed = true;
          continue;
        }
        const ir::CoreOp kind = ir::core_op(op);
        if (kind == ir::CoreOp::Guard && int_of(op.operand(0)).value_or(0) == 1) {
          block->remove(i--);
          changed = true;
          continue;
        }
        if (is_commutative(kind) && op.num_operands() == 2 && const_value(op.operand(0)) &&
            !const_value(op.operand(1))) {
          std::swap(op.operands()[0], op.operands()[1]);
          changed = true;
        }
        if (auto folded = fold_constant(op)) {
          if (kind != ir::CoreOp::Const) {
            make_const(op, *folded);
            changed = true;
          }
          continue;
        }
        if (Value* v = simplify(op)) {
          changed = true;
          if (v != op.result()) {
            repl[op.result()] = v;
            block->remove(i--);
          }
        }
      }
    }
    apply_replacements(f.body(), repl);
    changed |= erase_dead_ops(f, *registry_);
    if (!has_nested_regions(f)) changed |= unique_constants(f);
    return changed;
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_canonicalize_pass() { return std::make_unique<Canonicalize>(); }

}  // namespace ppy::pipeline
