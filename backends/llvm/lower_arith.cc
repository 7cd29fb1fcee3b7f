// Canonical IR to LLVM IR: arithmetic (Python's overflow, division and
// rounding), casts, comparisons and the math dialect.
#include <array>
#include <optional>

#include "lowering.h"

namespace ppy::llvm_backend {

absl::Status FunctionLowering::lower_arith(const ir::Operation& op) {
  const ir::CoreOp n = ir::core_op(op);
  ir::Type rt = op.result(0)->type();
  llvm::Value* a = value(op.operand(0));
  llvm::Value* b = op.num_operands() > 1 ? value(op.operand(1)) : nullptr;
  if (n != ir::CoreOp::Neg && !b) return fail(op, "a binary op with one operand");
  if (rt.is_float()) {
    if (n == ir::CoreOp::Add) return values_[op.result(0)] = b_.CreateFAdd(a, b), absl::OkStatus();
    if (n == ir::CoreOp::Sub) return values_[op.result(0)] = b_.CreateFSub(a, b), absl::OkStatus();
    if (n == ir::CoreOp::Mul) return values_[op.result(0)] = b_.CreateFMul(a, b), absl::OkStatus();
    if (n == ir::CoreOp::Neg) return values_[op.result(0)] = b_.CreateFNeg(a), absl::OkStatus();
    // A rounding the verifier refuses is taken as trunc, as before.
    const ir::Rounding rounding = ir::rounding_of(op);
    bool floor = rounding == ir::Rounding::Floor;
    llvm::Value* r;
    if (n == ir::CoreOp::Div)
      r = rounding == ir::Rounding::None ? b_.CreateFDiv(a, b)
          : floor                        ? float_floor_div(a, b)
                                         : b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, b_.CreateFDiv(a, b));
    else
      r = floor ? float_floor_mod(a, b) : b_.CreateFRem(a, b);
    values_[op.result(0)] = r;
    return absl::OkStatus();
  }
  if (rt.kind() != TypeKind::I64 && rt.kind() != TypeKind::Index) return fail(op, str_cat("arithmetic on ", rt.str()));
  bool raises = ir::raises_on_overflow(op) && !m_.options().wrap_integers;
  bool proven = ir::overflow_of(op) == ir::Overflow::Proven;
  if (n == ir::CoreOp::Div || n == ir::CoreOp::Mod) return lower_int_divmod(op, a, b, n == ir::CoreOp::Div);
  llvm::Value* r;
  if (n == ir::CoreOp::Neg) {
    auto* zero = llvm::ConstantInt::get(i64(), 0);
    r = raises ? checked(llvm::Intrinsic::ssub_with_overflow, zero, a) : b_.CreateSub(zero, a, "", false, proven);
  } else if (raises) {
    auto id = n == ir::CoreOp::Add   ? llvm::Intrinsic::sadd_with_overflow
              : n == ir::CoreOp::Sub ? llvm::Intrinsic::ssub_with_overflow
                                     : llvm::Intrinsic::smul_with_overflow;
    r = checked(id, a, b);
  } else {
    // `proven`: the frontend's promise that it cannot overflow (nsw).
    r = n == ir::CoreOp::Add   ? b_.CreateAdd(a, b, "", false, proven)
        : n == ir::CoreOp::Sub ? b_.CreateSub(a, b, "", false, proven)
                               : b_.CreateMul(a, b, "", false, proven);
  }
  values_[op.result(0)] = r;
  return absl::OkStatus();
}

absl::Status FunctionLowering::lower_int_divmod(const ir::Operation& op, llvm::Value* a, llvm::Value* b, bool div) {
  bool raises = ir::raises_on_overflow(op) && !m_.options().wrap_integers;
  bool floor = ir::rounding_of(op) == ir::Rounding::Floor;
  auto* zero = llvm::ConstantInt::get(i64(), 0);
  auto* one = llvm::ConstantInt::get(i64(), 1);
  auto* minus_one = llvm::ConstantInt::get(i64(), static_cast<uint64_t>(-1), true);
  // The frontend guards the divisor before; the check here keeps a .ppyir
  // without that guard defined, and folds away against the guard.
  // The exception is the zero_division guard's; the message is Python's for integers.
  require(b_.CreateICmpNE(b, zero), std::string(ir::guard_exception(ir::GuardKind::ZeroDivision).exception),
          div ? "integer division or modulo by zero" : "integer modulo by zero");
  llvm::Value* by_minus_one = b_.CreateICmpEQ(b, minus_one);
  if (div && raises) {
    auto* min = llvm::ConstantInt::get(i64(), static_cast<uint64_t>(INT64_MIN), true);
    require_no_overflow(b_.CreateNot(b_.CreateAnd(by_minus_one, b_.CreateICmpEQ(a, min))));
  }
  // sdiv/srem of INT64_MIN by -1 is undefined in LLVM: divide by 1 instead and
  // take -a (wrapping) as the quotient; the remainder is 0 either way.
  llvm::Value* safe = b_.CreateSelect(by_minus_one, one, b);
  llvm::Value* rem = b_.CreateSRem(a, safe);
  llvm::Value* adjust = nullptr;
  if (floor)  // a remainder whose sign differs from the divisor's: floor, not trunc
    adjust = b_.CreateAnd(b_.CreateICmpNE(rem, zero), b_.CreateICmpSLT(b_.CreateXor(rem, b), zero));
  llvm::Value* r;
  if (div) {
    llvm::Value* q = b_.CreateSelect(by_minus_one, b_.CreateSub(zero, a), b_.CreateSDiv(a, safe));
    r = floor ? b_.CreateSub(q, b_.CreateZExt(adjust, i64())) : q;
  } else {
    r = floor ? b_.CreateSelect(adjust, b_.CreateAdd(rem, b), rem) : rem;
  }
  values_[op.result(0)] = r;
  return absl::OkStatus();
}

