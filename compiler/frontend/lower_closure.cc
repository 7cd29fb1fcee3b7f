// IR generation, functions as values (callable.h; docs/runtime.md, "Functions
// as values"): cells, closures, a module function's value entry, and calls
// through values.
#include <algorithm>
#include <functional>

#include "callable.h"
#include "imported_classes.h"  // class_method, owner_of
#include "lower.h"              // declare_foreign
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace checking {
/// `obj.m` as a value: the name of its bound entry (check_closure.cc).
std::string bound_method_key(const ModuleInfo& m, Ty impl, const std::string& name);
}  // namespace checking

namespace lowering {
namespace {

/// The class of another module whose method `qual` (bound_method_key) names, among the classes
/// `m` names and their subclasses; Error when none.
Ty foreign_method_class(const ModuleInfo& m, const std::string& qual) {
  std::string name = qual.substr(qual.rfind('.') + 1);
  std::function<Ty(Ty)> find = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    if (auto it = k.methods.find(name); it != k.methods.end() && &checking::owner_of(m, it->second) != &m &&
                                         checking::bound_method_key(m, it->second, name) == qual)
      return it->second;
    for (Ty sub : k.subclasses)
      if (Ty f = find(sub); f != Ty::Error) return f;
    return Ty::Error;
  };
  for (auto& [local, t] : m.classes)
    if (Ty f = find(t); f != Ty::Error) return f;
  return Ty::Error;
}

}  // namespace
namespace {

/// A cell: where a variable that a nested function shares lives, on the
/// collector, as an object of one field.
Type cell_struct(Ty t) { return Type::struct_("cell", {{"__tid", Type::i64()}, {"v", ir_type(t)}}); }

/// A call reads `fn` through the first fields alone.
Type closure_head() { return closure_struct(0); }

}  // namespace

Type closure_struct(size_t ncells) {
  std::vector<std::pair<std::string, Type>> fields{{"__tid", Type::i64()}, {"fn", str_type()}};
  for (size_t i = 0; i < ncells; ++i) fields.emplace_back(str_cat("c", i), str_type());
  return Type::struct_("closure", fields);
}

Value* FunctionLowerer::cell_of(const std::string& name, Pos p) {
  Ty t = slot_ty_.at(name);
  Value* h = emit("core.load", {slots_.at(name)}, {str_type()}, {}, p);
  return cast(h, Type::ptr(cell_struct(t)), p);
}

Value* FunctionLowerer::load_cell(const std::string& name, Pos p) {
  Ty t = slot_ty_.at(name);
  Value* s = emit("core.load", {cell_of(name, p)}, {cell_struct(t)}, {}, p);
  return emit("core.struct_extract", {s}, {ir_type(t)}, {{"field", std::string("v")}}, p);
}

void FunctionLowerer::store_cell(const std::string& name, Value* v, Pos p) {
  Ty t = slot_ty_.at(name);
  Value* ptr = cell_of(name, p);
  Value* s = emit("core.struct_make", {const_i64(0, p), v}, {cell_struct(t)}, {}, p);
  emit("core.store", {s, ptr}, {}, {}, p);
}

void FunctionLowerer::closure_entry(Pos p) {
  // Own variables that nested functions share: a new cell each, before any
  // assignment (a parameter's is stored into it next).
  for (const std::string& n : f_.cells) {
    if (!slots_.count(n) || !cells_.count(n)) continue;
    Value* h =
        rt("ppy_obj_new", {const_i64(object_bytes(cell_struct(slot_ty_.at(n))), p), const_i64(0, p)}, str_type(), p);
    emit("core.store", {h, slots_.at(n)}, {}, {}, p);
  }
  if (!f_.closure || f_.captures.empty()) return;
  // The variables of the functions around it: the cells its closure holds.
  Value* clo = fn_->body().entry()->argument(0);
  Value* s = emit("core.load", {cast(clo, Type::ptr(closure_struct(f_.captures.size())), p)},
                  {closure_struct(f_.captures.size())}, {}, p);
  for (size_t i = 0; i < f_.captures.size(); ++i) {
    const auto& [n, t] = f_.captures[i];
    slots_[n] = emit("core.alloca", {}, {Type::ptr(str_type(), "stack")}, {}, p);
    slots_[n]->set_hint(n + "_cell");
    slot_ty_[n] = t;
    stack_slots_.push_back(n);
    cells_.insert(n);
    Value* h = emit("core.struct_extract", {s}, {str_type()}, {{"field", str_cat("c", i)}}, p);
    emit("core.store", {h, slots_.at(n)}, {}, {}, p);
  }
}

