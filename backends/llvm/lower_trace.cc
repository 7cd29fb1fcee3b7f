// Canonical IR to LLVM IR: the frames a traceback reads (issue 34,
// docs/runtime.md "Tracebacks"). A function that may raise links a
// `ppy_rt_frame {prev, code, line}` on its stack into the runtime's
// `ppy_rt_frames` at entry and unlinks it at each return; the line is written
// before each call an exception may come through, and for a guard only on its
// failing edge, so a loop of guarded arithmetic and indexing runs as before.
#include <utility>

#include "lowering.h"
#include "ppy/ir/trace.h"

namespace ppy::llvm_backend {

namespace {

/// ppy_rt_frame {prev, code, line, depth} (ppy_trace.h).
llvm::StructType* frame_type(llvm::LLVMContext& ctx) {
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  return llvm::StructType::get(ctx, {ptr, ptr, i64, i64});
}

}  // namespace

llvm::GlobalVariable* ModuleLowering::frames() {
  if (auto* g = module_->getGlobalVariable("ppy_rt_frames")) return g;
  return new llvm::GlobalVariable(*module_, llvm::PointerType::get(ctx_, 0), false, llvm::GlobalValue::ExternalLinkage,
                                  nullptr, "ppy_rt_frames");
}

llvm::Constant* ModuleLowering::no_frame() {
  if (auto* g = module_->getNamedGlobal("ppy.no_frame")) return g;
  llvm::StructType* ft = frame_type(ctx_);
  auto* gv = new llvm::GlobalVariable(*module_, ft, true, llvm::GlobalValue::PrivateLinkage,
                                      llvm::ConstantAggregateZero::get(ft), "ppy.no_frame");
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return gv;
}

llvm::Constant* ModuleLowering::code(const ir::Function& f) {
  if (auto* g = module_->getNamedGlobal(str_cat(f.name(), ".code"))) return g;
  auto* init = llvm::ConstantStruct::getAnon(ctx_, {string(ir::trace_frame_name(f)), string(ir::trace_file(f))});
  auto* gv = new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                      str_cat(f.name(), ".code"));
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return gv;
}

void FunctionLowering::begin_frame() {
  ir::TraceRole role = ir::trace_role(f_);
  if (role == ir::TraceRole::kNone) return;
  llvm::StructType* ft = frame_type(ctx());
  if (role == ir::TraceRole::kBorrows) {  // writes its lines into its enclosing function's frame
    frame_ = b_.CreateLoad(llvm::PointerType::get(ctx(), 0), m_.frames(), "frame");
    return;
  }
  {
    llvm::IRBuilder<> pb(prologue_, prologue_->begin());
    frame_ = pb.CreateAlloca(ft, nullptr, "frame");
  }
  // A function that calls nothing an exception could come through raises
  // only from its own guards: its frame is linked on their failing edges
  // alone, so it costs nothing until it raises.
  bool calls = false;
  ir::walk(f_.body(), [&](const ir::Operation& op) { calls = calls || may_raise_through(op); });
  if (!calls) {
    lazy_frame_ = true;
    return;
  }
  auto* ptr = llvm::PointerType::get(ctx(), 0);
  caller_frame_ = b_.CreateLoad(ptr, m_.frames(), "caller_frame");
  llvm::Value* depth = chain_depth(caller_frame_);
  if (counts_depth_) {
    // A function of a recursive cycle counts its call in its frame. Past
    // Python's limit (with what a recursive function without a frame of its
    // own counts in ppy_rt_depth, where the module has one) it raises
    // RecursionError before its frame is linked: the traceback ends at its
    // caller's call, as before.
    depth_in_frame_ = true;
    depth = b_.CreateAdd(depth, llvm::ConstantInt::get(i64(), 1), "deeper");
    llvm::Value* total = depth;
    if (m_.unframed_recursion()) total = b_.CreateAdd(depth, b_.CreateLoad(i64(), m_.depth(), "unframed"));
    llvm::Value* own = std::exchange(frame_, nullptr);
    require(b_.CreateICmpSLE(total, llvm::ConstantInt::get(i64(), 1000)), "RecursionError",
            "maximum recursion depth exceeded");
    frame_ = own;
  }
  b_.CreateStore(caller_frame_, b_.CreateStructGEP(ft, frame_, 0));
  b_.CreateStore(m_.code(f_), b_.CreateStructGEP(ft, frame_, 1));
  line_ = f_.loc() ? f_.loc()->line : 0;
  mark_line(b_);
  b_.CreateStore(depth, b_.CreateStructGEP(ft, frame_, 3));
  b_.CreateStore(frame_, m_.frames());
}

llvm::Value* FunctionLowering::chain_depth(llvm::Value* innermost) {
  auto* ptr = llvm::PointerType::get(ctx(), 0);
  if (!innermost) innermost = b_.CreateLoad(ptr, m_.frames(), "frames");
  llvm::Value* outer = b_.CreateSelect(b_.CreateIsNull(innermost), m_.no_frame(), innermost);
  return b_.CreateLoad(i64(), b_.CreateStructGEP(frame_type(ctx()), outer, 3), "chain_depth");
}

void FunctionLowering::mark_line(llvm::IRBuilder<>& b) {
  if (!frame_) return;
  llvm::StructType* ft = frame_type(ctx());
  if (lazy_frame_) {  // on a failing edge: the frame is linked here, as it raises
    b.CreateStore(b.CreateLoad(llvm::PointerType::get(ctx(), 0), m_.frames()), b.CreateStructGEP(ft, frame_, 0));
    b.CreateStore(m_.code(f_), b.CreateStructGEP(ft, frame_, 1));
    b.CreateStore(frame_, m_.frames());
  }
  b.CreateStore(llvm::ConstantInt::get(i64(), line_), b.CreateStructGEP(ft, frame_, 2));
}

void FunctionLowering::mark_line_before() {
  if (!lazy_frame_ && marked_block_ == block_ && marked_line_ == line_) return;
  mark_line(b_);
  marked_block_ = block_;
  marked_line_ = line_;
}

void FunctionLowering::after_mark(const ir::Operation& op) {
  // A try body (kBorrows, called under ppy_rt_try) writes its own lines into
  // this frame. Nothing else does: a callee writes its own frame's.
  if (ir::core_op(op) != ir::CoreOp::Call) return;
  const std::string* callee = ir::call_callee(op);
  const ir::Function* target = callee ? m_.ir_function(*callee) : nullptr;
  if (ir::captures_status(op) || !target || ir::trace_role(*target) == ir::TraceRole::kBorrows) marked_line_ = -1;
}

bool FunctionLowering::may_raise_through(const ir::Operation& op) {
  switch (ir::core_op(op)) {
    case ir::CoreOp::Call:
    case ir::CoreOp::CallIndirect:
      return true;
    case ir::CoreOp::CallExtern: {
      const runtime::RuntimeFunction* fn = runtime::runtime_callee(op);
      return !fn || fn->has(runtime::kRaises) || fn->has(runtime::kNoReturn);
    }
    default:
      return false;
  }
}

}  // namespace ppy::llvm_backend
