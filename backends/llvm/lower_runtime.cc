// Canonical IR to LLVM IR: calls of the runtime (declared from its ABI table,
// ppy/runtime/abi.def), calls that capture a raise, and lists' elements.
#include <functional>

#include "lowering.h"

namespace ppy::llvm_backend {

llvm::FunctionCallee ModuleLowering::runtime(const runtime::RuntimeFunction& fn) {
  auto abi_type = [&](runtime::AbiClass c) -> llvm::Type* {
    switch (c) {
      case runtime::AbiClass::kVoid:
        return llvm::Type::getVoidTy(ctx_);
      case runtime::AbiClass::kInt:
        return llvm::Type::getInt64Ty(ctx_);
      case runtime::AbiClass::kBool:
        return llvm::Type::getInt32Ty(ctx_);  // C's int
      case runtime::AbiClass::kDouble:
        return llvm::Type::getDoubleTy(ctx_);
      case runtime::AbiClass::kPointer:
        return llvm::PointerType::get(ctx_, 0);
    }
    return nullptr;
  };
  std::vector<llvm::Type*> params;
  if (fn.has(runtime::kText)) params = {llvm::PointerType::get(ctx_, 0), llvm::Type::getInt64Ty(ctx_)};
  for (size_t i = 0; i < fn.params.size(); ++i) params.push_back(abi_type(fn.param_class(i)));
  auto* ft = llvm::FunctionType::get(abi_type(fn.result_class()), params, false);
  llvm::FunctionCallee callee = module_->getOrInsertFunction(fn.symbol, ft);
  // Every runtime function is C and never unwinds, but only those declared
  // nounwind before the table was read are marked so: the functions without
  // the collector and the two list makers. Marking the rest would be as
  // safe; it would change the generated IR, so it waits for its own change.
  bool nounwind = !fn.has(runtime::kCollector) || fn.symbol == "ppy_list_new_i64" || fn.symbol == "ppy_list_new_f64";
  auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee());
  if (f && nounwind) f->addFnAttr(llvm::Attribute::NoUnwind);
  // What a handler asks of the exception it caught (ppy_exc_name, _message,
  // _args...: no operands, reading the runtime's state only): LLVM drops the
  // calls whose answer nobody reads (issue 35: a handler that neither names
  // nor raises again its exception asked for all five).
  if (f && fn.params.empty() && fn.has(runtime::kReadOnly) && !fn.has(runtime::kRaises)) {
    f->setMemoryEffects(llvm::MemoryEffects::readOnly());
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::WillReturn);
  }
  return callee;
}

// The support functions: what the lowering itself calls, never a
// core.call_extern, so abi.def has no entry for them (the JIT defines them
// from the runtime's own symbol list, compiler/driver/llvm/jit.cc).
llvm::FunctionCallee ModuleLowering::support(std::string_view name) {
  auto* i64 = llvm::Type::getInt64Ty(ctx_);
  auto* f64 = llvm::Type::getDoubleTy(ctx_);
  auto* ptr = llvm::PointerType::get(ctx_, 0);
  auto* void_ = llvm::Type::getVoidTy(ctx_);
  llvm::FunctionType* ft = nullptr;
  if (name == "ppy_rt_raise")  // a failed guard: raises name: message
    ft = llvm::FunctionType::get(void_, {ptr, ptr}, false);
  else if (name == "ppy_float_to_i64")  // an out-of-range float cast: raises as the interpreter does
    ft = llvm::FunctionType::get(i64, {f64}, false);
  else if (name == "tan")  // libm's: LLVM has no tan intrinsic
    ft = llvm::FunctionType::get(f64, {f64}, false);
  else if (name == "ppy_list_box")  // a tuple's box in a list
    ft = llvm::FunctionType::get(ptr, {i64}, false);
  else if (name == "ppy_rt_try")  // a call that captures a raise
    ft = llvm::FunctionType::get(i64, {ptr, ptr}, false);
  assert(ft && "not a support function");
  llvm::FunctionCallee callee = module_->getOrInsertFunction(name, ft);
  auto* fn = llvm::dyn_cast<llvm::Function>(callee.getCallee());
  if (!fn || name == "ppy_list_box" || name == "ppy_rt_try") return callee;  // declared bare, as they always were
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  if (name == "ppy_rt_raise") {
    fn->addFnAttr(llvm::Attribute::NoReturn);
    fn->addFnAttr(llvm::Attribute::Cold);
  }
  if (name == "tan") fn->setMemoryEffects(llvm::MemoryEffects::none());
  return callee;
}

