// --prover z3: overflow guards proved away by Z3 (prover.h). Built with z3
// where CMake found it (PPY_HAVE_Z3), else every request is E1801.
#include "ppy/ir/core_ops.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"
#include "prover.h"

#if PPY_HAVE_Z3
#include <z3.h>

#include <unordered_map>
#endif

namespace ppy::llvm_backend {

#if !PPY_HAVE_Z3

bool prover_available() { return false; }
std::string prover_version() { return ""; }
absl::StatusOr<ProverReport> prove_overflow_guards(ir::Module&, unsigned) {
  return coded_error("E1801",
                     "backend 'llvm' is unavailable for --prover z3: this ppy was built without z3 (install "
                     "libz3-dev and rebuild)");
}

#else

namespace {

/// One function's queries: Z3 terms for its i64 values, over mathematical integers.
class Encoder {
 public:
  Encoder(Z3_context ctx, Z3_solver solver) : ctx_(ctx), solver_(solver) {
    min_ = Z3_mk_numeral(ctx_, "-9223372036854775808", Z3_mk_int_sort(ctx_));
    max_ = Z3_mk_numeral(ctx_, "9223372036854775807", Z3_mk_int_sort(ctx_));
  }

  /// The exact value of `v`: its definition unfolded `depth` deep, else a
  /// variable in i64 (a parameter, a block argument, a call's result).
  Z3_ast term(const ir::Value* v, int depth) {
    if (auto it = terms_.find(v); it != terms_.end()) return it->second;
    Z3_ast t = define(v, depth);
    terms_.emplace(v, t);
    return t;
  }

  /// `e` in [INT64_MIN, INT64_MAX].
  Z3_ast fits(Z3_ast e) {
    Z3_ast both[] = {Z3_mk_ge(ctx_, e, min_), Z3_mk_le(ctx_, e, max_)};
    return Z3_mk_and(ctx_, 2, both);
  }

  /// The exact result of an add, sub, mul or neg over its operands' terms.
  Z3_ast exact(const ir::Operation& op, int depth) {
    Z3_ast a = term(op.operand(0), depth);
    switch (ir::core_op(op)) {
      case ir::CoreOp::Neg:
        return Z3_mk_unary_minus(ctx_, a);
      case ir::CoreOp::Add: {
        Z3_ast args[] = {a, term(op.operand(1), depth)};
        return Z3_mk_add(ctx_, 2, args);
      }
      case ir::CoreOp::Sub: {
        Z3_ast args[] = {a, term(op.operand(1), depth)};
        return Z3_mk_sub(ctx_, 2, args);
      }
      case ir::CoreOp::Mul: {
        Z3_ast args[] = {a, term(op.operand(1), depth)};
        return Z3_mk_mul(ctx_, 2, args);
      }
      default:
        return nullptr;
    }
  }

  /// `x p y` as a Z3 boolean, or null for a predicate it does not order.
  Z3_ast compare(std::string_view p, Z3_ast x, Z3_ast y) {
    if (p == "lt") return Z3_mk_lt(ctx_, x, y);
    if (p == "le") return Z3_mk_le(ctx_, x, y);
    if (p == "gt") return Z3_mk_gt(ctx_, x, y);
    if (p == "ge") return Z3_mk_ge(ctx_, x, y);
    if (p == "eq") return Z3_mk_eq(ctx_, x, y);
    if (p == "ne") return Z3_mk_not(ctx_, Z3_mk_eq(ctx_, x, y));
    return nullptr;
  }

 private:
  Z3_ast fresh(const ir::Value* v) {
    Z3_ast x = Z3_mk_fresh_const(ctx_, "v", Z3_mk_int_sort(ctx_));
    Z3_solver_assert(ctx_, solver_, fits(x));
    return x;
  }

  Z3_ast define(const ir::Value* v, int depth) {
    const ir::Operation* d = v->def();
    if (!d || depth <= 0) return fresh(v);
    if (const ir::Attribute* c = ir::const_value(*d); c && c->is<int64_t>())
      return Z3_mk_int64(ctx_, c->as_int(), Z3_mk_int_sort(ctx_));
    switch (ir::core_op(*d)) {
      case ir::CoreOp::Add:
      case ir::CoreOp::Sub:
      case ir::CoreOp::Mul:
      case ir::CoreOp::Neg: {
        if (!ir::raises_on_overflow(*d) && ir::overflow_of(*d) != ir::Overflow::Proven) return fresh(v);
        // A checked op that completed produced its exact value, and it fit.
        Z3_ast e = exact(*d, depth - 1);
        Z3_solver_assert(ctx_, solver_, fits(e));
        return e;
      }
      case ir::CoreOp::Div:
      case ir::CoreOp::Mod: {
        // By a positive constant, floor division is Z3's (Euclidean) div and mod.
        const ir::Operation* k = d->operand(1)->def();
        const ir::Attribute* c = k ? ir::const_value(*k) : nullptr;
        if (!c || !c->is<int64_t>() || c->as_int() <= 0 || ir::rounding_of(*d) == ir::Rounding::Trunc) return fresh(v);
        Z3_ast a = term(d->operand(0), depth - 1), n = Z3_mk_int64(ctx_, c->as_int(), Z3_mk_int_sort(ctx_));
        return ir::core_op(*d) == ir::CoreOp::Div ? Z3_mk_div(ctx_, a, n) : Z3_mk_mod(ctx_, a, n);
      }
      case ir::CoreOp::BufferLen: {
        Z3_ast x = fresh(v);
        Z3_solver_assert(ctx_, solver_, Z3_mk_ge(ctx_, x, Z3_mk_int64(ctx_, 0, Z3_mk_int_sort(ctx_))));
        return x;
      }
      default:
        return fresh(v);
    }
  }

