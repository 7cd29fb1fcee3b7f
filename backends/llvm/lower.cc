// Canonical IR to LLVM IR (docs/runtime.md is the contract this follows).
#include "lower.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "ppy/ir/core_ops.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::llvm_backend {
namespace {

using ir::TypeKind;

constexpr uint32_t kLikely = 2000;  // branch weights: a guard fails once, if ever
constexpr uint32_t kUnlikely = 1;

std::string where(const ir::Operation& op) {
  return op.loc() ? str_cat(" at ", op.loc()->str()) : std::string();
}

const std::string* attr_string(const ir::Operation& op, std::string_view key) {
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
      case TypeKind::Bool: return llvm::Type::getInt1Ty(ctx_);
      case TypeKind::I64:
      case TypeKind::Index: return llvm::Type::getInt64Ty(ctx_);
      case TypeKind::F64: return llvm::Type::getDoubleTy(ctx_);
      case TypeKind::Ptr:
      case TypeKind::Buffer: return llvm::PointerType::get(ctx_, 0);
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

  /// A runtime function, declared on first use.
  llvm::FunctionCallee runtime(std::string_view name) {
    auto* i64 = llvm::Type::getInt64Ty(ctx_);
    auto* f64 = llvm::Type::getDoubleTy(ctx_);
    auto* i32 = llvm::Type::getInt32Ty(ctx_);
    auto* ptr = llvm::PointerType::get(ctx_, 0);
    auto* void_ = llvm::Type::getVoidTy(ctx_);
    static const std::map<std::string, int, std::less<>> kIds = {
        {"ppy_print_i64", 0}, {"ppy_print_f64", 1},    {"ppy_print_bool", 2},   {"ppy_print_str", 3},
        {"ppy_print_space", 4}, {"ppy_print_newline", 5}, {"ppy_list_new_i64", 6}, {"ppy_list_new_f64", 7},
        {"ppy_pow_i64", 8},   {"ppy_rt_raise", 9},     {"ppy_list_mark", 10},   {"ppy_list_release", 11},
        {"ppy_rt_enter", 12}, {"ppy_rt_leave", 13},    {"ppy_float_to_i64", 14}, {"tan", 15},
    };
    llvm::FunctionType* ft = nullptr;
    switch (kIds.at(std::string(name))) {
      case 0: ft = llvm::FunctionType::get(void_, {i64}, false); break;
      case 1: ft = llvm::FunctionType::get(void_, {f64}, false); break;
      case 2: ft = llvm::FunctionType::get(void_, {i32}, false); break;
      case 3: ft = llvm::FunctionType::get(void_, {ptr, i64}, false); break;
      case 4:
      case 5:
      case 12:
      case 13: ft = llvm::FunctionType::get(void_, {}, false); break;
      case 6:
      case 7: ft = llvm::FunctionType::get(ptr, {i64}, false); break;
      case 8: ft = llvm::FunctionType::get(i64, {i64, i64}, false); break;
      case 9: ft = llvm::FunctionType::get(void_, {ptr, ptr}, false); break;
      case 10: ft = llvm::FunctionType::get(i64, {}, false); break;
      case 11: ft = llvm::FunctionType::get(void_, {i64}, false); break;
      case 14: ft = llvm::FunctionType::get(i64, {f64}, false); break;
      case 15: ft = llvm::FunctionType::get(f64, {f64}, false); break;
    }
    llvm::FunctionCallee callee = module_->getOrInsertFunction(name, ft);
    if (auto* fn = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      fn->addFnAttr(llvm::Attribute::NoUnwind);
      if (name == "ppy_rt_raise") {
        fn->addFnAttr(llvm::Attribute::NoReturn);
        fn->addFnAttr(llvm::Attribute::Cold);
      }
      if (name == "tan") fn->setMemoryEffects(llvm::MemoryEffects::none());
    }
    return callee;
  }

  /// A private constant holding `text` and a NUL (text may hold NULs too).
  llvm::Constant* string(const std::string& text) {
    auto it = strings_.find(text);
    if (it != strings_.end()) return it->second;
    auto* init = llvm::ConstantDataArray::getString(ctx_, text, /*AddNull=*/true);
    auto* gv = new llvm::GlobalVariable(*module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                        ".str");
    gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    gv->setAlignment(llvm::Align(1));
    strings_.emplace(text, gv);
    return gv;
  }

  llvm::Function* function(const std::string& name) { return functions_.at(name); }

  /// The runtime's `ppy_rt_depth` (calls of recursive functions under way).
  llvm::GlobalVariable* depth() {
    if (auto* g = module_->getGlobalVariable("ppy_rt_depth")) return g;
    return new llvm::GlobalVariable(*module_, llvm::Type::getInt64Ty(ctx_), false, llvm::GlobalValue::ExternalLinkage,
                                    nullptr, "ppy_rt_depth");
  }
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
  FunctionLowering(ModuleLowering& m, const ir::Function& f)
      : m_(m), f_(f), fn_(m.function(f.name())), b_(m.ctx()) {}

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
    std::string key = name + '\0' + message;
    auto it = raise_blocks_.find(key);
    if (it != raise_blocks_.end()) return it->second;
    auto* bb = llvm::BasicBlock::Create(ctx(), "raise", fn_);
    llvm::IRBuilder<> rb(bb);
    auto* call = rb.CreateCall(m_.runtime("ppy_rt_raise"), {m_.string(name), m_.string(message)});
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

  absl::Status lower_op(const ir::Operation& op);
  absl::Status lower_arith(const ir::Operation& op);
  absl::Status lower_int_divmod(const ir::Operation& op, llvm::Value* a, llvm::Value* b, bool div);
  llvm::Value* float_floor_div(llvm::Value* a, llvm::Value* b);
  llvm::Value* float_floor_mod(llvm::Value* a, llvm::Value* b);
  absl::Status lower_cast(const ir::Operation& op);
  absl::Status lower_cmp(const ir::Operation& op);
  absl::Status lower_call_extern(const ir::Operation& op);
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
  llvm::Value* box(llvm::Value* v, ir::Type t) {
    auto* ptr = llvm::PointerType::get(ctx(), 0);
    llvm::FunctionCallee fc =
        m_.module().getOrInsertFunction("ppy_list_box", llvm::FunctionType::get(ptr, {i64()}, false));
    llvm::Value* b = b_.CreateCall(fc, {llvm::ConstantInt::get(i64(), leaves(t))});
    int64_t k = 0;
    std::function<void(llvm::Value*, ir::Type)> put = [&](llvm::Value* x, ir::Type m) {
      if (m.kind() == ir::TypeKind::Tuple) {
        for (size_t i = 0; i < m.num_elems(); ++i) put(b_.CreateExtractValue(x, {static_cast<unsigned>(i)}), m.elem(i));
        return;
      }
      if (m.kind() == ir::TypeKind::Bool) x = b_.CreateZExt(x, i64());
      b_.CreateStore(x, b_.CreateConstInBoundsGEP1_64(i64(), b, static_cast<uint64_t>(k++)));
    };
    put(v, t);
    return b;
  }
  llvm::Value* unbox(llvm::Value* b, ir::Type t) {
    int64_t k = 0;
    std::function<llvm::Value*(ir::Type)> get = [&](ir::Type m) -> llvm::Value* {
      if (m.kind() == ir::TypeKind::Tuple) {
        llvm::Value* agg = llvm::UndefValue::get(m_.type(m));
        for (size_t i = 0; i < m.num_elems(); ++i)
          agg = b_.CreateInsertValue(agg, get(m.elem(i)), {static_cast<unsigned>(i)});
        return agg;
      }
      llvm::Value* at = b_.CreateConstInBoundsGEP1_64(i64(), b, static_cast<uint64_t>(k++));
      if (m.kind() == ir::TypeKind::Bool)
        return b_.CreateICmpNE(b_.CreateLoad(i64(), at), llvm::ConstantInt::get(i64(), 0));
      return b_.CreateLoad(m_.type(m), at);
    };
    return get(t);
  }
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
  llvm::Value* depth_ = nullptr;                ///< ppy_rt_depth on entry
  llvm::BasicBlock* prologue_end_ = nullptr;    ///< where the prologue enters the body
};

absl::Status FunctionLowering::run() {
  // The prologue holds the allocas (so SROA promotes them), the list mark and
  // the depth count, then enters the IR's entry block with the parameters.
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
  counts_depth_ = m_.recursive(f_.name());
  if (counts_depth_) {
    // ppy_rt_depth + 1, raising RecursionError past Python's limit; every
    // return puts back the value read here.
    depth_ = b_.CreateLoad(i64(), m_.depth(), "depth");
    llvm::Value* deeper = b_.CreateAdd(depth_, llvm::ConstantInt::get(i64(), 1));
    require(b_.CreateICmpSLE(deeper, llvm::ConstantInt::get(i64(), 1000)), "RecursionError",
            "maximum recursion depth exceeded");
    b_.CreateStore(deeper, m_.depth());
    prologue_end_ = b_.GetInsertBlock();
  }
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
  if (!prologue_end_) prologue_end_ = prologue_;
  {
    auto& phis = phis_[entry];
    for (size_t i = 0; i < phis.size(); ++i)
      phis[i]->addIncoming(fn_->getArg(static_cast<unsigned>(i)), prologue_end_);
  }

  // Blocks in reverse post-order, so every value is lowered before its uses.
  // (Iterative: a function may have tens of thousands of blocks.)
  std::vector<const ir::Block*> order;
  std::unordered_set<const ir::Block*> seen{entry};
  std::vector<std::pair<const ir::Block*, size_t>> stack{{entry, 0}};
  while (!stack.empty()) {
    auto& [blk, next] = stack.back();
    const ir::Operation* t = blk->terminator();
    if (t && next < t->successors().size()) {
      const ir::Block* s = t->successors()[next++].block;
      if (seen.insert(s).second) stack.push_back({s, 0});
      continue;
    }
    order.push_back(blk);
    stack.pop_back();
  }
  std::reverse(order.begin(), order.end());
  for (const ir::Block* blk : order) {
    b_.SetInsertPoint(blocks_[blk]);
    for (auto& op : blk->operations()) PPY_RETURN_IF_ERROR(lower_op(*op));
  }
  // Blocks no path reaches are not lowered at all.
  for (auto& blk : f_.body().blocks())
    if (!seen.count(blk.get())) {
      llvm::BasicBlock* bb = blocks_[blk.get()];
      for (auto* phi : phis_[blk.get()]) phi->replaceAllUsesWith(llvm::PoisonValue::get(phi->getType()));
      bb->eraseFromParent();
    }
  // The prologue's allocas go before its branch.
  (void)into_entry;
  return absl::OkStatus();
}

void FunctionLowering::leave() {
  if (depth_) b_.CreateStore(depth_, m_.depth());
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

llvm::Value* FunctionLowering::element_address(const ir::Operation& op, llvm::Value* buf, llvm::Value* index,
                                               ir::Type elem, bool store) {
  // The bounds check stays in every mode: an index the frontend has already
  // guarded folds away against its guard.
  llvm::Value* len = list_header(b_.CreateLoad(i64(), buf, "len"));
  require(b_.CreateICmpULT(index, len), "IndexError",
          store ? "list assignment index out of range" : "list index out of range");
  return b_.CreateInBoundsGEP(list_slot(elem), list_data(buf), index);
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
      return set(b_.CreateLoad(rlt, args[0]));
    }
    case ir::CoreOp::Store: {
      b_.CreateStore(args[0], args[1]);
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
    default:
      break;
  }
  if (op.dialect() == "math") return lower_math(op);
  return fail(op, "an op this backend does not lower");
}

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
  if (rt.kind() != TypeKind::I64 && rt.kind() != TypeKind::Index)
    return fail(op, str_cat("arithmetic on ", rt.str()));
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
  require(b_.CreateICmpNE(b, zero), "ZeroDivisionError",
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
    b_.CreateCall(m_.runtime("ppy_float_to_i64"), {v});
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

// The arguments go into a frame (an alloca in the prologue), a thunk of the
// callee reads them, calls it and stores its results there, and the runtime's
// ppy_rt_try runs the thunk under its trap: status 0, or 1 when it raised
// (docs/runtime.md, "Exceptions"). No setjmp in generated code.
absl::Status FunctionLowering::lower_capture(const ir::Operation& op, llvm::Function* target,
                                             const std::vector<llvm::Value*>& args) {
  auto* ptr = llvm::PointerType::get(ctx(), 0);
  std::vector<llvm::Type*> fields;
  for (auto* a : args) fields.push_back(a->getType());
  llvm::Type* rt = target->getReturnType();
  bool has_result = !rt->isVoidTy();
  if (has_result) fields.push_back(rt);
  auto* frame_t = llvm::StructType::get(ctx(), fields);
  std::string thunk_name = str_cat(target->getName().str(), ".try_thunk");
  llvm::Function* thunk = m_.module().getFunction(thunk_name);
  if (!thunk) {
    thunk = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx()), {ptr}, false),
                                   llvm::GlobalValue::InternalLinkage, thunk_name, m_.module());
    thunk->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilder<> tb(llvm::BasicBlock::Create(ctx(), "entry", thunk));
    std::vector<llvm::Value*> in;
    for (size_t i = 0; i < args.size(); ++i)
      in.push_back(tb.CreateLoad(fields[i], tb.CreateStructGEP(frame_t, thunk->getArg(0), static_cast<unsigned>(i))));
    llvm::CallInst* c = tb.CreateCall(target, in);
    c->setAttributes(target->getAttributes());
    if (has_result)
      tb.CreateStore(c, tb.CreateStructGEP(frame_t, thunk->getArg(0), static_cast<unsigned>(args.size())));
    tb.CreateRetVoid();
  }
  llvm::IRBuilder<> pb(prologue_->getTerminator());
  llvm::Value* frame = pb.CreateAlloca(frame_t, nullptr, "try.frame");
  for (size_t i = 0; i < args.size(); ++i)
    b_.CreateStore(args[i], b_.CreateStructGEP(frame_t, frame, static_cast<unsigned>(i)));
  llvm::FunctionCallee run =
      m_.module().getOrInsertFunction("ppy_rt_try", llvm::FunctionType::get(i64(), {ptr, ptr}, false));
  llvm::Value* status = b_.CreateCall(run, {thunk, frame}, "status");
  size_t n = op.num_results();
  if (n == 0) return fail(op, "a capture_status call without its status");
  if (has_result) {
    llvm::Value* r = b_.CreateLoad(rt, b_.CreateStructGEP(frame_t, frame, static_cast<unsigned>(args.size())));
    if (n != 2) return fail(op, "a capture_status call of a function with several results");
    values_[op.result(0)] = r;
  }
  values_[op.result(n - 1)] = status;
  return absl::OkStatus();
}

