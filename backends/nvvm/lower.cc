// Lowers device functions of the canonical IR to LLVM IR for NVPTX: one LLVM
// function per @cuda.kernel / @cuda.device function, blocks in reverse
// post-order, block arguments as phis.
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "nvvm.h"
#include "ppy/ir/core_ops.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::nvvm {
namespace {

/// NVPTX address spaces by the IR's space names (stack memory is an alloca:
/// generic in NVPTX's data layout).
unsigned address_space(const std::string& space) {
  if (space == "global") return 1;
  if (space == "shared") return 3;
  if (space == "constant") return 4;
  if (space == "private") return 5;
  return 0;
}

llvm::Type* llvm_type(ir::Type t, llvm::LLVMContext& c) {
  using K = ir::TypeKind;
  switch (t.kind()) {
    case K::Void: return llvm::Type::getVoidTy(c);
    case K::Bool: return llvm::Type::getInt1Ty(c);
    case K::I8: case K::U8: return llvm::Type::getInt8Ty(c);
    case K::I16: case K::U16: return llvm::Type::getInt16Ty(c);
    case K::I32: case K::U32: return llvm::Type::getInt32Ty(c);
    case K::I64: case K::U64: case K::Index: return llvm::Type::getInt64Ty(c);
    case K::F32: return llvm::Type::getFloatTy(c);
    case K::F64: return llvm::Type::getDoubleTy(c);
    case K::Ptr: return llvm::PointerType::get(c, address_space(t.ptr_space()));
    default: return nullptr;
  }
}

bool is_signed(ir::Type t) { return t.is_signed() || t.kind() == ir::TypeKind::Index; }

class FunctionLowerer {
 public:
  FunctionLowerer(const ir::Function& f, llvm::Function* fn, const std::map<std::string, llvm::Function*>& fns)
      : f_(f), fn_(fn), fns_(fns), c_(fn->getContext()), b_(c_) {}

  absl::Status run() {
    order_blocks();
    for (const ir::Block* blk : order_) blocks_[blk] = llvm::BasicBlock::Create(c_, blk->label(), fn_);
    // Entry arguments are the parameters; every other block argument is a phi.
    const ir::Block* entry = f_.body().entry();
    for (size_t i = 0; i < entry->num_arguments(); ++i) values_[entry->argument(i)] = fn_->getArg(i);
    for (const ir::Block* blk : order_) {
      if (blk == entry) continue;
      b_.SetInsertPoint(blocks_[blk]);
      for (size_t i = 0; i < blk->num_arguments(); ++i)
        values_[blk->argument(i)] = b_.CreatePHI(type(blk->argument(i)->type()), 2, blk->argument(i)->hint());
    }
    for (const ir::Block* blk : order_) {
      b_.SetInsertPoint(blocks_[blk]);
      for (const auto& op : blk->operations()) PPY_RETURN_IF_ERROR(lower(*op, blocks_[blk]));
    }
    return absl::OkStatus();
  }

 private:
  /// Reachable blocks in reverse post-order, so every value is lowered before its uses.
  void order_blocks() {
    std::set<const ir::Block*> seen;
    std::vector<const ir::Block*> post;
    std::vector<std::pair<const ir::Block*, size_t>> stack{{f_.body().entry(), 0}};
    seen.insert(f_.body().entry());
    while (!stack.empty()) {
      auto& [blk, next] = stack.back();
      const ir::Operation* term = blk->terminator();
      if (term && next < term->successors().size()) {
        const ir::Block* s = term->successors()[next++].block;
        if (seen.insert(s).second) stack.push_back({s, 0});
        continue;
      }
      post.push_back(blk);
      stack.pop_back();
    }
    order_.assign(post.rbegin(), post.rend());
  }

  llvm::Type* type(ir::Type t) { return llvm_type(t, c_); }
  llvm::Value* in(const ir::Operation& op, size_t i) { return values_.at(op.operand(i)); }
  llvm::Value* i64(int64_t v) { return b_.getInt64(static_cast<uint64_t>(v)); }

  void branch_args(const ir::Successor& s, llvm::BasicBlock* from) {
    for (size_t i = 0; i < s.args.size(); ++i)
      llvm::cast<llvm::PHINode>(values_.at(s.block->argument(i)))->addIncoming(values_.at(s.args[i]), from);
  }