Value* FunctionLowerer::make_closure(const std::string& symbol, const std::vector<std::string>& shared, Pos p) {
  std::vector<Value*> cells;
  for (const std::string& n : shared) cells.push_back(emit("core.load", {slots_.at(n)}, {str_type()}, {}, p));
  return closure_of(emit("core.func_ref", {}, {str_type()}, {{"callee", SymbolRef{symbol}}}, p), cells, p);
}

Value* FunctionLowerer::closure_of(Value* fn, const std::vector<Value*>& cells, Pos p) {
  Type st = closure_struct(cells.size());
  Value* h = rt("ppy_obj_new", {const_i64(object_bytes(st), p), const_i64(0, p)}, str_type(), p);
  std::vector<Value*> fields{const_i64(0, p), fn};
  fields.insert(fields.end(), cells.begin(), cells.end());
  emit("core.store", {emit("core.struct_make", std::move(fields), {st}, {}, p), cast(h, Type::ptr(st), p)}, {}, {}, p);
  return h;
}

Value* FunctionLowerer::bound_method(const Expr& e) {
  Pos p = e.pos;
  Ty cls = e.kids[0]->ty;
  const std::string& name = e.target;
  Value* self = expr(*e.kids[0]);
  note_layout(cls);  // another module's class: its methods are part of this module's cache key
  // The implementation each class of the subtree runs, by type id (as a call's dispatch).
  std::vector<std::pair<Ty, std::vector<int64_t>>> impls;
  std::function<void(Ty)> visit = [&](Ty t) {
    const ClassInfo& k = *class_info(t);
    Ty impl = k.methods.at(name);
    auto it = std::find_if(impls.begin(), impls.end(), [&](auto& x) { return x.first == impl; });
    if (it == impls.end())
      impls.push_back({impl, {k.tid}});
    else
      it->second.push_back(k.tid);
    for (Ty sub : k.subclasses) visit(sub);
  };
  visit(cls);
  auto ref = [&](Ty impl) {
    return emit("core.func_ref", {}, {str_type()},
                {{"callee", SymbolRef{bound_entry_symbol(m_.name, checking::bound_method_key(m_, impl, name))}}}, p);
  };
  Value* fn = ref(impls.back().first);
  if (impls.size() > 1) {
    Value* tid = type_id(self, cls, p);
    for (size_t k = impls.size() - 1; k-- > 0;) {
      Value* hit = nullptr;
      for (int64_t id : impls[k].second) {
        Value* c = cmp("eq", tid, const_i64(id, p), p);
        hit = hit ? or_(hit, c, p) : c;
      }
      fn = select(hit, ref(impls[k].first), fn, p);
    }
  }
  return closure_of(fn, {self}, p);
}

Value* FunctionLowerer::closure_value(size_t index, Pos p) {
  const FuncInfo& c = m_.closures[index];
  std::vector<std::string> shared;
  for (auto& [n, t] : c.captures) shared.push_back(n);
  return make_closure(symbol_name(m_.name, c.name), shared, p);
}

Value* FunctionLowerer::function_value(const std::string& fname, Pos p) {
  return make_closure(value_entry_symbol(m_.name, fname), {}, p);
}

Value* FunctionLowerer::call_value(Value* fn, Ty ct, std::vector<Value*> args, Pos p) {
  Value* head = emit("core.load", {cast(fn, Type::ptr(closure_head()), p)}, {closure_head()}, {}, p);
  Value* entry = emit("core.struct_extract", {head}, {str_type()}, {{"field", std::string("fn")}}, p);
  args.insert(args.begin(), fn);
  args.insert(args.begin(), entry);
  Ty r = callable_result(ct);
  std::vector<Type> results;
  if (r != Ty::None) results.push_back(ir_type(r));
  ir::Operation* op = emit_op("core.call_indirect", std::move(args), results, {}, p);
  return results.empty() ? nullptr : op->result(0);
}

Value* FunctionLowerer::value_call(const Expr& e) {
  Ty ct = e.kids[0]->ty;
  Value* fn = expr(*e.kids[0]);
  std::vector<Ty> params = callable_params(ct);
  std::vector<Value*> args;
  for (size_t i = 1; i < e.kids.size(); ++i) {
    Value* v = expr(*e.kids[i]);
    args.push_back(coerce(v, e.kids[i]->ty, params[i - 1], e.kids[i]->pos));
  }
  return call_value(fn, ct, std::move(args), e.pos);
}

std::string value_entry_symbol(const std::string& module, const std::string& func) {
  return symbol_name(module, func) + "__value";
}

std::string bound_entry_symbol(const std::string& module, const std::string& qual) {
  return symbol_name(module, qual) + "__bound";
}

