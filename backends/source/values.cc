#include "ppy/backends/source/values.h"

#include <algorithm>

#include "ppy/ir/core_ops.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::source {

Effects effects_of(const ir::Operation& op, const ir::Module* module) {
  const std::string& n = op.name();
  const ir::CoreOp kind = ir::core_op(op);
  Effects e;
  if (kind == ir::CoreOp::Load) {
    e.reads = true;
  } else if (kind == ir::CoreOp::BufferLen || kind == ir::CoreOp::BufferData) {
    e.reads = true;  // a list grows (docs/runtime.md, "Lists")
  } else if (kind == ir::CoreOp::BufferLoad) {
    e.reads = e.raises = true;
  } else if (kind == ir::CoreOp::Store) {
    e.writes = true;
  } else if (kind == ir::CoreOp::BufferStore) {
    e.writes = e.raises = true;
  } else if (kind == ir::CoreOp::Guard) {
    e.raises = true;
  } else if (kind == ir::CoreOp::Add || kind == ir::CoreOp::Sub || kind == ir::CoreOp::Mul || kind == ir::CoreOp::Neg ||
             kind == ir::CoreOp::Shl) {
    e.raises = op.num_results() && op.result(0)->type().is_integer_like() && ir::raises_on_overflow(op);
  } else if (kind == ir::CoreOp::Div || kind == ir::CoreOp::Mod) {
    e.raises = op.num_results() && op.result(0)->type().is_integer_like();
  } else if (kind == ir::CoreOp::Cast) {
    // float -> int raises for NaN, infinity and out of range; a narrowing
    // int -> int cast raises unless it wraps.
    if (op.num_results() && op.num_operands()) {
      ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
      e.raises = (from.is_float() && to.is_integer_like()) ||
                 (from.is_integer_like() && to.is_integer_like() && from != to && to.bit_width() < 64);
    }
  } else if (kind == ir::CoreOp::CallExtern) {
    const std::string* c = ir::extern_callee(op);
    std::string_view callee = c ? std::string_view(*c) : std::string_view();
    if (callee == "ppy_pow_i64") e.raises = true;
    else if (callee.starts_with("ppy_list_new")) e.raises = false;  // a fresh list: nothing to order
    else e.writes = e.reads = e.raises = true;
  } else if (kind == ir::CoreOp::Call) {
    e.reads = e.writes = e.raises = true;
    const std::string* c = ir::call_callee(op);
    const ir::Function* callee = module && c ? module->function(*c) : nullptr;
    const ir::Attribute* fx = callee ? callee->attributes().get("ppy.effects") : nullptr;
    if (fx && fx->is_array()) {
      e = {};
      for (const ir::Attribute& x : fx->as_array()) {
        if (!x.is<std::string>()) continue;
        const std::string& s = x.as_string();
        if (s == "io" || s == "writes") e.writes = true;
        else if (s == "reads") e.reads = true;
        else if (s == "raises") e.raises = true;
        else if (s == "globals") continue;  // module variables: `reads` / `writes` say which
        else if (s != "pure") e.writes = e.reads = e.raises = true;
      }
      // Recursion too deep raises in Python whatever the callee does.
      e.raises = true;
    }
  } else if (kind == ir::CoreOp::CallIndirect) {  // a function value: any function it may be
    e.reads = e.writes = e.raises = true;
  } else if (n == "gpu.launch" || n == "gpu.barrier" || n == "gpu.subgroup_barrier") {
    e.writes = e.reads = true;
  }
  return e;
}

bool global_value_type(ir::Type t) {
  if (t.is_scalar() || t.kind() == ir::TypeKind::Buffer || (t.is_ptr() && t.elem().kind() == ir::TypeKind::I8))
    return true;
  if (t.kind() != ir::TypeKind::Tuple) return false;
  for (size_t i = 0; i < t.num_elems(); ++i)
    if (!global_value_type(t.elem(i))) return false;
  return true;
}

bool is_slot(const ir::Value* v) {
  const ir::Operation* d = v->def();
  return d && ir::core_op(*d) == ir::CoreOp::Alloca && !d->attr("count");
}

const std::string* global_symbol(const ir::Value* v) {
  const ir::Operation* d = v->def();
  const ir::Attribute* a = d ? ir::const_value(*d) : nullptr;
  return a && a->is<ir::SymbolRef>() ? &a->as_symbol().name : nullptr;
}