  Z3_context ctx_;
  Z3_solver solver_;
  Z3_ast min_, max_;
  std::unordered_map<const ir::Value*, Z3_ast> terms_;
};

std::string_view predicate(const ir::Operation& cmp) {
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

/// The blocks of `f`'s body by their single predecessor (null: none or several).
std::unordered_map<const ir::Block*, const ir::Operation*> single_predecessors(const ir::Region& body) {
  std::unordered_map<const ir::Block*, const ir::Operation*> by;
  std::unordered_map<const ir::Block*, int> count;
  for (auto& b : body.blocks()) {
    const ir::Operation* t = b->terminator();
    if (!t) continue;
    for (auto& s : t->successors()) {
      ++count[s.block];
      by[s.block] = t;
    }
  }
  for (auto& [b, n] : count)
    if (n != 1) by[b] = nullptr;
  return by;
}

constexpr int kDepth = 6;  ///< how deep definitions unfold
constexpr int kChain = 8;  ///< how many comparisons up the single-predecessor chain

}  // namespace

bool prover_available() { return true; }

std::string prover_version() {
  unsigned major, minor, build, rev;
  Z3_get_version(&major, &minor, &build, &rev);
  return str_cat("z3 ", major, ".", minor, ".", build);
}

absl::StatusOr<ProverReport> prove_overflow_guards(ir::Module& module, unsigned timeout_ms) {
  ProverReport report;
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "timeout", std::to_string(timeout_ms).c_str());
  Z3_context ctx = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  for (auto& f : module.functions()) {
    if (f->is_declaration()) continue;
    const ir::Region& body = f->body();
    bool nested = false;
    for (auto& b : body.blocks())
      for (auto& op : b->operations()) nested |= !op->regions().empty();
    if (nested) continue;  // structured regions: the single-predecessor walk does not see their conditions
    auto preds = single_predecessors(body);
    for (auto& b : body.blocks())
      for (auto& op : b->operations()) {
        if (!ir::raises_on_overflow(*op) || op->num_results() != 1 || op->result()->type() != ir::Type::i64()) continue;
        ir::CoreOp kind = ir::core_op(*op);
        if (kind != ir::CoreOp::Add && kind != ir::CoreOp::Sub && kind != ir::CoreOp::Mul && kind != ir::CoreOp::Neg)
          continue;
        Z3_solver solver = Z3_mk_solver(ctx);
        Z3_solver_inc_ref(ctx, solver);
        Encoder enc(ctx, solver);
        // The comparisons whose outcome leads here.
        const ir::Block* at = b.get();
        for (int k = 0; k < kChain; ++k) {
          auto it = preds.find(at);
          if (it == preds.end() || !it->second) break;
          const ir::Operation* t = it->second;
          if (ir::core_op(*t) == ir::CoreOp::CondBr && t->successors().size() == 2 &&
              t->successors()[0].block != t->successors()[1].block) {
            const ir::Operation* cmp = t->operand(0)->def();
            if (cmp && ir::core_op(*cmp) == ir::CoreOp::Cmp && cmp->operand(0)->type() == ir::Type::i64()) {
              std::string_view p = predicate(*cmp);
              if (t->successors()[0].block != at) p = negated(p);
              if (Z3_ast c = enc.compare(p, enc.term(cmp->operand(0), kDepth), enc.term(cmp->operand(1), kDepth)))
                Z3_solver_assert(ctx, solver, c);
            }
          }
          at = t->parent();
        }
        Z3_solver_assert(ctx, solver, Z3_mk_not(ctx, enc.fits(enc.exact(*op, kDepth))));
        ++report.asked;
        Z3_lbool answer = Z3_solver_check(ctx, solver);
        if (answer == Z3_L_FALSE) {
          op->attributes().set("overflow", ir::Attribute(ir::overflow_name(ir::Overflow::Proven)));
          ++report.proven;
        } else if (answer == Z3_L_UNDEF) {
          ++report.undecided;
        }
        Z3_solver_dec_ref(ctx, solver);
      }
  }
  Z3_del_context(ctx);
  return report;
}

#endif

}  // namespace ppy::llvm_backend