llvm::Value* FunctionLowering::element_address(const ir::Operation& op, llvm::Value* buf, llvm::Value* index,
                                               ir::Type elem, bool store) {
  // The bounds check stays in every mode: an index the frontend has already
  // guarded folds away against its guard.
  llvm::Value* len = list_header(b_.CreateLoad(i64(), buf, "len"));
  const ir::GuardException bounds = ir::guard_exception(ir::GuardKind::Bounds);
  require(b_.CreateICmpULT(index, len), std::string(bounds.exception),
          store ? "list assignment index out of range" : std::string(bounds.message));
  return b_.CreateInBoundsGEP(list_slot(elem), list_data(buf), index);
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
  // A slot's address (an alloca of the prologue) is the same at every call:
  // stored once, in the prologue, not at each iteration of a loop around the
  // try (issue 32). Nothing else writes the frame's arguments.
  for (size_t i = 0; i < args.size(); ++i) {
    auto* a = llvm::dyn_cast<llvm::AllocaInst>(args[i]);
    bool fixed = a && a->getParent() == prologue_;
    llvm::IRBuilder<>& at = fixed ? pb : b_;
    at.CreateStore(args[i], at.CreateStructGEP(frame_t, frame, static_cast<unsigned>(i)));
  }
  llvm::Value* status = b_.CreateCall(m_.support("ppy_rt_try"), {thunk, frame}, "status");
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
  std::string callee = c && c->is<std::string>()     ? c->as_string()
                       : c && c->is<ir::SymbolRef>() ? c->as_symbol().name
                                                     : "";
  if (callee.empty()) return fail(op, "an external call without a callee");
  if (const runtime::RuntimeFunction* fn = runtime::runtime_callee(op)) return lower_runtime_call(op, *fn);
  // Any other C function: declared from the operands and results.
  std::vector<llvm::Value*> args;
  for (const ir::Value* v : op.operands()) args.push_back(value(v));
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

/// The string `text` as the runtime lays a `ppy_str` out (ppy_str.h: its
/// length in bytes, in code points, the bytes and a NUL), one private constant
/// per text and module. Strings are never written after they are made, and the
/// collector leaves pointers outside its heap alone.
static llvm::Constant* literal_str(llvm::Module& module, const std::string& text) {
  std::string name = ".ppy_str." + std::to_string(std::hash<std::string>{}(text));
  llvm::LLVMContext& ctx = module.getContext();
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* bytes = llvm::ConstantDataArray::getString(ctx, text, /*AddNull=*/true);
  for (int k = 0;; ++k) {  // a hash collision takes the next name
    std::string n = k ? name + "." + std::to_string(k) : name;
    if (auto* gv = module.getGlobalVariable(n, /*AllowInternal=*/true)) {
      auto* init = llvm::dyn_cast<llvm::ConstantStruct>(gv->getInitializer());
      if (init && init->getOperand(2) == bytes) return gv;
      continue;
    }
    int64_t code_points = 0;
    for (unsigned char c : text) code_points += (c & 0xC0) != 0x80;
    auto* init = llvm::ConstantStruct::getAnon(
        {llvm::ConstantInt::get(i64, text.size()), llvm::ConstantInt::get(i64, code_points), bytes});
    auto* gv = new llvm::GlobalVariable(module, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, n);
    gv->setAlignment(llvm::Align(16));
    return gv;
  }
}

absl::Status FunctionLowering::lower_runtime_call(const ir::Operation& op, const runtime::RuntimeFunction& fn) {
  if (absl::Status s = runtime::check_runtime_call(fn, op); !s.ok()) return fail(op, std::string(s.message()));
  auto* i32 = llvm::Type::getInt32Ty(ctx());
  std::vector<llvm::Value*> args;
  if (fn.has(runtime::kText)) {  // the text's bytes and length (docs/runtime.md, "Strings")
    const std::string* text = attr_string(op, "text");
    std::string t = text ? *text : "";
    if (fn.symbol == "ppy_str_literal" && op.num_results() == 1) {
      // A literal is a constant ppy_str (issue 35): `op == "push"` in a loop
      // allocated a string on the collector at every test before.
      values_[op.result(0)] = literal_str(m_.module(), t);
      return absl::OkStatus();
    }
    if (t.empty() && fn.symbol == "ppy_print_str") return absl::OkStatus();  // prints nothing
    args = {m_.string(t), llvm::ConstantInt::get(i64(), t.size())};
  }
  for (size_t i = 0; i < op.num_operands(); ++i) {
    llvm::Value* v = value(op.operand(i));
    if (fn.param_class(i) == runtime::AbiClass::kBool) v = b_.CreateZExt(v, i32);
    args.push_back(v);
  }
  llvm::CallInst* call = b_.CreateCall(m_.runtime(fn), args);
  if (!op.num_results()) return absl::OkStatus();
  llvm::Value* r = call;
  if (fn.result_class() == runtime::AbiClass::kBool) r = b_.CreateICmpNE(call, llvm::ConstantInt::get(i32, 0));
  values_[op.result(0)] = r;
  return absl::OkStatus();
}

llvm::Value* FunctionLowering::box(llvm::Value* v, ir::Type t) {
  llvm::Value* b = b_.CreateCall(m_.support("ppy_list_box"), {llvm::ConstantInt::get(i64(), leaves(t))});
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

llvm::Value* FunctionLowering::unbox(llvm::Value* b, ir::Type t) {
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

}  // namespace ppy::llvm_backend