FunctionValues::FunctionValues(const ir::Function& f, const ir::Module* module, ValueOptions options)
    : module_(module), options_(std::move(options)) {
  taken_ = options_.reserved;
  count_uses(f);
  find_unread(f);
  for (auto& b : f.body().blocks()) decide_inlining(*b);
  if (options_.coalesce_copies) coalesce_copies(f);
  assign_names(f);
}

void FunctionValues::count_uses(const ir::Function& f) {
  ir::walk(f.body(), [&](const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) {
      ++uses_[v];
      user_[v] = &op;
    }
    for (auto& s : op.successors())
      for (const ir::Value* v : s.args) {
        ++uses_[v];
        user_[v] = &op;
      }
  });
}

void FunctionValues::find_unread(const ir::Function& f) {
  for (auto& b : f.body().blocks())
    for (auto& a : b->arguments())
      if (uses(a.get()) == 0) unread_.insert(a.get());
  // A local's slot that is only ever stored to: what is stored is unread.
  std::set<const ir::Value*> slots_read;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    bool store = ir::core_op(op) == ir::CoreOp::Store && op.num_operands() == 2;
    for (size_t i = 0; i < op.num_operands(); ++i)
      if (is_slot(op.operand(i)) && !(store && i == 1)) slots_read.insert(op.operand(i));
  });
  std::unordered_map<const ir::Value*, int> stored_unread;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    if (ir::core_op(op) == ir::CoreOp::Store && op.num_operands() == 2 && is_slot(op.operand(1)) &&
        !slots_read.count(op.operand(1)))
      ++stored_unread[op.operand(0)];
  });
  // A block argument (or any value) whose every use passes it to an unread
  // block argument is unread too: to a fixpoint, as loops pass them around.
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_map<const ir::Value*, int> unread_uses = stored_unread;
    ir::walk(f.body(), [&](const ir::Operation& op) {
      for (auto& s : op.successors())
        for (size_t i = 0; i < s.args.size() && i < s.block->num_arguments(); ++i)
          if (unread_.count(s.block->argument(i))) ++unread_uses[s.args[i]];
    });
    for (auto& [v, n] : unread_uses)
      if (n == uses(v) && unread_.insert(v).second) changed = true;
  }
}

void FunctionValues::decide_inlining(const ir::Block& b) {
  const auto& ops = b.operations();
  std::unordered_map<const ir::Operation*, size_t> pos;
  for (size_t i = 0; i < ops.size(); ++i) pos[ops[i].get()] = i;
  for (size_t p = 0; p < ops.size(); ++p) {
    const ir::Operation& u = *ops[p];
    Effects tree = effects_of(u, module_);
    // Operands in the order they are evaluated: the op's, then each
    // successor's arguments (a cond_br's condition comes first).
    struct Operand {
      const ir::Value* v;
      bool conditional;  ///< evaluated on one path of a branch only
    };
    std::vector<Operand> operands;
    for (const ir::Value* v : u.operands()) operands.push_back({v, false});
    bool branches = u.successors().size() > 1;
    for (auto& s : u.successors())
      for (const ir::Value* v : s.args) operands.push_back({v, branches});
    size_t last_effectful = 0;
    bool have_effectful = false;
    for (const Operand& o : operands) {
      const ir::Operation* d = o.v->def();
      if (!d || d->num_results() != 1 || inlined_.count(o.v)) continue;
      if (ir::core_op(*d) == ir::CoreOp::Const) {
        inlined_.insert(o.v);  // a literal, wherever it is read
        continue;
      }
      if (d->parent() != &b || uses(o.v) != 1 || user_.at(o.v) != &u) continue;
      if (ir::core_op(*d) == ir::CoreOp::Alloca || (options_.inlinable && !options_.inlinable(*d))) continue;
      if (options_.inlinable_into && !options_.inlinable_into(*d, u)) continue;
      size_t dp = pos.at(d);
      Effects e = tree_effects_[d];
      if (o.conditional && (e.writes || e.raises)) continue;
      if (e.any()) {
        if (have_effectful && (options_.one_effectful_operand || dp < last_effectful)) continue;
      }
      bool ok = true;
      for (size_t m = dp + 1; m < p && ok; ++m) ok = e.commutes_with(effects_of(*ops[m], module_));
      if (!ok) continue;
      inlined_.insert(o.v);
      tree |= e;
      if (e.any()) {
        have_effectful = true;
        last_effectful = dp;
      }
    }
    tree_effects_[&u] = tree;
  }
}

