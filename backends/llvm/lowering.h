#pragma once
/// The lowering's internals, shared by its files: lower.cc (the module:
/// functions, globals, runtime declarations), lower_function.cc (a body, op by
/// op), lower_arith.cc (arithmetic, casts, comparisons, math) and
/// lower_runtime.cc (runtime calls, captured calls and lists).

#include <cassert>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "lower.h"
#include "ppy/ir/core_ops.h"
#include "ppy/runtime/abi.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::llvm_backend {

using ir::TypeKind;

constexpr uint32_t kLikely = 2000;  // branch weights: a guard fails once, if ever
constexpr uint32_t kUnlikely = 1;

inline std::string where(const ir::Operation& op) {
  return op.loc() ? str_cat(" at ", op.loc()->str()) : std::string();
}

inline const std::string* attr_string(const ir::Operation& op, std::string_view key) {
  const ir::Attribute* a = op.attr(key);
  return a && a->is<std::string>() ? &a->as_string() : nullptr;
}

/// The module being lowered: types, runtime declarations, interned strings.
class ModuleLowering {
 public:
  ModuleLowering(const ir::Module& m, llvm::LLVMContext& ctx, const LowerOptions& options)
      : ir_(m), ctx_(ctx), options_(options), module_(std::make_unique<llvm::Module>(m.name(), ctx)) {
    module_->setTargetTriple(options.triple);
    if (!options.data_layout.empty()) module_->setDataLayout(options.data_layout);
  }

  absl::StatusOr<std::unique_ptr<llvm::Module>> run();

  llvm::LLVMContext& ctx() { return ctx_; }
  llvm::Module& module() { return *module_; }
  const LowerOptions& options() const { return options_; }

  /// The access tag of a list's header fields (`element` false) or of its
  /// elements: two types under one root, which never alias each other.
  llvm::MDNode* list_tbaa(bool element) {
    if (!tbaa_header_) {
      llvm::MDBuilder md(ctx_);
      llvm::MDNode* root = md.createTBAARoot("ppy lists");
      llvm::MDNode* header = md.createTBAAScalarTypeNode("ppy list header", root);
      llvm::MDNode* elems = md.createTBAAScalarTypeNode("ppy list element", root);
      tbaa_header_ = md.createTBAAStructTagNode(header, header, 0);
      tbaa_element_ = md.createTBAAStructTagNode(elems, elems, 0);
    }
    return element ? tbaa_element_ : tbaa_header_;
  }

  /// The LLVM type of a value of IR type `t`, or null for one this backend
  /// does not take.
  llvm::Type* type(ir::Type t) {
    switch (t.kind()) {
      case TypeKind::Bool:
        return llvm::Type::getInt1Ty(ctx_);
      case TypeKind::I64:
      case TypeKind::Index:
        return llvm::Type::getInt64Ty(ctx_);
      case TypeKind::F64:
        return llvm::Type::getDoubleTy(ctx_);
      case TypeKind::Ptr:
      case TypeKind::Buffer:
        return llvm::PointerType::get(ctx_, 0);
      case TypeKind::Tuple: {  // a literal struct, passed and returned by value
        std::vector<llvm::Type*> members;
        for (size_t i = 0; i < t.num_elems(); ++i) {
          llvm::Type* m = type(t.elem(i));
          if (!m) return nullptr;
          members.push_back(m);
        }
        return llvm::StructType::get(ctx_, members);
      }
      case TypeKind::Struct: {  // an object's memory, reached through its handle
        std::vector<llvm::Type*> members;
        for (auto& f : t.storage()->fields) {
          llvm::Type* m = type(ir::Type(f.type));
          if (!m) return nullptr;
          members.push_back(m);
        }
        return llvm::StructType::get(ctx_, members);
      }
      default:
        return nullptr;
    }
  }