absl::Status FunctionLowering::lower_call_extern(const ir::Operation& op) {
  const ir::Attribute* c = op.attr("callee");
  std::string callee = c && c->is<std::string>() ? c->as_string() : c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
  if (callee.empty()) return fail(op, "an external call without a callee");
  std::vector<llvm::Value*> args;
  for (const ir::Value* v : op.operands()) args.push_back(value(v));
  if (callee == "ppy_print_str") {
    const std::string* text = attr_string(op, "text");
    std::string t = text ? *text : "";
    if (t.empty()) return absl::OkStatus();
    b_.CreateCall(m_.runtime(callee), {m_.string(t), llvm::ConstantInt::get(i64(), t.size())});
    return absl::OkStatus();
  }
  if (callee == "ppy_str_literal") {  // the text's bytes and length (docs/runtime.md, "Strings")
    const std::string* text = attr_string(op, "text");
    std::string t = text ? *text : "";
    if (op.num_results() != 1) return fail(op, "ppy_str_literal without its result");
    auto* ptr = llvm::PointerType::get(ctx(), 0);
    auto* ft = llvm::FunctionType::get(ptr, {ptr, i64()}, false);
    llvm::FunctionCallee fc = m_.module().getOrInsertFunction(callee, ft);
    values_[op.result(0)] = b_.CreateCall(fc, {m_.string(t), llvm::ConstantInt::get(i64(), t.size())});
    return absl::OkStatus();
  }
  if (callee == "ppy_print_bool") {
    if (args.size() != 1) return fail(op, "ppy_print_bool without its operand");
    b_.CreateCall(m_.runtime(callee), {b_.CreateZExt(args[0], llvm::Type::getInt32Ty(ctx()))});
    return absl::OkStatus();
  }
  if (is_runtime_function(callee)) {
    llvm::FunctionCallee fc = m_.runtime(callee);
    if (fc.getFunctionType()->getNumParams() != args.size())
      return fail(op, str_cat(callee, " with ", args.size(), " operands"));
    for (size_t i = 0; i < args.size(); ++i)
      if (fc.getFunctionType()->getParamType(static_cast<unsigned>(i)) != args[i]->getType())
        return fail(op, str_cat(callee, " with an operand of the wrong type"));
    llvm::CallInst* call = b_.CreateCall(fc, args);
    if (op.num_results()) {
      if (call->getType() != m_.type(op.result(0)->type())) return fail(op, str_cat(callee, " with the wrong result"));
      values_[op.result(0)] = call;
    }
    return absl::OkStatus();
  }
  // Any other C function: declared from the operands and results.
  if (const std::string* abi = attr_string(op, "abi"); abi && *abi != "c")
    return fail(op, str_cat("an external call of abi '", *abi, "'"));
  std::vector<llvm::Type*> params;
  for (auto* a : args) params.push_back(a->getType());
  llvm::Type* result = op.num_results() ? m_.type(op.result(0)->type()) : llvm::Type::getVoidTy(ctx());
  auto* ft = llvm::FunctionType::get(result, params, false);
  llvm::FunctionCallee fc = m_.module().getOrInsertFunction(callee, ft);
  if (fc.getFunctionType() != ft) return fail(op, str_cat(callee, " called with two signatures"));
  llvm::CallInst* call = b_.CreateCall(fc, args);
  if (op.num_results()) values_[op.result(0)] = call;
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
      values_[op.result(0)] = b_.CreateCall(m_.runtime("tan"), {a});
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

absl::Status ModuleLowering::declare_functions() {
  for (auto& f : ir_.functions()) {
    std::vector<llvm::Type*> params;
    for (auto& p : f->params()) {
      llvm::Type* t = type(p.type);
      if (!t)
        return coded_error("E1802",
                           str_cat("backend 'llvm' cannot take a parameter of type ", p.type.str(), " in @", f->name()),
                           absl::StatusCode::kInvalidArgument);
      params.push_back(t);
    }
    if (f->results().size() > 1)
      return coded_error("E1802", str_cat("backend 'llvm' cannot take @", f->name(), ": it returns several values"),
                         absl::StatusCode::kInvalidArgument);
    llvm::Type* result = f->results().empty() ? llvm::Type::getVoidTy(ctx_) : type(f->results()[0]);
    if (!result)
      return coded_error(
          "E1802", str_cat("backend 'llvm' cannot take a result of type ", f->results()[0].str(), " in @", f->name()),
          absl::StatusCode::kInvalidArgument);
    auto* ft = llvm::FunctionType::get(result, params, false);
    auto linkage = f->visibility() == ir::Visibility::Private && !f->is_declaration()
                       ? llvm::GlobalValue::InternalLinkage
                       : llvm::GlobalValue::ExternalLinkage;
    auto* fn = llvm::Function::Create(ft, linkage, f->name(), *module_);
    if (fn->getName() != f->name())
      return coded_error(
          "E1802", str_cat("backend 'llvm' cannot take @", f->name(), ": its symbol clashes with a runtime function"),
          absl::StatusCode::kInvalidArgument);
    for (size_t i = 0; i < f->params().size(); ++i)
      if (!f->params()[i].name.empty()) fn->getArg(static_cast<unsigned>(i))->setName(f->params()[i].name);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    // `@ppy.opt(0)`: LLVM leaves the function as lowered (optnone needs noinline).
    if (const ir::Attribute* o = f->attributes().get("ppy.opt_level");
        o && o->is<int64_t>() && o->as_int() == 0 && !f->is_declaration()) {
      fn->addFnAttr(llvm::Attribute::OptimizeNone);
      fn->addFnAttr(llvm::Attribute::NoInline);
    }
    // bool as C passes it (an exported function is called from C).
    for (unsigned i = 0; i < fn->arg_size(); ++i)
      if (params[i]->isIntegerTy(1)) fn->addParamAttr(i, llvm::Attribute::ZExt);
    if (result->isIntegerTy(1)) fn->addRetAttr(llvm::Attribute::ZExt);
    functions_[f->name()] = fn;
  }
  return absl::OkStatus();
}

absl::Status ModuleLowering::lower_globals() {
  for (auto& [name, g] : ir_.globals()) {
    llvm::Type* t = type(g.type);
    bool handle = g.is_mutable && !g.initializer &&
                  (g.type.kind() == TypeKind::Buffer || (g.type.is_ptr() && g.type.elem().kind() == TypeKind::I8));
    if (!t || ((g.type.kind() == TypeKind::Buffer || g.type.kind() == TypeKind::Ptr) && !handle))
      return coded_error("E1802", str_cat("backend 'llvm' cannot take the global @", name, " of type ", g.type.str()),
                         absl::StatusCode::kInvalidArgument);
    llvm::Constant* init = nullptr;
    if (g.initializer) {
      const ir::Attribute& a = *g.initializer;
      if (g.type.is_float())
        init = llvm::ConstantFP::get(t, a.is<double>() ? a.as_float() : a.is<int64_t>() ? double(a.as_int()) : 0.0);
      else
        init = llvm::ConstantInt::get(t, static_cast<uint64_t>(a.is<bool>() ? a.as_bool() : a.is<int64_t>() ? a.as_int() : 0),
                                      !g.type.is_bool());
    }
    bool external = g.visibility == ir::Visibility::Extern;
    if (!external && !init) init = llvm::Constant::getNullValue(t);
    auto linkage = g.visibility == ir::Visibility::Private ? llvm::GlobalValue::InternalLinkage
                                                            : llvm::GlobalValue::ExternalLinkage;
    new llvm::GlobalVariable(*module_, t, !g.is_mutable, linkage, external ? nullptr : init, name);
  }
  return absl::OkStatus();
}

void ModuleLowering::find_recursive() {
  // Tarjan's strongly connected components over the module's call graph.
  std::unordered_map<std::string, std::vector<std::string>> calls;
  for (auto& f : ir_.functions()) {
    auto& out = calls[f->name()];
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (ir::core_op(op) != ir::CoreOp::Call) return;
      if (const std::string* callee = ir::call_callee(op)) out.push_back(*callee);
    });
  }
  std::unordered_map<std::string, int> index, low;
  std::unordered_set<std::string> on_stack;
  std::vector<std::string> stack;
  int next = 0;
  std::function<void(const std::string&)> connect = [&](const std::string& v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    on_stack.insert(v);
    for (auto& w : calls[v]) {
      if (!calls.count(w)) continue;
      if (!index.count(w)) {
        connect(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] != index[v]) return;
    std::vector<std::string> scc;
    std::string w;
    do {
      w = stack.back();
      stack.pop_back();
      on_stack.erase(w);
      scc.push_back(w);
    } while (w != v);
    bool self = std::find(calls[v].begin(), calls[v].end(), v) != calls[v].end();
    if (scc.size() > 1 || self) recursive_.insert(scc.begin(), scc.end());
  };
  for (auto& f : ir_.functions())
    if (!index.count(f->name())) connect(f->name());
}

