// IR generation: the emission helpers every lowering file builds on, and locals.
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

namespace {

bool is_terminator(const ir::Operation* op) {
  if (!op) return false;
  const std::string& n = op->name();
  return n == "core.br" || n == "core.cond_br" || n == "core.ret" || n == "core.unreachable";
}

}  // namespace

Value* FunctionLowerer::emit(std::string_view name, std::vector<Value*> ops, const std::vector<Type>& results,
                             AttrDict attrs, Pos p) {
  if (comp_) attrs.set("ppy.comp", comp_);
  auto op =
      ir::Operation::create(name, std::move(ops), results, std::move(attrs), ir::Location(m_.path, p.line, p.col));
  ir::Operation* o = cur_->append(std::move(op));
  return o->num_results() ? o->result(0) : nullptr;
}

ir::Operation* FunctionLowerer::emit_op(std::string_view name, std::vector<Value*> ops,
                                        const std::vector<Type>& results, AttrDict attrs, Pos p) {
  if (comp_) attrs.set("ppy.comp", comp_);
  auto op =
      ir::Operation::create(name, std::move(ops), results, std::move(attrs), ir::Location(m_.path, p.line, p.col));
  return cur_->append(std::move(op));
}

int64_t FunctionLowerer::open_comp(const Expr& e) {
  if (!e.comp_frame || gpu_) return comp_;
  comps_.push_back({e.comp_frame, e.pos.line, comp_});
  keep_comps();
  return static_cast<int64_t>(comps_.size());
}

void FunctionLowerer::keep_comps() {
  if (comps_.empty()) return;
  ir::AttrArray table;
  for (const ir::TraceComprehension& c : comps_) table.push_back(ir::AttrArray{c.name, c.line, c.parent});
  fn_->attributes().set("ppy.comps", std::move(table));
}

void FunctionLowerer::br(Block* to, std::vector<Value*> args, Pos p) {
  ir::Operation* o = emit_op("core.br", {}, {}, {}, p);
  o->successors().push_back({to, std::move(args)});
}

void FunctionLowerer::cond_br(Value* c, Block* t, std::vector<Value*> targs, Block* f, std::vector<Value*> fargs,
                              Pos p) {
  ir::Operation* o = emit_op("core.cond_br", {c}, {}, {}, p);
  o->successors().push_back({t, std::move(targs)});
  o->successors().push_back({f, std::move(fargs)});
}

Block* FunctionLowerer::new_block(const std::string& kind) { return fn_->body().add_block(str_cat(kind, ++labels_)); }

Block* FunctionLowerer::new_block(const std::string& kind, int n) { return fn_->body().add_block(str_cat(kind, n)); }

bool FunctionLowerer::terminated() const { return is_terminator(cur_->terminator()); }

Value* FunctionLowerer::const_i64(int64_t v, Pos p) { return emit("core.const", {}, {Type::i64()}, {{"value", v}}, p); }

Value* FunctionLowerer::const_f64(double v, Pos p) { return emit("core.const", {}, {Type::f64()}, {{"value", v}}, p); }

Value* FunctionLowerer::const_bool(bool v, Pos p) { return emit("core.const", {}, {Type::i1()}, {{"value", v}}, p); }

Value* FunctionLowerer::const_index(int64_t v, Pos p) {
  return emit("core.const", {}, {Type::index()}, {{"value", v}}, p);
}

Value* FunctionLowerer::cmp(const char* pred, Value* a, Value* b, Pos p) {
  return emit("core.cmp", {a, b}, {Type::i1()}, {{"predicate", pred}}, p);
}

Value* FunctionLowerer::cast(Value* v, Type to, Pos p) {
  if (v->type() == to) return v;
  return emit("core.cast", {v}, {to}, {}, p);
}

Value* FunctionLowerer::not_(Value* v, Pos p) {
  return emit("core.xor", {v, const_bool(true, p)}, {Type::i1()}, {}, p);
}

Value* FunctionLowerer::and_(Value* a, Value* b, Pos p) { return emit("core.and", {a, b}, {Type::i1()}, {}, p); }

Value* FunctionLowerer::or_(Value* a, Value* b, Pos p) { return emit("core.or", {a, b}, {Type::i1()}, {}, p); }

Value* FunctionLowerer::select(Value* c, Value* a, Value* b, Pos p) {
  return emit("core.select", {c, a, b}, {a->type()}, {}, p);
}

Value* FunctionLowerer::iadd(Value* a, Value* b, Pos p, const char* mode) {
  return emit("core.add", {a, b}, {Type::i64()}, {{"overflow", mode ? mode : ovf()}}, p);
}

void FunctionLowerer::guard(Value* ok, const char* kind, std::string message, Pos p) {
  if (gpu_) return;
  AttrDict a{{"kind", kind}};
  if (!message.empty()) a.set("message", message);
  emit("core.guard", {ok}, {}, std::move(a), p);
}

void FunctionLowerer::call_extern(const char* callee, std::vector<Value*> args, Pos p, AttrDict extra) {
  extra.set("abi", "c");
  extra.set("callee", callee);
  emit("core.call_extern", std::move(args), {}, std::move(extra), p);
}