void lower_value_entries(const ModuleInfo& m, ir::Module& mod) {
  for (const std::string& qual : m.func_values) {       // `obj.m`: the object is the closure's c0
    if (qual.find('.') == std::string::npos) continue;  // a module function (below)
    const FuncInfo* f = m.func(qual);
    std::string home = m.name;  // the module that compiles the method
    if (!f) {  // a method of another module's class (bound_method_key): compiled there, external here
      Ty impl = foreign_method_class(m, qual);
      if (impl == Ty::Error) continue;
      f = checking::class_method(m, impl, qual.substr(qual.rfind('.') + 1));
      if (!f) continue;
      home = checking::owner_of(m, impl).name;
      declare_foreign(mod, home, *f);
    }
    if (!f) continue;
    std::vector<ir::Param> params{{str_type(), {}, "closure"}};
    for (size_t i = 1; i < f->params.size(); ++i) params.push_back({ir_type(f->params[i]), {}, f->def->params[i].name});
    std::vector<Type> results;
    if (f->result != Ty::None) results.push_back(ir_type(f->result));
    auto fn = std::make_unique<ir::Function>(bound_entry_symbol(m.name, qual), params, results);
    ir::Location loc(m.path, f->def->pos.line, f->def->pos.col);
    fn->set_visibility(ir::Visibility::Private);
    fn->set_loc(loc);
    fn->attributes().set("ppy.qualname", str_cat(m.name, ".", qual, ".bound"));
    fn->attributes().set("ppy.effects", effects_attr({"io", "raises", "reads", "writes"}));
    fn->attributes().set("ppy.synthesized", true);
    ir::Function* raw = mod.add_function(std::move(fn));
    Block* entry = raw->create_entry_block("entry");
    Type st = closure_struct(1);
    Value* as =
        entry->append(ir::Operation::create("core.cast", {entry->argument(0)}, {Type::ptr(st)}, {}, loc))->result(0);
    Value* s = entry->append(ir::Operation::create("core.load", {as}, {st}, {}, loc))->result(0);
    Value* self = entry
                      ->append(ir::Operation::create("core.struct_extract", {s}, {str_type()},
                                                     AttrDict{{"field", std::string("c0")}}, loc))
                      ->result(0);
    std::vector<Value*> args{self};
    for (size_t i = 1; i < raw->params().size(); ++i) args.push_back(entry->argument(i));
    ir::Operation* call = entry->append(ir::Operation::create(
        "core.call", args, results, AttrDict{{"callee", SymbolRef{symbol_name(home, f->name)}}}, loc));
    std::vector<Value*> rets;
    for (size_t i = 0; i < call->num_results(); ++i) rets.push_back(call->result(i));
    entry->append(ir::Operation::create("core.ret", rets, {}, {}, loc));
  }
  for (const std::string& name : m.func_values) {
    if (name.find('.') != std::string::npos) continue;  // a method: its bound entry (above)
    const FuncInfo* f = m.func(name);
    if (!f) continue;
    std::vector<ir::Param> params{{str_type(), {}, "closure"}};
    for (size_t i = 0; i < f->params.size(); ++i) params.push_back({ir_type(f->params[i]), {}, f->def->params[i].name});
    std::vector<Type> results;
    if (f->result != Ty::None) results.push_back(ir_type(f->result));
    auto fn = std::make_unique<ir::Function>(value_entry_symbol(m.name, name), params, results);
    fn->set_visibility(ir::Visibility::Private);
    fn->set_loc(ir::Location(m.path, f->def->pos.line, f->def->pos.col));
    fn->attributes().set("ppy.qualname", str_cat(m.name, ".", name, ".value"));
    fn->attributes().set("ppy.effects", effects_attr({"io", "raises", "reads", "writes"}));
    fn->attributes().set("ppy.synthesized", true);
    ir::Function* raw = mod.add_function(std::move(fn));
    Block* entry = raw->create_entry_block("entry");
    std::vector<Value*> args;
    for (size_t i = 1; i < raw->params().size(); ++i) args.push_back(entry->argument(i));
    ir::Location loc(m.path, f->def->pos.line, f->def->pos.col);
    ir::Operation* call = entry->append(ir::Operation::create(
        "core.call", args, results, AttrDict{{"callee", SymbolRef{symbol_name(m.name, name)}}}, loc));
    std::vector<Value*> rets;
    for (size_t i = 0; i < call->num_results(); ++i) rets.push_back(call->result(i));
    entry->append(ir::Operation::create("core.ret", rets, {}, {}, loc));
  }
}

}  // namespace lowering
}  // namespace ppy::frontend