absl::StatusOr<std::unique_ptr<llvm::Module>> ModuleLowering::run() {
  PPY_RETURN_IF_ERROR(declare_functions());
  PPY_RETURN_IF_ERROR(lower_globals());
  find_recursive();
  for (auto& f : ir_.functions()) {
    if (f->is_declaration()) continue;
    PPY_RETURN_IF_ERROR(FunctionLowering(*this, *f).run());
    // A function without effects reads and writes no memory: LLVM may hoist,
    // merge or drop its calls. (One counting its depth writes the runtime's.)
    llvm::Function* fn = function(f->name());
    bool calls_runtime = false;
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (ir::core_op(op) == ir::CoreOp::CallExtern) calls_runtime = true;
    });
    if (const ir::Attribute* e = f->attributes().get("ppy.effects");
        e && e->is_array() && !recursive(f->name()) && !calls_runtime) {
      bool pure = true;
      for (auto& x : e->as_array())
        if (!x.is<std::string>() || x.as_string() != "pure") pure = false;
      if (pure) fn->setMemoryEffects(llvm::MemoryEffects::none());
    }
  }
  return std::move(module_);
}

}  // namespace

bool is_runtime_function(std::string_view name) {
  static const std::set<std::string, std::less<>> kNames = {
      "ppy_print_i64",    "ppy_print_f64",     "ppy_print_bool",   "ppy_print_str", "ppy_print_space",
      "ppy_print_newline", "ppy_list_new_i64", "ppy_list_new_f64", "ppy_pow_i64",
  };
  return kNames.count(name) != 0;
}

absl::StatusOr<std::unique_ptr<llvm::Module>> lower_module(const ir::Module& module, llvm::LLVMContext& context,
                                                           const LowerOptions& options) {
  return ModuleLowering(module, context, options).run();
}

}  // namespace ppy::llvm_backend