// Python's float `%` (the runtime's ppy_float_floormod, inline).
llvm::Value* FunctionLowering::float_floor_mod(llvm::Value* a, llvm::Value* b) {
  auto* fzero = llvm::ConstantFP::get(f64(), 0.0);
  llvm::Value* mod = b_.CreateFRem(a, b);
  llvm::Value* differs = b_.CreateXor(b_.CreateFCmpOLT(b, fzero), b_.CreateFCmpOLT(mod, fzero));
  llvm::Value* nonzero = b_.CreateSelect(differs, b_.CreateFAdd(mod, b), mod);
  llvm::Value* signed_zero = b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, fzero, b);
  llvm::Value* r = b_.CreateSelect(b_.CreateFCmpUNE(mod, fzero), nonzero, signed_zero);
  return b_.CreateSelect(b_.CreateFCmpOEQ(b, fzero), mod, r);
}

// Python's float `//` (CPython's float_floor_div; the runtime's
// ppy_float_floordiv, inline).
llvm::Value* FunctionLowering::float_floor_div(llvm::Value* a, llvm::Value* b) {
  auto* fzero = llvm::ConstantFP::get(f64(), 0.0);
  auto* fone = llvm::ConstantFP::get(f64(), 1.0);
  auto* fhalf = llvm::ConstantFP::get(f64(), 0.5);
  llvm::Value* quotient = b_.CreateFDiv(a, b);
  llvm::Value* by_zero = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, quotient);
  llvm::Value* mod = b_.CreateFRem(a, b);
  llvm::Value* div = b_.CreateFDiv(b_.CreateFSub(a, mod), b);
  llvm::Value* differs = b_.CreateAnd(b_.CreateFCmpUNE(mod, fzero),
                                      b_.CreateXor(b_.CreateFCmpOLT(b, fzero), b_.CreateFCmpOLT(mod, fzero)));
  div = b_.CreateSelect(differs, b_.CreateFSub(div, fone), div);
  llvm::Value* fl = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, div);
  llvm::Value* rounded = b_.CreateSelect(b_.CreateFCmpOGT(b_.CreateFSub(div, fl), fhalf), b_.CreateFAdd(fl, fone), fl);
  llvm::Value* zero_result = b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, fzero, quotient);
  llvm::Value* r = b_.CreateSelect(b_.CreateFCmpUNE(div, fzero), rounded, zero_result);
  return b_.CreateSelect(b_.CreateFCmpOEQ(b, fzero), by_zero, r);
}

absl::Status FunctionLowering::lower_cast(const ir::Operation& op) {
  ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
  llvm::Value* v = value(op.operand(0));
  auto set = [&](llvm::Value* r) {
    values_[op.result(0)] = r;
    return absl::OkStatus();
  };
  auto int64ish = [](ir::Type t) { return t.kind() == TypeKind::I64 || t.kind() == TypeKind::Index; };
  if (from == to || (int64ish(from) && int64ish(to)) || (from.is_ptr() && to.is_ptr())) return set(v);
  if (to.is_bool()) {
    if (int64ish(from)) return set(b_.CreateICmpNE(v, llvm::ConstantInt::get(i64(), 0)));
    if (from.kind() == TypeKind::F64) return set(b_.CreateFCmpUNE(v, llvm::ConstantFP::get(f64(), 0.0)));
  }
  if (from.is_bool()) {
    if (int64ish(to)) return set(b_.CreateZExt(v, i64()));
    if (to.kind() == TypeKind::F64) return set(b_.CreateUIToFP(v, f64()));
  }
  if (int64ish(from) && to.kind() == TypeKind::F64) return set(b_.CreateSIToFP(v, f64()));
  if (from.kind() == TypeKind::F64 && int64ish(to)) {
    // In range of i64 (the frontend guards before): fptosi; else the runtime
    // raises as the interpreter does (NaN, infinity, out of range).
    llvm::Value* in_range = b_.CreateAnd(b_.CreateFCmpOGE(v, llvm::ConstantFP::get(f64(), -9223372036854775808.0)),
                                         b_.CreateFCmpOLT(v, llvm::ConstantFP::get(f64(), 9223372036854775808.0)));
    auto* cont = llvm::BasicBlock::Create(ctx(), "ok", fn_);
    auto* bad = llvm::BasicBlock::Create(ctx(), "raise", fn_);
    b_.CreateCondBr(in_range, cont, bad, llvm::MDBuilder(ctx()).createBranchWeights(kLikely, kUnlikely));
    b_.SetInsertPoint(bad);
    b_.CreateCall(m_.support("ppy_float_to_i64"), {v});
    b_.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
    b_.CreateUnreachable();
    b_.SetInsertPoint(cont);
    return set(b_.CreateFPToSI(v, i64()));
  }
  return fail(op, str_cat("a cast from ", from.str(), " to ", to.str()));
}

