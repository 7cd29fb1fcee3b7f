// int-range: intervals of the i64 values of a function, refined by the
// comparisons that dominate each use and widened on loop-carried arguments.
// An add, sub, mul or neg whose exact interval fits in i64 cannot overflow, so
// its `python`/`checked` mode becomes `proven` and no backend writes its check
// (`i * i` under `i < 3000000`, `s + x % 7` with `s` bounded by a modulo).
// An integer `//` or `%` whose operands' signs it proves alike (a dividend
// >= 0 by a divisor > 0, or both <= 0 and < 0) rounds the same toward zero as
// toward minus infinity, so its `rounding` becomes `trunc` and no backend
// writes Python's sign fix-up (issue 35: `(s + i * i) % 1000003`).
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "fold.h"
#include "ir_util.h"
#include "ppy/pipeline/passes.h"

namespace ppy::pipeline {
namespace {

using ir::Operation;
using ir::Value;
using i128 = __int128;

constexpr int64_t kMin = INT64_MIN;
constexpr int64_t kMax = INT64_MAX;

/// A closed interval; `lo > hi` is empty (a value on no path reached yet).
struct Range {
  int64_t lo = kMin, hi = kMax;
  bool empty() const { return lo > hi; }
  bool operator==(const Range&) const = default;
};
constexpr Range kFull{};
constexpr Range kEmpty{kMax, kMin};

Range hull(Range a, Range b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
Range meet(Range a, Range b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

/// The interval of exact (unbounded) results, and whether it fits in i64.
struct Exact {
  i128 lo, hi;
  bool fits() const { return lo >= kMin && hi <= kMax; }
  Range clamped() const {
    return {static_cast<int64_t>(std::max<i128>(lo, kMin)), static_cast<int64_t>(std::min<i128>(hi, kMax))};
  }
};

std::optional<Exact> exact_of(const Operation& op, Range a, Range b) {
  switch (ir::core_op(op)) {
    case ir::CoreOp::Add:
      return Exact{i128(a.lo) + b.lo, i128(a.hi) + b.hi};
    case ir::CoreOp::Sub:
      return Exact{i128(a.lo) - b.hi, i128(a.hi) - b.lo};
    case ir::CoreOp::Neg:
      return Exact{-i128(a.hi), -i128(a.lo)};
    case ir::CoreOp::Mul: {
      i128 p[] = {i128(a.lo) * b.lo, i128(a.lo) * b.hi, i128(a.hi) * b.lo, i128(a.hi) * b.hi};
      return Exact{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
    }
    default:
      return std::nullopt;
  }
}

/// Floor unless the op says trunc: the wider of the two ranges when in doubt.
bool floor_rounding(const Operation& op) { return ir::rounding_of(op) != ir::Rounding::Trunc; }

i128 divide(i128 x, i128 d, bool floor) {
  i128 q = x / d;
  if (floor && (x % d != 0) && ((x < 0) != (d < 0))) --q;
  return q;
}

/// Division and remainder by a divisor interval that excludes zero.
Range div_mod(const Operation& op, Range a, Range d) {
  if (d.lo <= 0 && d.hi >= 0) return kFull;
  bool floor = floor_rounding(op);
  if (ir::core_op(op) == ir::CoreOp::Div) {
    i128 q[] = {divide(a.lo, d.lo, floor), divide(a.lo, d.hi, floor), divide(a.hi, d.lo, floor),
                divide(a.hi, d.hi, floor)};
    return Exact{*std::min_element(q, q + 4), *std::max_element(q, q + 4)}.clamped();
  }
  int64_t m = d.lo > 0 ? d.hi - 1 : -(d.lo + 1);  // the largest |remainder|
  if (floor) return d.lo > 0 ? Range{0, a.lo >= 0 ? std::min(m, a.hi) : m} : Range{-m, 0};
  if (a.lo >= 0) return {0, std::min(m, a.hi)};
  if (a.hi <= 0) return {std::max(-m, a.lo), 0};
  return {-m, m};
}

std::string_view predicate(const Operation& cmp) {
  const ir::Attribute* p = cmp.attr("predicate");
  return p && p->is<std::string>() ? std::string_view(p->as_string()) : std::string_view();
}
std::string_view negated(std::string_view p) {
  if (p == "lt") return "ge";
  if (p == "le") return "gt";
  if (p == "gt") return "le";
  if (p == "ge") return "lt";
  if (p == "eq") return "ne";
  return p == "ne" ? "eq" : "";
}
std::string_view swapped(std::string_view p) {
  if (p == "lt") return "gt";
  if (p == "le") return "ge";
  if (p == "gt") return "lt";
  if (p == "ge") return "le";
  return p;
}

/// `x` known to satisfy `x p y` with y in `y`.
Range restrict(Range x, std::string_view p, Range y) {
  if (x.empty() || y.empty()) return x;
  if (p == "lt") return y.hi == kMin ? kEmpty : meet(x, {kMin, y.hi - 1});
  if (p == "le") return meet(x, {kMin, y.hi});
  if (p == "gt") return y.lo == kMax ? kEmpty : meet(x, {y.lo + 1, kMax});
  if (p == "ge") return meet(x, {y.lo, kMax});
  if (p == "eq") return meet(x, y);
  return x;
}

class IntRangeAnalysis {
 public:
  explicit IntRangeAnalysis(ir::Function& f) : cfg_(f.body()) {}

  /// Runs to a fixed point, then narrows what widening overshot (`s` carried
  /// through `% 1000003` widens to [0, max] and narrows back); false when it
  /// did not settle (nothing is proven then).
  bool solve() {
    for (int round = 0;; ++round) {
      if (round == 64) return false;
      if (!sweep()) break;
    }
    // Each narrowing step from a fixed point stays sound: a value only takes
    // what its definitions can give it now.
    narrowing_ = true;
    for (int round = 0; round < 3 && sweep(); ++round) {
    }
    return true;
  }

  /// The checked arithmetic ops that cannot overflow, by the settled ranges.
  std::vector<Operation*> provable() {
    std::vector<Operation*> out;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      for (auto& op : cfg_.blocks[b]->operations()) {
        if (!ir::raises_on_overflow(*op)) continue;
        if (op->num_results() != 1 || op->result()->type() != ir::Type::i64()) continue;
        Range a = at(op->operand(0), static_cast<int>(b));
        Range y = op->num_operands() > 1 ? at(op->operand(1), static_cast<int>(b)) : Range{0, 0};
        if (a.empty() || y.empty()) continue;
        if (auto e = exact_of(*op, a, y); e && e->fits()) out.push_back(op.get());
      }
    return out;
  }

  /// The floor-rounded integer divisions and remainders whose operands'
  /// signs agree, by the settled ranges (truncating them gives the same value).
  std::vector<Operation*> same_signs() {
    std::vector<Operation*> out;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      for (auto& op : cfg_.blocks[b]->operations()) {
        ir::CoreOp n = ir::core_op(*op);
        if ((n != ir::CoreOp::Div && n != ir::CoreOp::Mod) || ir::rounding_of(*op) != ir::Rounding::Floor) continue;
        if (op->num_results() != 1 || op->result()->type() != ir::Type::i64()) continue;
        Range a = at(op->operand(0), static_cast<int>(b));
        Range d = at(op->operand(1), static_cast<int>(b));
        if (a.empty() || d.empty()) continue;
        if ((a.lo >= 0 && d.lo > 0) || (a.hi <= 0 && d.hi < 0)) out.push_back(op.get());
      }
    return out;
  }

 private:
  /// What is known of `v` before any refinement.
  Range base(const Value* v) const {
    if (v->type() != ir::Type::i64()) return v->type().is_bool() ? Range{0, 1} : kFull;
    if (auto c = int_of(v)) return {*c, *c};
    auto it = ranges_.find(v);
    if (it != ranges_.end()) return it->second;
    bool param = !v->def() && v->arg_owner() == cfg_.blocks[0];
    return param ? kFull : kEmpty;
  }

  /// `v` as seen in block `b`: restricted by each comparison whose outcome
  /// leads to `b` (an edge into a block with a single predecessor that
  /// dominates `b`).
  Range at(const Value* v, int b) const {
    Range r = base(v);
    for (int d = b; d > 0 && !r.empty(); d = cfg_.idom[d]) {
      if (cfg_.preds[d].size() != 1) continue;
      Operation* t = cfg_.blocks[cfg_.preds[d][0]]->terminator();
      if (!t || ir::core_op(*t) != ir::CoreOp::CondBr || t->successors().size() != 2) continue;
      const ir::Block* yes = t->successors()[0].block;
      if (yes == t->successors()[1].block) continue;
      const Operation* cmp = t->operand(0)->def();
      if (!cmp || ir::core_op(*cmp) != ir::CoreOp::Cmp) continue;
      std::string_view p = predicate(*cmp);
      if (yes != cfg_.blocks[d]) p = negated(p);
      if (cmp->operand(0) == v) r = restrict(r, p, base(cmp->operand(1)));
      if (cmp->operand(1) == v) r = restrict(r, swapped(p), base(cmp->operand(0)));
    }
    return r;
  }

  bool update(const Value* v, Range r) {
    auto [it, fresh] = ranges_.try_emplace(v, r);
    if (fresh) return !r.empty();
    if (it->second == r) return false;
    it->second = r;
    return true;
  }

  /// A loop-carried argument grows monotonically; after a few growths it is
  /// widened to the type's bound on the side that keeps growing.
  bool update_argument(const Value* v, Range incoming) {
    Range old = base(v);
    if (narrowing_) return update(v, meet(old, incoming));
    Range r = hull(old, incoming);
    if (r == old) return false;
    if (!old.empty() && ++growths_[v] > 2) {
      if (r.lo < old.lo) r.lo = kMin;
      if (r.hi > old.hi) r.hi = kMax;
    }
    return update(v, r);
  }

  Range result_of(const Operation& op, int b) const {
    const ir::CoreOp n = ir::core_op(op);
    auto operand = [&](size_t i) { return at(op.operand(i), b); };
    if (n == ir::CoreOp::Select) return hull(operand(1), operand(2));
    if (n == ir::CoreOp::Cast) return op.operand(0)->type().is_bool() ? Range{0, 1} : kFull;
    if (op.num_operands() == 0 || op.num_operands() > 2) return kFull;
    Range a = operand(0);
    Range y = op.num_operands() == 2 ? operand(1) : Range{0, 0};
    if (a.empty() || y.empty()) return kEmpty;
    if (auto e = exact_of(op, a, y)) {
      bool wraps = ir::overflow_of(op) == ir::Overflow::Wrap;
      // A checked op that completes produced an in-range value.
      return e->fits() || !wraps ? e->clamped() : kFull;
    }
    if (n == ir::CoreOp::Div || n == ir::CoreOp::Mod) return div_mod(op, a, y);
    if (n == ir::CoreOp::And && (a.lo >= 0 || y.lo >= 0))
      return {0, a.lo >= 0 && y.lo >= 0 ? std::min(a.hi, y.hi) : (a.lo >= 0 ? a.hi : y.hi)};
    if (n == ir::CoreOp::Shr && a.lo >= 0 && y.lo >= 0 && y.hi < 64) return {a.lo >> y.hi, a.hi >> y.lo};
    return kFull;
  }

  bool sweep() {
    bool changed = false;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b) changed |= visit(static_cast<int>(b));
    return changed;
  }

  bool visit(int b) {
    bool changed = false;
    ir::Block* block = cfg_.blocks[b];
    if (b > 0)
      for (size_t i = 0; i < block->num_arguments(); ++i) {
        Range in = kEmpty;
        for (int p : cfg_.preds[b])
          for (auto& s : cfg_.blocks[p]->terminator()->successors())
            if (s.block == block && i < s.args.size()) in = hull(in, at(s.args[i], p));
        changed |= update_argument(block->argument(i), in);
      }
    for (auto& op : block->operations())
      if (op->num_results() == 1 && op->result()->type() == ir::Type::i64() && ir::core_op(*op) != ir::CoreOp::Const)
        changed |= update(op->result(), result_of(*op, b));
    return changed;
  }

  Cfg cfg_;
  std::unordered_map<const Value*, Range> ranges_;
  std::unordered_map<const Value*, int> growths_;
  bool narrowing_ = false;
};

class IntRange : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "int-range"; }

  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    if (f.body().blocks().empty() || has_nested_regions(f)) return false;
    IntRangeAnalysis analysis(f);
    if (!analysis.solve()) return false;
    std::vector<Operation*> ops = analysis.provable();
    for (Operation* op : ops) op->attributes().set("overflow", ir::Attribute(ir::overflow_name(ir::Overflow::Proven)));
    std::vector<Operation*> truncs = analysis.same_signs();
    for (Operation* op : truncs) {  // `signs` lets a backend whose floor is native keep it (docs/ir.md)
      op->attributes().set("rounding", ir::Attribute(ir::rounding_name(ir::Rounding::Trunc)));
      op->attributes().set("signs", ir::Attribute("alike"));
    }
    return !ops.empty() || !truncs.empty();
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_int_range_pass() { return std::make_unique<IntRange>(); }

}  // namespace ppy::pipeline