  /// A runtime function of abi.def, declared on first use from its entry
  /// (lower_runtime.cc).
  llvm::FunctionCallee runtime(const runtime::RuntimeFunction& fn);
  /// A support function the backend's own code calls (a raise, the float
  /// cast's error, libm's tan), which no call_extern names: not in abi.def.
  llvm::FunctionCallee support(std::string_view name);

  /// A private constant holding `text` and a NUL (text may hold NULs too).
  llvm::Constant* string(const std::string& text) {
    auto it = strings_.find(text);
    if (it != strings_.end()) return it->second;
    auto* init = llvm::ConstantDataArray::getString(ctx_, text, /*AddNull=*/true);
    auto* gv =
        new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, ".str");
    gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    gv->setAlignment(llvm::Align(1));
    strings_.emplace(text, gv);
    return gv;
  }

  llvm::Function* function(const std::string& name) { return functions_.at(name); }

  /// Tracebacks (issue 34, lower_trace.cc): the runtime's `ppy_rt_frames`,
  /// and the constant `ppy_rt_code` naming `f` for its frames.
  llvm::GlobalVariable* frames();
  /// A frame of depth 0, read for the depth where the chain is empty.
  llvm::Constant* no_frame();
  /// The IR function named `name`, or null.
  const ir::Function* ir_function(const std::string& name) const { return ir_.function(name); }
  llvm::Constant* code(const ir::Function& f);
  bool has_function(const std::string& name) const { return functions_.count(name) != 0; }
  /// Functions on a call cycle within this module: they count their depth
  /// (RecursionError, as the interpreter and python3 raise).
  bool recursive(const std::string& name) const { return recursive_.count(name) != 0; }

 private:
  absl::Status declare_functions();
  absl::Status lower_globals();
  void find_recursive();

  const ir::Module& ir_;
  llvm::LLVMContext& ctx_;
  LowerOptions options_;
  std::unique_ptr<llvm::Module> module_;
  std::unordered_map<std::string, llvm::Function*> functions_;
  std::unordered_map<std::string, llvm::Constant*> strings_;
  llvm::MDNode* tbaa_header_ = nullptr;
  llvm::MDNode* tbaa_element_ = nullptr;
  std::set<std::string> recursive_;
};

/// One function's body.
class FunctionLowering {
 public:
  FunctionLowering(ModuleLowering& m, const ir::Function& f) : m_(m), f_(f), fn_(m.function(f.name())), b_(m.ctx()) {}

  absl::Status run();

 private:
  llvm::LLVMContext& ctx() { return m_.ctx(); }
  llvm::Type* i64() { return llvm::Type::getInt64Ty(ctx()); }
  llvm::Type* f64() { return llvm::Type::getDoubleTy(ctx()); }
  llvm::Type* i1() { return llvm::Type::getInt1Ty(ctx()); }

  absl::Status fail(const ir::Operation& op, std::string_view why) {
    return coded_error("E1802",
                       str_cat("backend 'llvm' cannot take ", op.name(), " in @", f_.name(), where(op), ": ", why),
                       absl::StatusCode::kInvalidArgument);
  }

  llvm::Value* value(const ir::Value* v) {
    auto it = values_.find(v);
    return it == values_.end() ? nullptr : it->second;
  }

  /// The block that raises `name: message`, one per distinct pair.
  llvm::BasicBlock* raise_block(const std::string& name, const std::string& message) {
    std::string key = name + '\0' + message + (frame_ ? str_cat('\0', line_) : std::string());
    auto it = raise_blocks_.find(key);
    if (it != raise_blocks_.end()) return it->second;
    auto* bb = llvm::BasicBlock::Create(ctx(), "raise", fn_);
    llvm::IRBuilder<> rb(bb);
    mark_line(rb);  // tracebacks: the frame's line, written on the failing edge only
    auto* call = rb.CreateCall(m_.support("ppy_rt_raise"), {m_.string(name), m_.string(message)});
    call->setDoesNotReturn();
    rb.CreateUnreachable();
    raise_blocks_.emplace(key, bb);
    return bb;
  }

