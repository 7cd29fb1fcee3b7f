// plugins (docs/writing-a-plugin.md, "Lowering"): the IR function of a stub's
// `@ppy.extern("symbol", library="name")` declaration is one call of the C
// symbol, `core.call_extern {abi = "c", callee = "symbol", library = "name"}`;
// a list crosses as its data pointer and its length (two C arguments), a
// scalar as itself. Callers call the function as any other (the optimizer
// inlines it), so a call site needs nothing of its own.
#include "lowerer.h"
#include "plugin_stub.h"

namespace ppy::frontend::checking {

bool lower_extern_function(const FuncInfo& f, const std::string& path, ir::Function* fn) {
  if (!f.def || f.module_code) return false;
  std::optional<ExternDecl> decl = extern_decl(*f.def);
  if (!decl) return false;
  ir::Block* entry = fn->create_entry_block("entry");
  ir::Location at(path, f.def->pos.line, f.def->pos.col);
  auto emit = [&](std::string_view name, std::vector<ir::Value*> ops, std::vector<ir::Type> results,
                  ir::AttrDict attrs) {
    return entry->append(ir::Operation::create(name, std::move(ops), results, std::move(attrs), at));
  };
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
  std::vector<ir::Type> results;
  if (f.result != Ty::None) results.push_back(lowering::ir_type(f.result));
  ir::Operation* call = emit("core.call_extern", std::move(args), results, std::move(attrs));
  std::vector<ir::Value*> ret;
  if (!results.empty()) ret.push_back(call->result(0));
  emit("core.ret", std::move(ret), {}, {});
  return true;
}

}  // namespace ppy::frontend::checking
