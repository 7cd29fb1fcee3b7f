// IR generation from the checked AST (the conventions are docs/runtime.md): the
// module's globals and functions, and each function's setup; what its body
// lowers to is the lower_*.cc files' (lowerer.h names them).
#include "lower.h"

#include "callable.h"
#include "imported_classes.h"
#include "lowerer.h"
#include "module_vars.h"
#include "plugin_stub.h"
#include "unions.h"

namespace ppy::frontend {
namespace lowering {

Type str_type() { return Type::ptr(Type::scalar(ir::TypeKind::I8)); }

Type ir_type(Ty t) {
  // An object is a handle, `ptr<i8>` like a str's: its fields are reached
  // through the pointer cast to its class's struct (struct_type).
  if (is_class(t) || is_iterator(t)) return str_type();  // a handle (is_iterator: lazy sequences)
  if (is_callable(t)) return str_type();  // a function value: a closure's handle (callable.h)
  // A tuple is a `tuple<...>` of its elements; `T | None` is `tuple<bool, T>`
  // (present, value: a zero value when None); None itself is a false bool.
  if (is_tuple(t)) {
    std::vector<Type> members;
    for (Ty e : tuple_elems(t)) members.push_back(ir_type(e));
    return Type::tuple(members);
  }
  if (is_optional(t)) return Type::tuple({Type::i1(), ir_type(optional_inner(t))});
  if (is_union(t)) {  // issue 32: (tag, alternatives...) (lower_union.cc)
    std::vector<Type> members{Type::i64()};
    for (Ty e : union_alts(t)) members.push_back(ir_type(e));
    return Type::tuple(members);
  }
  if (is_none_value(t)) return Type::i1();
  if (is_list(t)) return Type::buffer(ir_type(list_elem(t)));
  if (is_dict(t) || is_set(t)) return str_type();  // a handle to the runtime's table (ppy_dict.h)
  switch (t) {
    case Ty::Int:
      return Type::i64();
    case Ty::Float:
      return Type::f64();
    case Ty::Bool:
      return Type::i1();
    case Ty::ListInt:
      return Type::buffer(Type::i64());
    case Ty::ListFloat:
      return Type::buffer(Type::f64());
    case Ty::PtrInt:
      return Type::ptr(Type::i64());
    case Ty::PtrFloat:
      return Type::ptr(Type::f64());
    case Ty::ConstPtrInt:
      return Type::ptr(Type::i64(), "generic", true);
    case Ty::ConstPtrFloat:
      return Type::ptr(Type::f64(), "generic", true);
    case Ty::Str:
      return str_type();
    case Ty::Exc:
      // (class name, message, instance of an exception class or null, classes: ppy_exc_classes,
      // the repr of a builtin one's args tuple or "": ppy_exc_args)
      return Type::tuple({str_type(), str_type(), str_type(), str_type(), str_type()});
    case Ty::File:  // io (issue 33): a stream's handle
      return str_type();
    default:
      return Type::void_();
  }
}

Type struct_type(Ty cls) {
  const ClassInfo& c = *class_info(cls);
  std::vector<std::pair<std::string, Type>> fields{{"__tid", Type::i64()}};
  for (auto& [n, t] : c.fields) fields.emplace_back(n, ir_type(t));
  return Type::struct_(c.name, fields);
}

int64_t object_bytes(Type t) {
  if (t.kind() == ir::TypeKind::Tuple) {
    int64_t n = 0;
    for (size_t i = 0; i < t.num_elems(); ++i) n += object_bytes(t.elem(i));
    return n;
  }
  if (t.kind() == ir::TypeKind::Struct) {
    int64_t n = 0;
    for (auto& f : t.storage()->fields) n += object_bytes(Type(f.type));
    return n;
  }
  return 8;
}

AttrArray effects_attr(const std::set<std::string>& effects) {
  AttrArray a;
  if (effects.empty()) a.emplace_back("pure");
  for (auto& e : effects) a.emplace_back(e);
  return a;
}

void FunctionLowerer::run() {
  if (is_generator(f_)) return gen_run();  // lazy sequences: a generator
  if (checking::lower_extern_function(f_, m_.path, fn_, mod_)) return;  // plugins: a stub's extern (lower_extern.cc)
  Block* entry = fn_->create_entry_block("entry");
  cur_ = entry;
  Pos p = f_.def->pos;
  size_t first = f_.closure ? 1 : 0;  // a closure's function takes the closure first (lower_closure.cc)
  if (f_.closure) entry->argument(0)->set_hint("closure");
  for (size_t i = 0; i < f_.def->params.size(); ++i)
    entry->argument(first + i)->set_hint(f_.def->params[i].name);
  cells_ = f_.cells;
  for (auto& [name, ty] : f_.locals) {
    if (ty == Ty::Error) continue;
    if (f_.module_code && m_.shared_vars.count(name)) {
      global_slot(name, ty, p);
      // A str, a container or a tuple of them in a global: a root of the collector
      // from the start (docs/runtime.md, "Module variables used by functions").
      if (is_tuple(ty)) {
        if (int words = rooted_words(ty))
          call_extern("ppy_list_root_words", {slots_.at(name), const_i64(words, p)}, p);
      } else if (rooted_words(ty) || is_class(ty)) {
        call_extern("ppy_list_root", {slots_.at(name)}, p);
      }
      continue;
    }
    slots_[name] = emit("core.alloca", {}, {Type::ptr(is_cell(name) ? str_type() : ir_type(ty), "stack")}, {}, p);
    slots_[name]->set_hint((name[0] == '.' ? name.substr(1) : name) + (is_cell(name) ? "_cell" : "_slot"));
    slot_ty_[name] = ty;
    stack_slots_.push_back(name);
  }
  for (auto& [name, ty] : f_.globals)
    if (ty != Ty::Error) global_slot(name, ty, p);
  if (!cells_.empty() || f_.closure) closure_entry(p);
  for (size_t i = 0; i < f_.def->params.size(); ++i)
    store_local(f_.def->params[i].name, entry->argument(first + i), f_.def->params[i].pos);
  // The entry's code runs after the code of every module it imports.
  if (f_.module_code)
    for (const std::string& mod : m_.init_order)
      emit("core.call", {}, {}, {{"callee", SymbolRef{symbol_name(mod, "__init__")}}}, p);
  block(f_.def->body);
  if (!terminated()) {
    if (f_.result == Ty::None)
      emit("core.ret", {}, {}, {}, end_pos());
    else
      emit("core.unreachable", {}, {}, {}, end_pos());
  }
}

Pos FunctionLowerer::end_pos() const {
  const auto& b = f_.def->body;
  return b.empty() ? f_.def->pos : b.back()->pos;
}

}  // namespace lowering

using lowering::effects_attr;
using lowering::ir_type;
using lowering::Type;

std::string symbol_name(const std::string& module, const std::string& func) {
  std::string s = module;
  for (char& c : s)
    if (c == '.') c = '_';
  // A method `Class.m` is `<module>_Class__m`.
  std::string f = func;
  // generics: an instantiation `first[int]` is `<module>_first_G_int` (docs/ir.md).
  if (f.find('[') != std::string::npos) {
    std::string g;
    int depth = 0;
    for (char c : f) {
      if (c == '[') {
        g += depth++ == 0 ? "_G_" : "_L";
      } else if (c == ']') {
        if (--depth > 0) g += "_R";
      } else if (depth == 0) {
        g += c;
      } else if (c == ',') {
        g += "_C";
      } else if (c == '|') {
        g += "_U";
      } else if (c == '.') {
        g += "_D";
      } else if (c != ' ') {
        g += c;
      }
    }
    f = g;
  }
  if (size_t dot = f.find('.'); dot != std::string::npos) f.replace(dot, 1, "__");
  if (checking::is_stub_module(module)) return s + "_P_" + f;  // plugins: never a C symbol's name (plugin_stub.h)
  return s + "_" + f;
}

ir::Function* lower_function(const ModuleInfo& m, const FuncInfo& f, ir::Module& mod, const ModuleInterfaces& all) {
  std::vector<ir::Param> params;
  if (f.closure) params.push_back({lowering::str_type(), {}, "closure"});
  for (size_t i = 0; i < f.params.size(); ++i) params.push_back({ir_type(f.params[i]), {}, f.def->params[i].name});
  std::vector<Type> results;
  if (f.result != Ty::None) results.push_back(ir_type(f.result));
  auto fn = std::make_unique<ir::Function>(symbol_name(m.name, f.name), std::move(params), std::move(results));
  fn->set_loc(ir::Location(m.path, f.def->pos.line, f.def->pos.col));
  fn->attributes().set("ppy.qualname", m.name + "." + f.name);
  // A nested def's or a lambda's symbol names its outer function too; its
  // frame is `in inner` / `in <lambda>` in python3's traceback (co_name).
  if (f.closure && f.def) fn->attributes().set("ppy.frame_name", f.def->name);
  // The lazy helpers (lazy_values.cc) are map()'s and a generator expression's loop: no frame of Python's.
  if (f.name.starts_with("__ppy_")) fn->attributes().set("ppy.frame_name", "");
  fn->attributes().set("ppy.effects", effects_attr(f.effects));
  if (f.exported) fn->attributes().set("ppy.export", true);
  if (f.xla_jit) fn->attributes().set("xla.jit", true);
  if (f.opt_level >= 0) fn->attributes().set("ppy.opt_level", int64_t{f.opt_level});
  if (f.closure) fn->set_visibility(ir::Visibility::Private);
  if (!f.gpu_kind.empty()) {
    fn->attributes().set("gpu.kind", f.gpu_kind);
    mod.dialects()["gpu"] = 1;
  }
  ir::Function* raw = mod.add_function(std::move(fn));
  lowering::FunctionLowerer(m, f, raw, mod, all).run();
  return raw;
}

void declare_foreign(ir::Module& mod, const std::string& module, const FuncInfo& f) {
  if (mod.function(symbol_name(module, f.name))) return;
  std::vector<ir::Param> params;
  for (size_t i = 0; i < f.params.size(); ++i) params.push_back({ir_type(f.params[i]), {}, f.def->params[i].name});
  std::vector<Type> results;
  if (f.result != Ty::None) results.push_back(ir_type(f.result));
  auto fn = std::make_unique<ir::Function>(symbol_name(module, f.name), std::move(params), std::move(results));
  fn->set_visibility(ir::Visibility::Extern);
  fn->attributes().set("ppy.external", true);
  fn->attributes().set("ppy.qualname", module + "." + f.name);
  fn->attributes().set("ppy.module", module);  // the qualname's module part has the class's name too
  fn->attributes().set("ppy.effects", effects_attr(f.effects));
  mod.add_function(std::move(fn));
}

std::unique_ptr<ir::Module> lower_to_ir(const ModuleInfo& m, const ModuleInterfaces& all, const StubModules* stubs) {
  auto mod = std::make_unique<ir::Module>(m.name);
  for (const std::string& name : m.const_order) {
    const ConstInfo& c = m.consts.at(name);
    if (c.ty == Ty::Str) continue;  // inlined at every use (a literal); no global
    ir::Global g;
    g.name = symbol_name(m.name, name);
    g.type = ir_type(c.ty);
    g.initializer = c.ty == Ty::Int ? ir::Attribute(c.i) : c.ty == Ty::Float ? ir::Attribute(c.f) : ir::Attribute(c.b);
    mod->globals()[g.name] = g;
  }
  // Module variables that functions use: mutable globals, zero until the
  // module's code assigns them (it does before any function can run).
  for (const std::string& name : m.shared_vars) {
    auto t = m.module_var_types.find(name);
    if (t == m.module_var_types.end() || t->second == Ty::Error) continue;
    ir::Global g;
    g.name = symbol_name(m.name, name);
    g.type = ir_type(t->second);
    g.visibility = ir::Visibility::Private;
    g.is_mutable = true;
    // A str or a list starts null (no initializer): module code assigns it first.
    if (t->second == Ty::Int || t->second == Ty::Float || t->second == Ty::Bool)
      g.initializer = t->second == Ty::Int     ? ir::Attribute(int64_t{0})
                      : t->second == Ty::Float ? ir::Attribute(0.0)
                                               : ir::Attribute(false);
    mod->globals()[g.name] = g;
  }
  std::vector<const FuncInfo*> funcs;
  for (const FuncInfo& f : m.funcs) funcs.push_back(&f);
  for (const FuncInfo& f : m.closures) funcs.push_back(&f);  // nested defs and lambdas (callable.h)
  for (const FuncInfo* fp : funcs) lower_function(m, *fp, *mod, all);
  if (stubs) checking::copy_stub_functions(m, all, *stubs, *mod);  // plugins: inlinable stub bodies (lower_extern.cc)
  lowering::lower_value_entries(m, *mod);
  for (const std::string& q : m.externals) {
    auto [mn, fname] = checking::split_callee(q, all);
    if (const FuncInfo* f = checking::foreign_method(q, all)) {  // a method of an imported class
      declare_foreign(*mod, mn, *f);
      continue;
    }
    auto mi = all.find(mn);
    if (mi == all.end()) continue;
    auto fi = mi->second.functions.find(fname);
    if (fi == mi->second.functions.end()) continue;
    if (mod->function(symbol_name(mn, fname))) continue;  // plugins: a stub's function copied in
    const FuncSignature& s = fi->second;
    std::vector<ir::Param> params;
    for (size_t i = 0; i < s.param_types.size(); ++i)
      params.push_back({ir_type(ty_from_name(s.param_types[i])), {}, s.param_names[i]});
    std::vector<Type> results;
    Ty rt = ty_from_name(s.result_type);
    if (rt != Ty::None) results.push_back(ir_type(rt));
    auto fn = std::make_unique<ir::Function>(symbol_name(mn, fname), std::move(params), std::move(results));
    fn->set_visibility(ir::Visibility::Extern);
    fn->attributes().set("ppy.external", true);
    fn->attributes().set("ppy.qualname", q);
    fn->attributes().set("ppy.effects", effects_attr(std::set<std::string>(s.effects.begin(), s.effects.end())));
    if (!s.gpu_kind.empty()) fn->attributes().set("gpu.kind", s.gpu_kind);
    mod->add_function(std::move(fn));
  }
  return mod;
}

}  // namespace ppy::frontend
