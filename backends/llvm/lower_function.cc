// Canonical IR to LLVM IR, one function's body: its blocks in reverse
// post-order and each op's lowering (or the file that lowers it).
#include <algorithm>
#include <unordered_set>
#include <utility>

#include "lowering.h"
#include "ppy/ir/block_order.h"
#include "ppy/ir/trace.h"
#include "ppy/util/status_macros.h"

namespace ppy::llvm_backend {
namespace {

/// A struct loaded field by field: LLVM drops the loads of fields nobody
/// reads (a whole-struct load keeps every one), issue 35.
llvm::Value* load_fields(llvm::IRBuilder<>& b, llvm::Type* t, llvm::Value* at) {
  auto* st = llvm::dyn_cast<llvm::StructType>(t);
  if (!st || st->isOpaque()) return b.CreateLoad(t, at);
  llvm::Value* v = llvm::PoisonValue::get(st);
  for (unsigned i = 0; i < st->getNumElements(); ++i)
    v = b.CreateInsertValue(v, load_fields(b, st->getElementType(i), b.CreateStructGEP(st, at, i)), {i});
  return v;
}

/// A struct stored field by field: a field set (`self.x = v`, which the IR
/// spells as storing the object's struct with one field changed) leaves
/// LLVM a store of each field's own value just loaded, which it drops, where
/// a whole-struct store wrote every field (issue 35's exceptions loop).
void store_fields(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Value* at) {
  auto* st = llvm::dyn_cast<llvm::StructType>(v->getType());
  if (!st || st->isOpaque()) {
    b.CreateStore(v, at);
    return;
  }
  for (unsigned i = 0; i < st->getNumElements(); ++i)
    store_fields(b, b.CreateExtractValue(v, {i}), b.CreateStructGEP(st, at, i));
}

}  // namespace

absl::Status FunctionLowering::run() {
  // The prologue holds the allocas (so SROA promotes them), the list mark and
  // the frame with the depth count, then enters the IR's entry block with the parameters.
  prologue_ = llvm::BasicBlock::Create(ctx(), "prologue", fn_);
  for (auto& blk : f_.body().blocks()) {
    auto* bb = llvm::BasicBlock::Create(ctx(), blk->label().empty() ? "bb" : blk->label(), fn_);
    blocks_[blk.get()] = bb;
    b_.SetInsertPoint(bb);
    for (auto& arg : blk->arguments()) {
      llvm::Type* t = m_.type(arg->type());
      if (!t)
        return coded_error(
            "E1802",
            str_cat("backend 'llvm' cannot take a block argument of type ", arg->type().str(), " in @", f_.name()),
            absl::StatusCode::kInvalidArgument);
      auto* phi = b_.CreatePHI(t, 2, arg->hint());
      phis_[blk.get()].push_back(phi);
      values_[arg.get()] = phi;
    }
  }
  b_.SetInsertPoint(prologue_);
  // A function of a recursive cycle counts its depth in its frame (a try
  // body or an adapter is no frame of Python's and counts nothing).
  counts_depth_ = m_.recursive(f_.name()) && !ir::trace_transparent(f_);
  begin_frame();  // tracebacks (issue 34) and the recursion depth (lower_trace.cc)
  prologue_end_ = b_.GetInsertBlock();
  // Entry: the parameters feed the entry block's arguments.
  const ir::Block* entry = f_.body().entry();
  {
    auto& phis = phis_[entry];
    if (phis.size() != fn_->arg_size())
      return coded_error(
          "E1802", str_cat("backend 'llvm' cannot take @", f_.name(), ": its entry block does not take its parameters"),
          absl::StatusCode::kInvalidArgument);
  }
  llvm::BranchInst* into_entry = b_.CreateBr(blocks_[entry]);
  {
    auto& phis = phis_[entry];
    for (size_t i = 0; i < phis.size(); ++i) phis[i]->addIncoming(fn_->getArg(static_cast<unsigned>(i)), prologue_end_);
  }

  // Blocks in reverse post-order, so every value is lowered before its uses.
  const std::vector<const ir::Block*> order = ir::reverse_post_order(f_.body());
  const std::unordered_set<const ir::Block*> seen(order.begin(), order.end());
  for (const ir::Block* blk : order) {
    b_.SetInsertPoint(blocks_[blk]);
    block_ = blk;
    for (auto& op : blk->operations()) {
      PPY_RETURN_IF_ERROR(lower_op(*op));
      after_mark(*op);  // tracebacks (issue 34)
    }
  }
  // Blocks no path reaches are not lowered at all.
  for (auto& blk : f_.body().blocks())
    if (!seen.count(blk.get())) {
      llvm::BasicBlock* bb = blocks_[blk.get()];
      for (auto* phi : phis_[blk.get()]) phi->replaceAllUsesWith(llvm::PoisonValue::get(phi->getType()));
      bb->eraseFromParent();
    }
  place_frame_link();  // tracebacks (issue 34)
  // The prologue's allocas go before its branch.
  (void)into_entry;
  return absl::OkStatus();
}

void FunctionLowering::leave() {
  if (caller_frame_) frame_unlinks_.push_back(b_.CreateStore(caller_frame_, m_.frames()));  // tracebacks (issue 34)
}

absl::Status FunctionLowering::branch_to(const ir::Successor& s, llvm::BasicBlock* from) {
  auto& phis = phis_[s.block];
  if (phis.size() != s.args.size())
    return coded_error("E1802",
                       str_cat("backend 'llvm' cannot take @", f_.name(), ": a branch passes ", s.args.size(),
                               " values to ^", s.block->label(), ", which takes ", phis.size()),
                       absl::StatusCode::kInvalidArgument);
  for (size_t i = 0; i < phis.size(); ++i) {
    llvm::Value* v = value(s.args[i]);
    if (!v)
      return coded_error(
          "E1802", str_cat("backend 'llvm' cannot take @", f_.name(), ": a branch argument is not defined before it"),
          absl::StatusCode::kInvalidArgument);
    phis[i]->addIncoming(v, from ? from : b_.GetInsertBlock());
  }
  return absl::OkStatus();
}

absl::Status FunctionLowering::lower_op(const ir::Operation& op) {
  const ir::CoreOp kind = ir::core_op(op);
  if (!op.regions().empty()) return fail(op, "an op with regions");
  if (op.num_results() > 1 && !(kind == ir::CoreOp::Call && ir::captures_status(op)))
    return fail(op, "an op with several results");
  std::vector<llvm::Value*> args;
  for (const ir::Value* v : op.operands()) {
    llvm::Value* lv = value(v);
    if (!lv) return fail(op, "an operand is not defined before its use");
    args.push_back(lv);
  }
  if (int64_t at = ir::trace_line(op)) line_ = at;  // tracebacks (issue 34), with its comprehension
  if (frame_ && may_raise_through(op)) mark_line_before();
  ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
  llvm::Type* rlt = op.num_results() ? m_.type(rt) : nullptr;
  if (op.num_results() && !rlt) return fail(op, str_cat("a result of type ", rt.str()));
  auto set = [&](llvm::Value* v) {
    if (op.num_results()) values_[op.result(0)] = v;
    return absl::OkStatus();
  };

  switch (kind) {
    case ir::CoreOp::Const: {
      const ir::Attribute* v = op.attr("value");
      if (!v) return fail(op, "a constant without a value");
      if (rt.is_ptr() && v->is<ir::SymbolRef>()) {  // a global's address
        llvm::GlobalVariable* g = m_.module().getNamedGlobal(v->as_symbol().name);
        if (!g) return fail(op, str_cat("the address of @", v->as_symbol().name, ", which is not a global"));
        return set(g);
      }
      if (rt.is_float()) {
        double d = v->is<double>() ? v->as_float() : v->is<int64_t>() ? static_cast<double>(v->as_int()) : 0.0;
        return set(llvm::ConstantFP::get(rlt, d));
      }
      int64_t i = v->is<bool>()      ? v->as_bool()
                  : v->is<int64_t>() ? v->as_int()
                  : v->is<double>()  ? static_cast<int64_t>(v->as_float())
                                     : 0;
      if (rt.is_bool()) i = i != 0;
      if (rt.is_ptr() || rt.kind() == TypeKind::Buffer)
        return set(llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx(), 0)));
      return set(llvm::ConstantInt::get(rlt, static_cast<uint64_t>(i), !rt.is_bool()));
    }
    case ir::CoreOp::Add:
    case ir::CoreOp::Sub:
    case ir::CoreOp::Mul:
    case ir::CoreOp::Neg:
    case ir::CoreOp::Div:
    case ir::CoreOp::Mod:
      return lower_arith(op);
    case ir::CoreOp::And:
      return set(b_.CreateAnd(args[0], args[1]));
    case ir::CoreOp::Or:
      return set(b_.CreateOr(args[0], args[1]));
    case ir::CoreOp::Xor:
      return set(b_.CreateXor(args[0], args[1]));
    case ir::CoreOp::Shl:
    case ir::CoreOp::Shr: {
      // A shift by the width or more (or a negative amount) gives 0 (or the sign).
      llvm::Value* a = args[0];
      llvm::Value* s = args[1];
      auto* width = llvm::ConstantInt::get(i64(), 64);
      llvm::Value* in_range = b_.CreateICmpULT(s, width);
      llvm::Value* safe = b_.CreateSelect(in_range, s, llvm::ConstantInt::get(i64(), 0));
      if (kind == ir::CoreOp::Shl) {
        llvm::Value* r = b_.CreateShl(a, safe);
        if (ir::raises_on_overflow(op) && !m_.options().wrap_integers) {
          // a·2^s fits in i64 when shifting back gives a again (and s < 64), or a is 0.
          llvm::Value* fits = b_.CreateAnd(in_range, b_.CreateICmpEQ(b_.CreateAShr(r, safe), a));
          require_no_overflow(b_.CreateOr(fits, b_.CreateICmpEQ(a, llvm::ConstantInt::get(i64(), 0))));
        }
        return set(b_.CreateSelect(in_range, r, llvm::ConstantInt::get(i64(), 0)));
      }
      llvm::Value* fill = b_.CreateAShr(a, llvm::ConstantInt::get(i64(), 63));
      return set(b_.CreateSelect(in_range, b_.CreateAShr(a, safe), fill));
    }
    case ir::CoreOp::StructMake: {
      llvm::Value* t = llvm::UndefValue::get(rlt);
      for (unsigned i = 0; i < args.size(); ++i) t = b_.CreateInsertValue(t, args[i], {i});
      return set(t);
    }
    case ir::CoreOp::StructExtract: {
      const ir::Attribute* f = op.attr("field");
      ir::Type st = op.operand(0)->type();
      int64_t ix = f && f->is<int64_t>() ? f->as_int() : -1;
      if (f && f->is<std::string>() && st.kind() == TypeKind::Struct)
        for (size_t k = 0; k < st.storage()->fields.size(); ++k)
          if (st.storage()->fields[k].name == f->as_string()) ix = static_cast<int64_t>(k);
      if (ix < 0) return fail(op, "a struct_extract without a field of its struct");
      return set(b_.CreateExtractValue(args[0], {static_cast<unsigned>(ix)}));
    }
    case ir::CoreOp::TupleMake: {
      llvm::Value* t = llvm::UndefValue::get(rlt);
      for (unsigned i = 0; i < args.size(); ++i) t = b_.CreateInsertValue(t, args[i], {i});
      return set(t);
    }
    case ir::CoreOp::TupleExtract: {
      const int64_t* ix = ir::attr_if<int64_t>(op, "index");
      if (!ix) return fail(op, "a tuple_extract without an index");
      return set(b_.CreateExtractValue(args[0], {static_cast<unsigned>(*ix)}));
    }
    case ir::CoreOp::Cmp:
      return lower_cmp(op);
    case ir::CoreOp::Select:
      return set(b_.CreateSelect(args[0], args[1], args[2]));
    case ir::CoreOp::Cast:
      return lower_cast(op);
    case ir::CoreOp::Br: {
      PPY_RETURN_IF_ERROR(branch_to(op.successors().at(0)));
      b_.CreateBr(blocks_.at(op.successors()[0].block));
      return absl::OkStatus();
    }
    case ir::CoreOp::CondBr: {
      const ir::Successor& t = op.successors().at(0);
      const ir::Successor& e = op.successors().at(1);
      llvm::BasicBlock* here = b_.GetInsertBlock();
      if (t.block == e.block && !t.args.empty()) {
        // One target reached twice with different values: an edge block each.
        auto* tb = llvm::BasicBlock::Create(ctx(), "edge", fn_);
        auto* eb = llvm::BasicBlock::Create(ctx(), "edge", fn_);
        b_.CreateCondBr(args[0], tb, eb);
        b_.SetInsertPoint(tb);
        PPY_RETURN_IF_ERROR(branch_to(t));
        b_.CreateBr(blocks_.at(t.block));
        b_.SetInsertPoint(eb);
        PPY_RETURN_IF_ERROR(branch_to(e));
        b_.CreateBr(blocks_.at(e.block));
        return absl::OkStatus();
      }
      PPY_RETURN_IF_ERROR(branch_to(t, here));
      PPY_RETURN_IF_ERROR(branch_to(e, here));
      b_.CreateCondBr(args[0], blocks_.at(t.block), blocks_.at(e.block));
      return absl::OkStatus();
    }
    case ir::CoreOp::Ret: {
      if (op.num_operands() != f_.results().size()) return fail(op, "a return whose values differ from the results");
      leave();
      if (args.empty())
        b_.CreateRetVoid();
      else
        b_.CreateRet(args[0]);
      return absl::OkStatus();
    }
    case ir::CoreOp::Unreachable: {
      b_.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
      b_.CreateUnreachable();
      return absl::OkStatus();
    }
    case ir::CoreOp::Alloca: {
      if (!rt.is_ptr()) return fail(op, "an alloca that is not a pointer");
      llvm::Type* elem = m_.type(rt.elem());
      if (!elem) return fail(op, str_cat("a slot of type ", rt.elem().str()));
      int64_t count = 1;
      if (const int64_t* c = ir::attr_if<int64_t>(op, "count")) count = std::max<int64_t>(1, *c);
      llvm::IRBuilder<> pb(prologue_,
                           prologue_->getTerminator() ? prologue_->getTerminator()->getIterator() : prologue_->end());
      llvm::Value* slot =
          pb.CreateAlloca(elem, count == 1 ? nullptr : llvm::ConstantInt::get(i64(), count), op.result(0)->hint());
      return set(slot);
    }
    case ir::CoreOp::Load: {
      if (op.operand(0)->type().kind() != TypeKind::Ptr) return fail(op, "a load from what is not a pointer");
      return set(load_fields(b_, rlt, args[0]));
    }
    case ir::CoreOp::Store: {
      store_fields(b_, args[0], args[1]);
      return absl::OkStatus();
    }
    case ir::CoreOp::PtrOffset: {
      llvm::Type* elem = m_.type(op.operand(0)->type().elem());
      if (!elem) return fail(op, "an offset over elements this backend does not take");
      return set(b_.CreateGEP(elem, args[0], args[1]));
    }
    case ir::CoreOp::BufferData:
      return set(list_data(args[0]));
    case ir::CoreOp::BufferLen:
      return set(list_header(b_.CreateLoad(i64(), args[0], "len")));
    // A list's elements are 8-byte slots (ppy_runtime.h): a bool is an i64 0 or 1.
    case ir::CoreOp::BufferLoad: {
      ir::Type elem = op.operand(0)->type().elem();
      llvm::Value* at = element_address(op, args[0], args[1], elem, false);
      llvm::Value* v = list_element(b_.CreateLoad(list_slot(elem), at));
      if (elem.kind() == ir::TypeKind::Bool) v = b_.CreateICmpNE(v, llvm::ConstantInt::get(i64(), 0));
      if (elem.kind() == ir::TypeKind::Tuple) v = unbox(v, elem);
      return set(v);
    }
    case ir::CoreOp::BufferStore: {
      ir::Type elem = op.operand(1)->type().elem();
      llvm::Value* v = args[0];
      if (elem.kind() == ir::TypeKind::Bool) v = b_.CreateZExt(v, i64());
      llvm::Value* at = element_address(op, args[1], args[2], elem, true);  // checked before the box is made
      if (elem.kind() == ir::TypeKind::Tuple) v = box(v, elem);
      list_element(b_.CreateStore(v, at));
      return absl::OkStatus();
    }
    case ir::CoreOp::Guard: {
      require(args[0], ir::guard_exception(op));
      return absl::OkStatus();
    }
    case ir::CoreOp::Call: {
      const std::string* callee_name = ir::call_callee(op);
      if (!callee_name) return fail(op, "a call without a @callee");
      const std::string& callee = *callee_name;
      if (!m_.has_function(callee))
        return fail(op, str_cat("a call to @", callee, ", which the module does not declare"));
      llvm::Function* target = m_.function(callee);
      if (target->arg_size() != args.size()) return fail(op, str_cat("a call to @", callee, " with the wrong arity"));
      if (ir::captures_status(op)) return lower_capture(op, target, args);
      llvm::CallInst* call = b_.CreateCall(target, args);
      call->setAttributes(target->getAttributes());  // zeroext bools on both sides
      return set(call);
    }
    case ir::CoreOp::CallExtern:
      return lower_call_extern(op);
    case ir::CoreOp::FuncRef: {  // a function value: the function's address
      const std::string* callee = ir::call_callee(op);
      if (!callee || !m_.has_function(*callee)) return fail(op, "a core.func_ref of no function of the module");
      return set(m_.function(*callee));
    }
    case ir::CoreOp::CallIndirect: {  // a call of the function value operand 0 holds, by the operands' types
      std::vector<llvm::Type*> params;
      for (size_t i = 1; i < op.num_operands(); ++i) params.push_back(args[i]->getType());
      llvm::Type* result = op.num_results() ? m_.type(op.result(0)->type()) : llvm::Type::getVoidTy(m_.ctx());
      if (!result || op.num_results() > 1) return fail(op, "an indirect call of this result type");
      auto* fty = llvm::FunctionType::get(result, params, false);
      std::vector<llvm::Value*> rest(args.begin() + 1, args.end());
      llvm::CallInst* call = b_.CreateCall(fty, args[0], rest);
      for (size_t i = 0; i < params.size(); ++i)  // zeroext bools, as every function of the module takes them
        if (params[i]->isIntegerTy(1)) call->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::ZExt);
      if (result->isIntegerTy(1)) call->addRetAttr(llvm::Attribute::ZExt);
      return set(call);
    }
    default:
      break;
  }
  if (op.dialect() == "math") return lower_math(op);
  return fail(op, "an op this backend does not lower");
}

}  // namespace ppy::llvm_backend