  /// Continues only when `ok` holds; else raises. The failing edge is cold.
  void require(llvm::Value* ok, const std::string& name, const std::string& message) {
    auto* cont = llvm::BasicBlock::Create(ctx(), "ok", fn_);
    auto* weights = llvm::MDBuilder(ctx()).createBranchWeights(kLikely, kUnlikely);
    b_.CreateCondBr(ok, cont, raise_block(name, message), weights);
    b_.SetInsertPoint(cont);
  }
  /// As above, raising what a guard of that kind raises (ppy/ir/core_ops.h).
  void require(llvm::Value* ok, ir::GuardException raised) {
    require(ok, std::string(raised.exception), std::string(raised.message));
  }
  /// An integer overflow check: what `overflow = "python"` raises.
  void require_no_overflow(llvm::Value* ok) { require(ok, ir::guard_exception(ir::GuardKind::Overflow)); }

  /// `a op b` raising OverflowError when the i64 result overflows.
  llvm::Value* checked(llvm::Intrinsic::ID id, llvm::Value* a, llvm::Value* b) {
    llvm::Value* pair = b_.CreateBinaryIntrinsic(id, a, b);
    llvm::Value* result = b_.CreateExtractValue(pair, 0);
    llvm::Value* overflow = b_.CreateExtractValue(pair, 1);
    require_no_overflow(b_.CreateNot(overflow));
    return result;
  }

  /// Tracebacks (issue 34, lower_trace.cc): links this function's frame into
  /// the runtime's chain (in the prologue) when it may raise; `leave` unlinks it.
  /// A recursive function that links its frame at entry counts its depth in
  /// it (its caller's frame's depth + 1), not in the runtime's ppy_rt_depth.
  void begin_frame();
  /// Moves the stores that link the frame (put in the prologue by
  /// begin_frame) down to the nearest block that dominates every call, out of
  /// any loop: a path that calls nothing (a recursion's base case) links no
  /// frame, and a return the link cannot reach does not unlink it.
  void place_frame_link();
  /// Writes the line being lowered into the frame, where `b` inserts.
  void mark_line(llvm::IRBuilder<>& b);
  /// The recursion depth the frames count: `innermost`'s (the chain's head,
  /// loaded when null), 0 where the chain is empty.
  llvm::Value* chain_depth(llvm::Value* innermost = nullptr);
  /// Before `op`, which an exception may come through: writes its line unless
  /// the frame already holds it (written earlier in the same block, with no
  /// try body since, which writes its own lines into this frame).
  void mark_line_before();
  /// After `op`: forgets the line written when `op` may have written others.
  void after_mark(const ir::Operation& op);
  /// Whether `op` is a call through which an exception may come.
  static bool may_raise_through(const ir::Operation& op);