Value* FunctionLowerer::rt(const char* callee, std::vector<Value*> args, Type result, Pos p, AttrDict extra) {
  extra.set("abi", "c");
  extra.set("callee", callee);
  return emit("core.call_extern", std::move(args), {result}, std::move(extra), p);
}

Value* FunctionLowerer::str_literal(const std::string& text, Pos p) {
  return rt("ppy_str_literal", {}, str_type(), p, {{"text", text}});
}

Value* FunctionLowerer::convert(Value* v, Ty from, Ty to, Pos p) {
  if (from == to) return v;
  return cast(v, ir_type(to), p);
}

Value* FunctionLowerer::truth(Value* v, Ty t, Pos p) {
  if (is_list(t)) return cmp("ne", list_len(v, p), const_i64(0, p), p);
  if (is_table(t)) return cmp("ne", table_len(v, p), const_i64(0, p), p);
  switch (t) {
    case Ty::Bool:
      return v;
    case Ty::Int:
      return cmp("ne", v, const_i64(0, p), p);
    case Ty::Float:
      return cmp("ne", v, const_f64(0.0, p), p);
    case Ty::ListInt:
    case Ty::ListFloat: {
      Value* n = list_len(v, p);
      return cmp("ne", n, const_i64(0, p), p);
    }
    case Ty::Str:
      return cmp("ne", rt("ppy_str_len", {v}, Type::i64(), p), const_i64(0, p), p);
    case Ty::Exc:  // issue 32: `__exit__`'s `exc` is true when an exception passes (its name set)
      return cmp("ne", extract(v, 0, p), rt("ppy_obj_null", {}, str_type(), p), p);
    default:
      if (t >= Ty::FirstCompound) return compound_truth(v, t, p);
      return cmp("ne", v, v, p);
  }
}

Value* FunctionLowerer::list_len(Value* buf, Pos p) {
  Value* n = emit("core.buffer_len", {buf}, {Type::index()}, {}, p);
  return cast(n, Type::i64(), p);
}

Value* FunctionLowerer::list_index(Value* buf, Value* i, Pos p, bool store, std::string_view what) {
  Value* n = list_len(buf, p);
  Value* zero = const_i64(0, p);
  Value* neg = cmp("lt", i, zero, p);
  Value* adj = iadd(i, n, p, "proven");
  Value* ii = select(neg, adj, i, p);
  Value* ge = cmp("ge", ii, zero, p);
  Value* lt = cmp("lt", ii, n, p);
  Value* ok = and_(ge, lt, p);
  guard(ok, "bounds", what != "list" || !store ? str_cat(what, " index out of range") : "list assignment index out of range",
        p);
  return cast(ii, Type::index(), p);
}

Value* FunctionLowerer::choose(Value* c, std::initializer_list<const char*> names,
                               const std::function<Value*()>& then_fn, const std::function<Value*()>& else_fn,
                               Type result, Pos p) {
  int n = ++labels_;
  const char* const* name = names.begin();
  Block* then_b = new_block(name[0], n);
  Block* else_b = new_block(name[1], n);
  Block* join = new_block(name[2], n);
  cond_br(c, then_b, {}, else_b, {}, p);
  for (auto [b, fn] : {std::pair{then_b, &then_fn}, std::pair{else_b, &else_fn}}) {
    cur_ = b;
    Value* v = (*fn)();
    br(join, v ? std::vector<Value*>{v} : std::vector<Value*>{}, p);
  }
  cur_ = join;
  return result.is_void() ? nullptr : join->add_argument(result, "");
}

void FunctionLowerer::global_slot(const std::string& name, Ty ty, Pos p) {
  slots_[name] =
      emit("core.const", {}, {Type::ptr(ir_type(ty))}, {{"value", SymbolRef{symbol_name(m_.name, name)}}}, p);
  slot_ty_[name] = ty;
}

void FunctionLowerer::store_local(const std::string& name, Value* v, Pos p) {
  if (is_cell(name)) return store_cell(name, v, p);  // shared with a nested function (lower_closure.cc)
  emit("core.store", {v, slots_.at(name)}, {}, {}, p);
}

Value* FunctionLowerer::load_local(const std::string& name, Pos p) {
  if (is_cell(name)) return load_cell(name, p);
  return emit("core.load", {slots_.at(name)}, {ir_type(slot_ty_.at(name))}, {}, p);
}

Value* FunctionLowerer::load_as(const std::string& name, Ty ty, Pos p) {
  Value* v = load_local(name, p);
  Ty declared = slot_ty_.at(name);
  if (ty != declared && is_optional(declared) && ty == optional_inner(declared)) return extract(v, 1, p);
  return narrow_value(v, declared, ty, p);  // isinstance and assignments (issue 32, lower_union.cc)
}

void FunctionLowerer::store_as(const std::string& name, Value* v, Ty vt, Pos p) {
  auto it = slot_ty_.find(name);
  store_local(name, it == slot_ty_.end() ? v : coerce(v, vt, it->second, p), p);
}

}  // namespace ppy::frontend::lowering