  llvm::Value* constant(const ir::Operation& op) {
    ir::Type t = op.result()->type();
    const ir::Attribute& v = *op.attr("value");
    llvm::Type* lt = type(t);
    if (t.is_float()) {
      double d = v.is<double>() ? v.as_float() : v.is<int64_t>() ? static_cast<double>(v.as_int()) : 0.0;
      return llvm::ConstantFP::get(lt, d);
    }
    int64_t n = v.is<bool>() ? v.as_bool() : v.is<int64_t>() ? v.as_int() : 0;
    return llvm::ConstantInt::get(lt, static_cast<uint64_t>(n), is_signed(t));
  }

  llvm::Value* cast(llvm::Value* x, ir::Type from, ir::Type to) {
    llvm::Type* lt = type(to);
    if (from == to) return x;
    if (to.is_bool()) {
      if (from.is_float()) return b_.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0));
      return b_.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
    }
    if (from.is_ptr()) return b_.CreateAddrSpaceCast(x, lt);
    if (from.is_float() && to.is_float()) return b_.CreateFPCast(x, lt);
    if (from.is_float())  // NaN and out-of-range values are poison to LLVM: frozen to some value
      return b_.CreateFreeze(is_signed(to) ? b_.CreateFPToSI(x, lt) : b_.CreateFPToUI(x, lt));
    bool sign = !from.is_bool() && is_signed(from);
    if (to.is_float()) return sign ? b_.CreateSIToFP(x, lt) : b_.CreateUIToFP(x, lt);
    return b_.CreateIntCast(x, lt, sign);
  }

  llvm::Value* compare(const std::string& pred, llvm::Value* a, llvm::Value* b, ir::Type t) {
    using P = llvm::CmpInst::Predicate;
    if (t.is_float()) {
      // Python: NaN compares unequal to everything, and false for every ordering.
      P p = pred == "eq" ? P::FCMP_OEQ : pred == "ne" ? P::FCMP_UNE : pred == "lt" ? P::FCMP_OLT
          : pred == "le" ? P::FCMP_OLE : pred == "gt" ? P::FCMP_OGT : P::FCMP_OGE;
      return b_.CreateFCmp(p, a, b);
    }
    bool s = is_signed(t);
    P p = pred == "eq" ? P::ICMP_EQ : pred == "ne" ? P::ICMP_NE
        : pred == "lt" ? (s ? P::ICMP_SLT : P::ICMP_ULT) : pred == "le" ? (s ? P::ICMP_SLE : P::ICMP_ULE)
        : pred == "gt" ? (s ? P::ICMP_SGT : P::ICMP_UGT) : (s ? P::ICMP_SGE : P::ICMP_UGE);
    return b_.CreateICmp(p, a, b);
  }

  /// Integer `//` or `%`. Device code cannot raise: a zero divisor gives an
  /// unspecified value (the quotient by 1), and MIN // -1 wraps, never UB.
  llvm::Value* int_divmod(bool is_div, bool floor, llvm::Value* a, llvm::Value* b, ir::Type t) {
    llvm::Type* lt = a->getType();
    llvm::Value* zero = llvm::ConstantInt::get(lt, 0);
    llvm::Value* one = llvm::ConstantInt::get(lt, 1);
    if (!is_signed(t)) {
      llvm::Value* safe = b_.CreateSelect(b_.CreateICmpEQ(b, zero), one, b);
      return is_div ? b_.CreateUDiv(a, safe) : b_.CreateURem(a, safe);
    }
    llvm::Value* minus_one = b_.CreateICmpEQ(b, llvm::ConstantInt::getSigned(lt, -1));
    llvm::Value* safe = b_.CreateSelect(b_.CreateOr(b_.CreateICmpEQ(b, zero), minus_one), one, b);
    llvm::Value* q = b_.CreateSelect(minus_one, b_.CreateNeg(a), b_.CreateSDiv(a, safe));
    llvm::Value* r = b_.CreateSelect(minus_one, zero, b_.CreateSRem(a, safe));
    if (floor) {  // Python floors: a remainder whose sign differs from the divisor's moves one step
      llvm::Value* adjust = b_.CreateAnd(b_.CreateICmpNE(r, zero), b_.CreateICmpSLT(b_.CreateXor(r, b), zero));
      q = b_.CreateSelect(adjust, b_.CreateSub(q, one), q);
      r = b_.CreateSelect(adjust, b_.CreateAdd(r, b), r);
    }
    return is_div ? q : r;
  }

  llvm::Value* intrinsic(llvm::Intrinsic::ID id, std::vector<llvm::Value*> args) {
    std::vector<llvm::Type*> types;
    if (!args.empty()) types.push_back(args[0]->getType());
    return b_.CreateIntrinsic(id, types, args);
  }

  /// Python's float `//` and `%` (CPython's float_divmod), from fmod.
  llvm::Value* float_divmod(bool is_div, llvm::Value* a, llvm::Value* b) {
    llvm::Type* t = a->getType();
    llvm::Value* zero = llvm::ConstantFP::get(t, 0.0);
    llvm::Value* mod = b_.CreateFRem(a, b);
    llvm::Value* div = b_.CreateFDiv(b_.CreateFSub(a, mod), b);
    llvm::Value* mod_nz = b_.CreateFCmpUNE(mod, zero);
    llvm::Value* signs_differ = b_.CreateXor(b_.CreateFCmpOLT(b, zero), b_.CreateFCmpOLT(mod, zero));
    llvm::Value* fix = b_.CreateAnd(mod_nz, signs_differ);
    llvm::Value* fixed_mod = b_.CreateSelect(fix, b_.CreateFAdd(mod, b), mod);
    llvm::Value* fixed_div = b_.CreateSelect(fix, b_.CreateFSub(div, llvm::ConstantFP::get(t, 1.0)), div);
    if (!is_div) return b_.CreateSelect(mod_nz, fixed_mod, intrinsic(llvm::Intrinsic::copysign, {zero, b}));
    llvm::Value* fl = intrinsic(llvm::Intrinsic::floor, {fixed_div});
    llvm::Value* round_up = b_.CreateFCmpOGT(b_.CreateFSub(fixed_div, fl), llvm::ConstantFP::get(t, 0.5));
    llvm::Value* floordiv = b_.CreateSelect(round_up, b_.CreateFAdd(fl, llvm::ConstantFP::get(t, 1.0)), fl);
    return b_.CreateSelect(b_.CreateFCmpUNE(fixed_div, zero), floordiv,
                           intrinsic(llvm::Intrinsic::copysign, {zero, b_.CreateFDiv(a, b)}));
  }

  llvm::Value* special_register(const ir::Operation& op) {
    static const std::map<std::string, std::array<llvm::Intrinsic::ID, 3>> ids = {
        {"gpu.thread_id", {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                           llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z}},
        {"gpu.block_id", {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                          llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z}},
        {"gpu.block_dim", {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                           llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z}},
        {"gpu.grid_dim", {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                          llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z}},
    };
    const ir::Attribute* d = op.attr("dim");
    std::string dim = d && d->is<std::string>() ? d->as_string() : "x";
    size_t i = dim == "y" ? 1 : dim == "z" ? 2 : 0;
    llvm::Value* v = b_.CreateIntrinsic(ids.at(op.name())[i], {}, {});
    return b_.CreateZExt(v, type(op.result()->type()));
  }

  /// core.alloca or gpu.private_alloc (`private_space`): a slot (or `count`) in
  /// the entry block.
  llvm::Value* alloca_of(const ir::Operation& op, bool private_space) {
    const int64_t* count = ir::attr_if<int64_t>(op, "count");
    llvm::Value* size = count ? i64(*count) : nullptr;
    llvm::IRBuilder<> top(&fn_->getEntryBlock(), fn_->getEntryBlock().getFirstInsertionPt());
    llvm::Value* r = top.CreateAlloca(type(op.result()->type().elem()), size);
    if (private_space) r = b_.CreateAddrSpaceCast(r, type(op.result()->type()));
    return r;
  }

  llvm::Value* math(const ir::Operation& op) {
    const std::string& n = op.name();
    llvm::Value* x = in(op, 0);
    switch (ir::core_op(op)) {
      case ir::CoreOp::MathSqrt:
        return intrinsic(llvm::Intrinsic::sqrt, {x});
      case ir::CoreOp::MathFloor:
        return intrinsic(llvm::Intrinsic::floor, {x});
      case ir::CoreOp::MathCeil:
        return intrinsic(llvm::Intrinsic::ceil, {x});
      case ir::CoreOp::MathTrunc:
        return intrinsic(llvm::Intrinsic::trunc, {x});
      case ir::CoreOp::MathAbs:
        return intrinsic(llvm::Intrinsic::fabs, {x});
      default:
        break;
    }
    // libdevice: __nv_sin (double), __nv_sinf (float).
    std::string fn = str_cat("__nv_", n.substr(5), x->getType()->isFloatTy() ? "f" : "");
    std::vector<llvm::Type*> params(op.num_operands(), x->getType());
    llvm::FunctionCallee callee =
        fn_->getParent()->getOrInsertFunction(fn, llvm::FunctionType::get(x->getType(), params, false));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < op.num_operands(); ++i) args.push_back(in(op, i));
    return b_.CreateCall(callee, args);
  }

  absl::Status lower(const ir::Operation& op, llvm::BasicBlock* here) {
    const std::string& n = op.name();
    const ir::CoreOp kind = ir::core_op(op);
    ir::Type t = op.num_operands() ? op.operand(0)->type() : ir::Type();
    llvm::Value* r = nullptr;
    switch (kind) {
      case ir::CoreOp::Const:
        r = constant(op);
        break;
      case ir::CoreOp::Add:
        r = t.is_float() ? b_.CreateFAdd(in(op, 0), in(op, 1)) : b_.CreateAdd(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Sub:
        r = t.is_float() ? b_.CreateFSub(in(op, 0), in(op, 1)) : b_.CreateSub(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Mul:
        r = t.is_float() ? b_.CreateFMul(in(op, 0), in(op, 1)) : b_.CreateMul(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Neg:
        r = t.is_float() ? b_.CreateFNeg(in(op, 0)) : b_.CreateNeg(in(op, 0));
        break;
      case ir::CoreOp::Div:
      case ir::CoreOp::Mod: {
        bool floor = ir::rounding_of(op) == ir::Rounding::Floor;
        bool is_div = kind == ir::CoreOp::Div;
        if (!t.is_float())
          r = int_divmod(is_div, floor, in(op, 0), in(op, 1), t);
        else if (floor)
          r = float_divmod(is_div, in(op, 0), in(op, 1));
        else
          r = is_div ? b_.CreateFDiv(in(op, 0), in(op, 1)) : b_.CreateFRem(in(op, 0), in(op, 1));
        break;
      }
      case ir::CoreOp::And:
        r = b_.CreateAnd(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Or:
        r = b_.CreateOr(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Xor:
        r = b_.CreateXor(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Cmp:
        r = compare(op.attr("predicate")->as_string(), in(op, 0), in(op, 1), t);
        break;
      case ir::CoreOp::Select:
        r = b_.CreateSelect(in(op, 0), in(op, 1), in(op, 2));
        break;
      case ir::CoreOp::Cast:
        r = cast(in(op, 0), t, op.result()->type());
        break;
      case ir::CoreOp::Alloca:
        r = alloca_of(op, false);
        break;
      case ir::CoreOp::Load:
        r = b_.CreateLoad(type(op.result()->type()), in(op, 0));
        break;
      case ir::CoreOp::Store:
        b_.CreateStore(in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::PtrOffset:
        r = b_.CreateGEP(type(t.elem()), in(op, 0), in(op, 1));
        break;
      case ir::CoreOp::Call: {
        llvm::Function* callee = fns_.at(*ir::call_callee(op));
        std::vector<llvm::Value*> args;
        for (size_t i = 0; i < op.num_operands(); ++i) args.push_back(in(op, i));
        llvm::CallInst* call = b_.CreateCall(callee, args);
        call->setCallingConv(callee->getCallingConv());
        if (op.num_results()) r = call;
        break;
      }
      case ir::CoreOp::Br:
        branch_args(op.successors()[0], here);
        b_.CreateBr(blocks_.at(op.successors()[0].block));
        break;
      case ir::CoreOp::CondBr:
        if (op.successors()[0].block == op.successors()[1].block) {
          // One target on both edges: a phi takes one value per predecessor, so pick it here.
          ir::Successor merged = op.successors()[0];
          for (size_t i = 0; i < merged.args.size(); ++i)
            if (merged.args[i] != op.successors()[1].args[i]) {
              llvm::Value* picked =
                  b_.CreateSelect(in(op, 0), values_.at(merged.args[i]), values_.at(op.successors()[1].args[i]));
              llvm::cast<llvm::PHINode>(values_.at(merged.block->argument(i)))->addIncoming(picked, here);
              merged.args[i] = nullptr;
            }
          for (size_t i = 0; i < merged.args.size(); ++i)
            if (merged.args[i])
              llvm::cast<llvm::PHINode>(values_.at(merged.block->argument(i)))
                  ->addIncoming(values_.at(merged.args[i]), here);
          b_.CreateBr(blocks_.at(merged.block));
          break;
        }
        branch_args(op.successors()[0], here);
        branch_args(op.successors()[1], here);
        b_.CreateCondBr(in(op, 0), blocks_.at(op.successors()[0].block), blocks_.at(op.successors()[1].block));
        break;
      case ir::CoreOp::Ret:
        if (op.num_operands())
          b_.CreateRet(in(op, 0));
        else
          b_.CreateRetVoid();
        break;
      case ir::CoreOp::Unreachable:
        b_.CreateUnreachable();
        break;
      default:
        if (ir::is_math(kind))
          r = math(op);
        else if (n == "gpu.private_alloc")
          r = alloca_of(op, true);
        else if (n == "gpu.shared_alloc") {
          ir::Type elem = op.result()->type().elem();
          auto* array = llvm::ArrayType::get(type(elem), static_cast<uint64_t>(op.attr("count")->as_int()));
          r = new llvm::GlobalVariable(*fn_->getParent(), array, false, llvm::GlobalValue::InternalLinkage,
                                       llvm::UndefValue::get(array), str_cat(f_.name(), ".shared"), nullptr,
                                       llvm::GlobalValue::NotThreadLocal, 3);
        } else if (n == "gpu.barrier")
          b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
        else if (n.starts_with("gpu."))
          r = special_register(op);
        else if (n.starts_with("math."))
          r = math(op);
        else
          return coded_error("E1802", str_cat("backend 'nvvm' cannot lower ", n, " in @", f_.name()));
    }
    if (op.num_results() && r) {
      const std::string& hint = op.result()->hint();
      if (!hint.empty() && !std::isdigit(static_cast<unsigned char>(hint[0]))) r->setName(hint);
      values_[op.result()] = r;
    }
    return absl::OkStatus();
  }

  const ir::Function& f_;
  llvm::Function* fn_;
  const std::map<std::string, llvm::Function*>& fns_;
  llvm::LLVMContext& c_;
  llvm::IRBuilder<> b_;
  std::vector<const ir::Block*> order_;
  std::map<const ir::Block*, llvm::BasicBlock*> blocks_;
  std::map<const ir::Value*, llvm::Value*> values_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<llvm::Module>> lower_module(const ir::Module& module, llvm::LLVMContext& context) {
  auto out = std::make_unique<llvm::Module>(module.name(), context);
  out->setTargetTriple("nvptx64-nvidia-cuda");
  std::map<std::string, llvm::Function*> fns;
  std::vector<std::pair<const ir::Function*, llvm::Function*>> bodies;
  llvm::NamedMDNode* annotations = out->getOrInsertNamedMetadata("nvvm.annotations");
  for (const auto& f : module.functions()) {
    if (!is_device_function(*f) || f->is_declaration()) continue;
    std::vector<llvm::Type*> params;
    for (const ir::Param& p : f->params()) params.push_back(llvm_type(p.type, context));
    llvm::Type* result = f->results().empty() ? llvm::Type::getVoidTy(context) : llvm_type(f->results()[0], context);
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(result, params, false),
                                      llvm::GlobalValue::ExternalLinkage, f->name(), *out);
    for (size_t i = 0; i < f->params().size(); ++i) {
      const std::string& hint = f->body().entry()->argument(i)->hint();
      fn->getArg(i)->setName(hint.empty() ? f->params()[i].name : hint);
    }
    bool kernel = f->attributes().get("gpu.kind")->as_string() == "kernel";
    fn->setCallingConv(kernel ? llvm::CallingConv::PTX_Kernel : llvm::CallingConv::PTX_Device);
    if (kernel) {
      llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(fn), llvm::MDString::get(context, "kernel"),
                              llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1))};
      annotations->addOperand(llvm::MDNode::get(context, md));
    }
    fns[f->name()] = fn;
    bodies.push_back({f.get(), fn});
  }
  for (auto& [f, fn] : bodies) {
    FunctionLowerer lowerer(*f, fn, fns);
    PPY_RETURN_IF_ERROR(lowerer.run());
  }
  return out;
}

}  // namespace ppy::nvvm
