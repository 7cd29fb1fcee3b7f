// Canonical IR to LLVM IR: the frames a traceback reads (issue 34,
// docs/runtime.md "Tracebacks"). A function that may raise links a
// `ppy_rt_frame {prev, code, line}` on its stack into the runtime's
// `ppy_rt_frames` at entry and unlinks it at each return; the line is written
// before each call an exception may come through, and for a guard only on its
// failing edge, so a loop of guarded arithmetic and indexing runs as before.
#include <utility>

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"

#include "lowering.h"
#include "ppy/ir/trace.h"
#include "ppy/runtime/raise_through.h"

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
  // Its comprehensions' table (ppy_rt_comp), ended by a NULL name; NULL for none.
  auto* ptr = llvm::PointerType::get(ctx_, 0);
  llvm::Constant* comps = llvm::ConstantPointerNull::get(ptr);
  if (std::vector<ir::TraceComprehension> cs = ir::trace_comprehensions(f); !cs.empty()) {
    auto* i64t = llvm::Type::getInt64Ty(ctx_);
    auto* ct = llvm::StructType::get(ctx_, {ptr, i64t, i64t});
    std::vector<llvm::Constant*> rows;
    for (const ir::TraceComprehension& c : cs)
      rows.push_back(llvm::ConstantStruct::get(
          ct, {string(c.name), llvm::ConstantInt::get(i64t, c.line), llvm::ConstantInt::get(i64t, c.parent)}));
    rows.push_back(llvm::ConstantAggregateZero::get(ct));
    auto* table = llvm::ConstantArray::get(llvm::ArrayType::get(ct, rows.size()), rows);
    auto* tv = new llvm::GlobalVariable(*module_, table->getType(), true, llvm::GlobalValue::PrivateLinkage, table,
                                        str_cat(f.name(), ".comps"));
    tv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    comps = tv;
  }
  auto* init =
      llvm::ConstantStruct::getAnon(ctx_, {string(ir::trace_frame_name(f)), string(ir::trace_file(f)), comps});
  auto* gv = new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                      str_cat(f.name(), ".code"));
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return gv;
}

void FunctionLowering::begin_frame() {
  ir::TraceRole role = m_.options().tracebacks ? ir::trace_role(f_) : ir::TraceRole::kNone;
  // A recursive function without a frame for tracebacks (one that cannot
  // raise, IR without locations) links one that names nothing, for its depth
  // alone: every road's count lives in the one chain, across modules too.
  const bool depth_only = role == ir::TraceRole::kNone && counts_depth_;
  if (role == ir::TraceRole::kNone && !depth_only) return;
  nameless_frame_ = depth_only;
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
  // alone, so it costs nothing until it raises. (A recursive one calls.)
  bool calls = false;
  ir::walk(f_.body(), [&](const ir::Operation& op) { calls = calls || may_raise_through(op); });
  if (!calls && !counts_depth_) {
    lazy_frame_ = true;
    return;
  }
  auto* ptr = llvm::PointerType::get(ctx(), 0);
  caller_frame_ = b_.CreateLoad(ptr, m_.frames(), "caller_frame");
  llvm::Value* depth = chain_depth(caller_frame_);
  if (counts_depth_) {
    // A function of a recursive cycle counts its call in its frame. Past
    // Python's limit it raises RecursionError before its frame is linked: the
    // traceback ends at its caller's call, as before.
    depth = b_.CreateAdd(depth, llvm::ConstantInt::get(i64(), 1), "deeper");
    llvm::Value* own = std::exchange(frame_, nullptr);
    require(b_.CreateICmpSLE(depth, llvm::ConstantInt::get(i64(), 1000)), "RecursionError",
            "maximum recursion depth exceeded");
    frame_ = own;
    depth_raise_ = b_.GetInsertBlock()->getSinglePredecessor()->getTerminator()->getSuccessor(1);
  }
  // The link's stores, each taken as it is made, for place_frame_link.
  auto link = [&](llvm::Value* v, llvm::Value* at) { frame_link_.push_back(b_.CreateStore(v, at)); };
  link(caller_frame_, b_.CreateStructGEP(ft, frame_, 0));
  link(depth_only ? llvm::ConstantPointerNull::get(ptr) : m_.code(f_), b_.CreateStructGEP(ft, frame_, 1));
  line_ = f_.loc() ? f_.loc()->line : 0;
  mark_line(b_);
  frame_link_.push_back(&b_.GetInsertBlock()->back());
  link(depth, b_.CreateStructGEP(ft, frame_, 3));
  link(frame_, m_.frames());
}

void FunctionLowering::place_frame_link() {
  if (frame_link_.empty()) return;
  llvm::DominatorTree dt(*fn_);
  llvm::LoopInfo loops(dt);
  llvm::BasicBlock* at = nullptr;
  for (llvm::BasicBlock& bb : *fn_) {
    if (&bb == depth_raise_ || !dt.isReachableFromEntry(&bb)) continue;
    for (llvm::Instruction& inst : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&inst); call && !llvm::isa<llvm::IntrinsicInst>(call)) {
        at = at ? dt.findNearestCommonDominator(at, &bb) : &bb;
        break;
      }
  }
  if (!at) return;
  while (llvm::Loop* loop = loops.getLoopFor(at)) {  // linked once, before the loop
    llvm::DomTreeNode* outside = dt.getNode(loop->getHeader())->getIDom();
    if (!outside) return;
    at = outside->getBlock();
  }
  llvm::BasicBlock* prologue = frame_link_.front()->getParent();
  if (at == prologue) return;
  // The stores' operands (the GEPs) stay where they are: the prologue dominates all.
  llvm::Instruction* where = &*at->getFirstInsertionPt();
  for (llvm::Instruction* s : frame_link_) s->moveBefore(where);
  // A return no linked path reaches would store what ppy_rt_frames holds.
  for (llvm::StoreInst* s : frame_unlinks_)
    if (!llvm::isPotentiallyReachable(at, s->getParent(), nullptr, &dt, &loops)) s->eraseFromParent();
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
  if (nameless_frame_) return;
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
  return runtime::exception_may_come_through(op);
}

}  // namespace ppy::llvm_backend