absl::Status FunctionLowering::lower_cmp(const ir::Operation& op) {
  const std::string* p = attr_string(op, "predicate");
  if (!p) return fail(op, "a comparison without a predicate");
  ir::Type t = op.operand(0)->type();
  llvm::Value* a = value(op.operand(0));
  llvm::Value* b = value(op.operand(1));
  using P = llvm::CmpInst::Predicate;
  // In ir::Predicate's order (eq ne lt le gt ge): signed int, unsigned (bool),
  // float (ordered; `ne` is unordered: NaN != x).
  static constexpr std::array<P, 3> kPreds[] = {
      {P::ICMP_EQ, P::ICMP_EQ, P::FCMP_OEQ},   {P::ICMP_NE, P::ICMP_NE, P::FCMP_UNE},
      {P::ICMP_SLT, P::ICMP_ULT, P::FCMP_OLT}, {P::ICMP_SLE, P::ICMP_ULE, P::FCMP_OLE},
      {P::ICMP_SGT, P::ICMP_UGT, P::FCMP_OGT}, {P::ICMP_SGE, P::ICMP_UGE, P::FCMP_OGE},
  };
  std::optional<ir::Predicate> pred = ir::parse_predicate(*p);
  if (!pred) return fail(op, str_cat("the predicate '", *p, "'"));
  const std::array<P, 3>& preds = kPreds[static_cast<size_t>(*pred)];
  llvm::Value* r;
  if (t.is_float())
    r = b_.CreateFCmp(preds[2], a, b);
  else if (t.is_bool())
    r = b_.CreateICmp(preds[1], a, b);
  else if (t.is_ptr() || t.kind() == TypeKind::Buffer)
    r = b_.CreateICmp(preds[1], a, b);
  else
    r = b_.CreateICmp(preds[0], a, b);
  values_[op.result(0)] = r;
  return absl::OkStatus();
}

absl::Status FunctionLowering::lower_math(const ir::Operation& op) {
  if (op.num_results() != 1 || !op.result(0)->type().is_float() || op.result(0)->type().kind() != TypeKind::F64)
    return fail(op, "a math op not on f64");
  llvm::Value* a = value(op.operand(0));
  auto unary = [&](llvm::Intrinsic::ID id) {
    values_[op.result(0)] = b_.CreateUnaryIntrinsic(id, a);
    return absl::OkStatus();
  };
  switch (ir::core_op(op)) {
    case ir::CoreOp::MathSqrt:
      return unary(llvm::Intrinsic::sqrt);
    case ir::CoreOp::MathSin:
      return unary(llvm::Intrinsic::sin);
    case ir::CoreOp::MathCos:
      return unary(llvm::Intrinsic::cos);
    case ir::CoreOp::MathExp:
      return unary(llvm::Intrinsic::exp);
    case ir::CoreOp::MathExp2:
      return unary(llvm::Intrinsic::exp2);
    case ir::CoreOp::MathLog:
      return unary(llvm::Intrinsic::log);
    case ir::CoreOp::MathLog2:
      return unary(llvm::Intrinsic::log2);
    case ir::CoreOp::MathLog10:
      return unary(llvm::Intrinsic::log10);
    case ir::CoreOp::MathFloor:
      return unary(llvm::Intrinsic::floor);
    case ir::CoreOp::MathCeil:
      return unary(llvm::Intrinsic::ceil);
    case ir::CoreOp::MathTrunc:
      return unary(llvm::Intrinsic::trunc);
    case ir::CoreOp::MathAbs:
      return unary(llvm::Intrinsic::fabs);
    case ir::CoreOp::MathTan:
      values_[op.result(0)] = b_.CreateCall(m_.support("tan"), {a});
      return absl::OkStatus();
    case ir::CoreOp::MathPow:
      if (op.num_operands() != 2) break;
      values_[op.result(0)] = b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, a, value(op.operand(1)));
      return absl::OkStatus();
    default:
      break;
  }
  return fail(op, "a math op this backend does not lower");
}

}  // namespace ppy::llvm_backend