  absl::Status lower_op(const ir::Operation& op);
  absl::Status lower_arith(const ir::Operation& op);
  absl::Status lower_int_divmod(const ir::Operation& op, llvm::Value* a, llvm::Value* b, bool div);
  llvm::Value* float_floor_div(llvm::Value* a, llvm::Value* b);
  llvm::Value* float_floor_mod(llvm::Value* a, llvm::Value* b);
  absl::Status lower_cast(const ir::Operation& op);
  absl::Status lower_cmp(const ir::Operation& op);
  absl::Status lower_call_extern(const ir::Operation& op);
  /// A call of runtime function `fn`, as its abi.def entry says it is made.
  absl::Status lower_runtime_call(const ir::Operation& op, const runtime::RuntimeFunction& fn);
  /// `core.call {capture_status = true}`: the call made through ppy_rt_try and a thunk.
  absl::Status lower_capture(const ir::Operation& op, llvm::Function* target, const std::vector<llvm::Value*>& args);
  absl::Status lower_math(const ir::Operation& op);
  absl::Status branch_to(const ir::Successor& s, llvm::BasicBlock* from_override = nullptr);
  void leave();
  llvm::Value* element_address(const ir::Operation& op, llvm::Value* buf, llvm::Value* index, ir::Type elem,
                               bool store);
  /// The type of a list's element slot: a bool is held as an i64.
  llvm::Type* list_slot(ir::Type elem) {
    if (elem.kind() == ir::TypeKind::Tuple) return llvm::PointerType::get(ctx(), 0);  // its box
    return elem.kind() == ir::TypeKind::Bool ? static_cast<llvm::Type*>(i64()) : m_.type(elem);
  }
  /// A tuple in a list is a box of its leaves, one 8-byte slot each, nested
  /// tuples flattened, a bool as 0 or 1 (docs/runtime.md, "Lists").
  static int64_t leaves(ir::Type t) {
    if (t.kind() != ir::TypeKind::Tuple) return 1;
    int64_t n = 0;
    for (size_t i = 0; i < t.num_elems(); ++i) n += leaves(t.elem(i));
    return n;
  }
  /// Boxes tuple `v` of type `t` into a fresh ppy_list_box (lower_runtime.cc).
  llvm::Value* box(llvm::Value* v, ir::Type t);
  /// The tuple of type `t` held by box `b`.
  llvm::Value* unbox(llvm::Value* b, ir::Type t);
  /// A list's elements: the pointer in its header, after the length and capacity.
  llvm::Value* list_data(llvm::Value* buf) {
    llvm::Value* field = b_.CreateConstInBoundsGEP1_64(llvm::Type::getInt8Ty(ctx()), buf, 16);
    return list_header(b_.CreateLoad(llvm::PointerType::get(ctx(), 0), field, "data"));
  }
  /// Type-based alias tags: a list header's fields and its elements are never
  /// the same memory (docs/runtime.md, "Lists"), so a loop that stores
  /// elements keeps the length and the element pointer in registers.
  template <typename I>
  I* list_header(I* access) {
    return tag(access, m_.list_tbaa(false));
  }
  template <typename I>
  I* list_element(I* access) {
    return tag(access, m_.list_tbaa(true));
  }
  template <typename I>
  I* tag(I* access, llvm::MDNode* node) {
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(access)) inst->setMetadata(llvm::LLVMContext::MD_tbaa, node);
    return access;
  }

  ModuleLowering& m_;
  const ir::Function& f_;
  llvm::Function* fn_;
  llvm::IRBuilder<> b_;
  llvm::BasicBlock* prologue_ = nullptr;
  std::unordered_map<const ir::Value*, llvm::Value*> values_;
  std::unordered_map<const ir::Block*, llvm::BasicBlock*> blocks_;
  std::unordered_map<const ir::Block*, std::vector<llvm::PHINode*>> phis_;
  std::unordered_map<std::string, llvm::BasicBlock*> raise_blocks_;
  bool counts_depth_ = false;
  bool nameless_frame_ = false;               ///< the frame counts the depth alone (no traceback names it)
  std::vector<llvm::Instruction*> frame_link_;     ///< the stores that link the frame (place_frame_link)
  std::vector<llvm::StoreInst*> frame_unlinks_;    ///< the stores that unlink it, one a return
  llvm::BasicBlock* depth_raise_ = nullptr;        ///< where RecursionError is raised, before the link
  llvm::BasicBlock* prologue_end_ = nullptr;  ///< where the prologue enters the body
  llvm::Value* frame_ = nullptr;              ///< tracebacks: this call's ppy_rt_frame, if it keeps one
  llvm::Value* caller_frame_ = nullptr;       ///< ppy_rt_frames on entry (read back from the prev at returns)
  int64_t line_ = 0;                          ///< the source line of the op being lowered
  bool lazy_frame_ = false;                   ///< the frame is linked only where a guard fails
  const ir::Block* block_ = nullptr;          ///< the IR block being lowered
  const ir::Block* marked_block_ = nullptr;   ///< where the frame's line was last written on the hot path
  int64_t marked_line_ = -1;                  ///< that line (-1: unknown)
};

}  // namespace ppy::llvm_backend
