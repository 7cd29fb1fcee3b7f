// plugins (docs/writing-a-plugin.md, "Lowering"): the IR function of a stub's
// `@ppy.extern("symbol", library="name")` declaration is one call of the C
// symbol, `core.call_extern {abi = "c", callee = "symbol", library = "name"}`;
// a list crosses as its data pointer and its length (two C arguments), a
// scalar as itself. Callers call the function as any other (the optimizer
// inlines it), so a call site needs nothing of its own. A stub's
// `@ppy.op("dialect.name")` function is one op of the plugin's dialect instead,
// its arguments the operands, its result the op's.
#include "lowerer.h"
#include "plugin_stub.h"

namespace ppy::frontend::checking {

bool lower_extern_function(const FuncInfo& f, const std::string& path, ir::Function* fn, ir::Module& mod) {
  if (!f.def || f.module_code) return false;
  std::optional<ExternDecl> decl = extern_decl(*f.def);
  if (!decl) return false;
  ir::Block* entry = fn->create_entry_block("entry");
  ir::Location at(path, f.def->pos.line, f.def->pos.col);
  auto emit = [&](std::string_view name, std::vector<ir::Value*> ops, std::vector<ir::Type> results,
                  ir::AttrDict attrs) {
    return entry->append(ir::Operation::create(name, std::move(ops), results, std::move(attrs), at));
  };
  std::vector<ir::Type> results;
  if (f.result != Ty::None) results.push_back(lowering::ir_type(f.result));
  if (!decl->op.empty()) {  // plugins: an op of the plugin's dialect, its arguments as they are
    std::vector<ir::Value*> operands;
    for (size_t i = 0; i < f.def->params.size(); ++i) {
      operands.push_back(entry->argument(i));
      operands.back()->set_hint(f.def->params[i].name);
    }
    mod.dialects()[decl->op.substr(0, decl->op.find('.'))] = 1;
    ir::Operation* op = emit(decl->op, std::move(operands), results, {});
    emit("core.ret", results.empty() ? std::vector<ir::Value*>{} : std::vector<ir::Value*>{op->result(0)}, {}, {});
    return true;
  }
  std::vector<ir::Value*> args;
  for (size_t i = 0; i < f.def->params.size(); ++i) {
    ir::Value* a = entry->argument(i);
    a->set_hint(f.def->params[i].name);
    Ty t = f.params[i];
    if (is_list(t)) {
      args.push_back(emit("core.buffer_data", {a}, {ir::Type::ptr(lowering::ir_type(elem_of(t)))}, {})->result(0));
      args.push_back(emit("core.buffer_len", {a}, {ir::Type::index()}, {})->result(0));
    } else {
      args.push_back(a);
    }
  }
  ir::AttrDict attrs;
  attrs.set("abi", "c");
  attrs.set("callee", decl->symbol);
  if (!decl->library.empty()) attrs.set("library", decl->library);
  ir::Operation* call = emit("core.call_extern", std::move(args), results, std::move(attrs));
  std::vector<ir::Value*> ret;
  if (!results.empty()) ret.push_back(call->result(0));
  emit("core.ret", std::move(ret), {}, {});
  return true;
}

}  // namespace ppy::frontend::checking

namespace ppy::frontend::checking {
namespace {

/// `q` (`<module>.<func>`) split at its last dot.
std::pair<std::string, std::string> split_qualname(const std::string& q) {
  size_t dot = q.rfind('.');
  if (dot == std::string::npos) return {"", q};
  return {q.substr(0, dot), q.substr(dot + 1)};
}

/// The plain function `name` of `stub` (no method, closure or module code), or null.
const FuncInfo* plain_function(const ModuleInfo& stub, const std::string& name) {
  auto it = stub.func_index.find(name);
  if (it == stub.func_index.end()) return nullptr;
  const FuncInfo& f = stub.funcs[it->second];
  if (!f.def || f.module_code || f.closure || !f.globals.empty() || !f.captures.empty() || !f.cells.empty() ||
      !f.type_args.empty())
    return nullptr;
  return &f;
}

/// Adds `f` and the functions of `stub` it calls to `out` (in call order);
/// false when one of them cannot be copied.
bool closure_of_calls(const ModuleInfo& stub, const FuncInfo& f, std::vector<const FuncInfo*>& out,
                      std::set<std::string>& seen) {
  if (!seen.insert(f.name).second) return true;
  out.push_back(&f);
  for (const std::string& q : f.callees) {
    auto [module, name] = split_qualname(q);
    const FuncInfo* g = module == stub.name ? plain_function(stub, name) : nullptr;
    if (!g || !closure_of_calls(stub, *g, out, seen)) return false;
  }
  return true;
}

/// Calls `fn` with every symbol `a` names (in arrays and dicts too).
void each_symbol(const ir::Attribute& a, const std::function<void(const std::string&)>& fn) {
  if (a.is<ir::SymbolRef>()) fn(a.as_symbol().name);
  if (a.is_array())
    for (const ir::Attribute& e : a.as_array()) each_symbol(e, fn);
  if (a.is_dict())
    for (const auto& [key, e] : a.as_dict()) each_symbol(e, fn);
}

/// Whether every symbol the functions of `scratch` name is one of them or a
/// function of `mod` (a copy made for an earlier call).
bool self_contained(ir::Module& scratch, const ir::Module& mod) {
  bool ok = true;
  for (auto& f : scratch.functions())
    ir::walk(f->body(), [&](const ir::Operation& op) {
      for (const auto& [key, a] : op.attributes())
        each_symbol(a, [&](const std::string& name) { ok &= scratch.function(name) || mod.function(name); });
    });
  return ok;
}

}  // namespace

void copy_stub_functions(const ModuleInfo& m, const ModuleInterfaces& all, const StubModules& stubs, ir::Module& mod) {
  for (const std::string& q : m.externals) {
    auto [module, name] = split_qualname(q);
    auto stub = stubs.find(module);
    if (stub == stubs.end() || stub->first == m.name) continue;
    const FuncInfo* f = plain_function(*stub->second, name);
    if (!f || mod.function(symbol_name(module, name))) continue;
    std::vector<const FuncInfo*> needed;
    std::set<std::string> seen;
    if (!closure_of_calls(*stub->second, *f, needed, seen)) continue;
    ir::Module scratch(m.name);
    for (const FuncInfo* g : needed)
      if (!mod.function(symbol_name(module, g->name))) lower_function(*stub->second, *g, scratch, all);
    if (!self_contained(scratch, mod)) continue;
    for (auto& [dialect, version] : scratch.dialects()) mod.dialects()[dialect] = version;
    for (auto& fn : scratch.functions()) {
      fn->set_visibility(ir::Visibility::Private);
      mod.add_function(std::move(fn));
    }
  }
}

}  // namespace ppy::frontend::checking