std::string FunctionValues::unique(std::string base) {
  if (base.empty()) base = "v";
  if (!taken_.count(base)) {
    taken_.insert(base);
    return base;
  }
  for (int i = 2;; ++i) {
    std::string n = str_cat(base, "_", i);
    if (!taken_.count(n)) {
      taken_.insert(n);
      return n;
    }
  }
}

void FunctionValues::assign_names(const ir::Function& f) {
  auto base_of = [](const ir::Value* v) {
    std::string h = v->hint();
    if (h.ends_with("_slot")) h.resize(h.size() - 5);
    return identifier(h);
  };
  const ir::Block* entry = f.body().entry();
  // A value shares the variable of its group's leader (coalesce_copies);
  // whether a new variable was made.
  auto assign = [&](const ir::Value* v, const std::string& fallback) {
    const ir::Value* l = leader(v);
    if (auto it = names_.find(l); it != names_.end()) {
      names_[v] = it->second;
      return false;
    }
    std::string base = base_of(l);
    names_[l] = names_[v] = unique(base.empty() ? fallback : base);
    return true;
  };
  // Parameters first, so they keep their source names.
  for (auto& a : entry->arguments()) assign(a.get(), "");
  // A parameter read once, by a store into a slot before anything else
  // touches it, and the slot are one variable.
  bool entry_has_preds = false;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    for (auto& s : op.successors())
      if (s.block == entry) entry_has_preds = true;
  });
  if (!entry_has_preds) {
    std::set<const ir::Value*> touched;
    for (auto& op : entry->operations()) {
      if (ir::core_op(*op) == ir::CoreOp::Store && op->num_operands() == 2) {
        const ir::Value* v = op->operand(0);
        const ir::Value* slot = op->operand(1);
        if (v->arg_owner() == entry && uses(v) == 1 && is_slot(slot) && !touched.count(slot) &&
            !same_var_.count(slot))
          same_var_[slot] = v;
      }
      for (const ir::Value* v : op->operands())
        if (is_slot(v)) touched.insert(v);
    }
  }
  for (auto& [slot, param] : same_var_) names_[slot] = names_[param];
  // Slots next, in order, then block arguments and materialized results.
  for (auto& b : f.body().blocks())
    for (auto& op : b->operations())
      if (op->num_results() == 1 && is_slot(op->result(0)) && !names_.count(op->result(0))) {
        names_[op->result(0)] = unique(base_of(op->result(0)));
        variables_.push_back(op->result(0));
      }
  for (auto& b : f.body().blocks()) {
    if (b.get() != entry)
      for (auto& a : b->arguments())
        if (assign(a.get(), "")) variables_.push_back(a.get());
    for (auto& op : b->operations())
      for (auto& r : op->results()) {
        if (names_.count(&r) || inlined_.count(&r)) continue;
        if (assign(&r, "t") && is_statement(*op)) variables_.push_back(&r);
      }
  }
}

const std::string& FunctionValues::name(const ir::Value* v) const {
  static const std::string kUnnamed = "_unnamed";
  auto it = names_.find(v);
  return it == names_.end() ? kUnnamed : it->second;
}

bool FunctionValues::is_statement(const ir::Operation& op) const {
  if (op.num_results() == 0) return true;
  if (ir::core_op(op) == ir::CoreOp::Alloca && is_slot(op.result(0))) return false;
  if (op.num_results() == 1 && inlined_.count(op.result(0))) return false;
  for (auto& r : op.results())
    if (uses(&r) > 0) return true;
  return effects_of(op, module_).any();
}

std::vector<std::pair<const ir::Value*, const ir::Value*>> FunctionValues::moves(const ir::Successor& edge) const {
  std::vector<std::pair<const ir::Value*, const ir::Value*>> out;
  for (size_t i = 0; i < edge.args.size() && i < edge.block->num_arguments(); ++i) {
    const ir::Value* to = edge.block->argument(i);
    const ir::Value* from = edge.args[i];
    if (from == to) continue;
    if (!inlined(from) && name(from) == name(to)) continue;
    out.push_back({to, from});
  }
  return out;
}

void FunctionValues::variables_read(const ir::Value* v, std::set<const ir::Value*>& out) const {
  if (!inlined(v)) {
    out.insert(v);
    return;
  }
  const ir::Operation* d = v->def();
  if (!d) return;
  for (const ir::Value* o : d->operands()) variables_read(o, out);
}

}  // namespace ppy::backends::source
