// Canonical IR to LLVM IR, the module's part: its functions and globals
// (docs/runtime.md is the contract this follows; lowering.h says which file
// lowers what).
#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "lowering.h"
#include "ppy/ir/trace.h"
#include "ppy/util/status_macros.h"

namespace ppy::llvm_backend {

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
        init = llvm::ConstantInt::get(t,
                                      static_cast<uint64_t>(a.is<bool>()      ? a.as_bool()
                                                            : a.is<int64_t>() ? a.as_int()
                                                                              : 0),
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
  // A call through a function value may reach any function taken as a value.
  std::vector<std::string> values;
  std::vector<std::string> calls_values;
  for (auto& f : ir_.functions()) {
    auto& out = calls[f->name()];
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (ir::core_op(op) == ir::CoreOp::CallIndirect) calls_values.push_back(f->name());
      if (ir::core_op(op) == ir::CoreOp::FuncRef)
        if (const std::string* callee = ir::call_callee(op)) values.push_back(*callee);
      if (ir::core_op(op) != ir::CoreOp::Call) return;
      if (const std::string* callee = ir::call_callee(op)) out.push_back(*callee);
    });
  }
  for (const std::string& f : calls_values) calls[f].insert(calls[f].end(), values.begin(), values.end());
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
  // A recursive function counts its depth in its frame (lower_trace.cc).
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

bool is_runtime_function(std::string_view name) { return runtime::find_runtime_function(name) != nullptr; }

absl::StatusOr<std::unique_ptr<llvm::Module>> lower_module(const ir::Module& module, llvm::LLVMContext& context,
                                                           const LowerOptions& options) {
  return ModuleLowering(module, context, options).run();
}

}  // namespace ppy::llvm_backend