// IR generation from the checked AST (the conventions are docs/runtime.md).
#include "lower.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <type_traits>

#include "ppy/frontend/frontend.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {
namespace {

using ir::AttrArray;
using ir::AttrDict;
using ir::Block;
using ir::SymbolRef;
using ir::Type;
using ir::Value;

/// A str is a handle to the runtime's string (docs/runtime.md, "Strings").
Type str_type() { return Type::ptr(Type::scalar(ir::TypeKind::I8)); }

Type ir_type(Ty t) {
  // An object is a handle, `ptr<i8>` like a str's: its fields are reached
  // through the pointer cast to its class's struct (struct_type).
  if (is_class(t)) return str_type();
  // A tuple is a `tuple<...>` of its elements; `T | None` is `tuple<bool, T>`
  // (present, value: a zero value when None); None itself is a false bool.
  if (is_tuple(t)) {
    std::vector<Type> members;
    for (Ty e : tuple_elems(t)) members.push_back(ir_type(e));
    return Type::tuple(members);
  }
  if (is_optional(t)) return Type::tuple({Type::i1(), ir_type(optional_inner(t))});
  if (is_none_value(t)) return Type::i1();
  if (is_list(t)) return Type::buffer(ir_type(list_elem(t)));
  if (is_dict(t) || is_set(t)) return str_type();  // a handle to the runtime's table (ppy_dict.h)
  switch (t) {
    case Ty::Int: return Type::i64();
    case Ty::Float: return Type::f64();
    case Ty::Bool: return Type::i1();
    case Ty::ListInt: return Type::buffer(Type::i64());
    case Ty::ListFloat: return Type::buffer(Type::f64());
    case Ty::PtrInt: return Type::ptr(Type::i64());
    case Ty::PtrFloat: return Type::ptr(Type::f64());
    case Ty::ConstPtrInt: return Type::ptr(Type::i64(), "generic", true);
    case Ty::ConstPtrFloat: return Type::ptr(Type::f64(), "generic", true);
    case Ty::Str: return str_type();
    case Ty::Exc:
      return Type::tuple({str_type(), str_type()});  // (class name, message)
    default: return Type::void_();
  }
}

/// An instance's memory: `struct<Name, __tid: i64, fields...>`, the base's
/// fields first (a derived object's struct starts with its base's), objects in
/// fields as handles (so a class may hold itself).
Type struct_type(Ty cls) {
  const ClassInfo& c = *class_info(cls);
  std::vector<std::pair<std::string, Type>> fields{{"__tid", Type::i64()}};
  for (auto& [n, t] : c.fields) fields.emplace_back(n, ir_type(t));
  return Type::struct_(c.name, fields);
}

/// The bytes `ppy_obj_new` allocates for an instance: 8 for each scalar of
/// its struct, which every target's layout fits in (and the interpreter's slots
/// fill).
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

bool is_terminator(const ir::Operation* op) {
  if (!op) return false;
  const std::string& n = op->name();
  return n == "core.br" || n == "core.cond_br" || n == "core.ret" || n == "core.unreachable";
}

struct Loop {
  Block* cont;
  Block* brk;
};

class FunctionLowerer {
 public:
  FunctionLowerer(const ModuleInfo& m, const FuncInfo& f, ir::Function* fn, ir::Module& mod)
      : m_(m), f_(f), fn_(fn), mod_(mod), gpu_(!f.gpu_kind.empty()) {}

  void run() {
    Block* entry = fn_->create_entry_block("entry");
    cur_ = entry;
    Pos p = f_.def->pos;
    for (size_t i = 0; i < f_.def->params.size(); ++i) entry->argument(i)->set_hint(f_.def->params[i].name);
    for (auto& [name, ty] : f_.locals) {
      if (ty == Ty::Error) continue;
      if (f_.module_code && m_.shared_vars.count(name)) {
        global_slot(name, ty, p);
        // A str or a list in a global: a root of the collector from the start
        // (docs/runtime.md, "Module variables used by functions").
        if (ty == Ty::Str || is_list(ty) || is_class(ty)) call_extern("ppy_list_root", {slots_.at(name)}, p);
        continue;
      }
      slots_[name] = emit("core.alloca", {}, {Type::ptr(ir_type(ty), "stack")}, {}, p);
      slots_[name]->set_hint((name[0] == '.' ? name.substr(1) : name) + "_slot");
      slot_ty_[name] = ty;
      stack_slots_.push_back(name);
    }
    for (auto& [name, ty] : f_.globals)
      if (ty != Ty::Error) global_slot(name, ty, p);
    for (size_t i = 0; i < f_.def->params.size(); ++i)
      emit("core.store", {entry->argument(i), slots_.at(f_.def->params[i].name)}, {}, {}, f_.def->params[i].pos);
    // The entry's code runs after the code of every module it imports.
    if (f_.module_code)
      for (const std::string& mod : m_.init_order)
        emit("core.call", {}, {}, {{"callee", SymbolRef{symbol_name(mod, "__init__")}}}, p);
    block(f_.def->body);
    if (!terminated()) {
      if (f_.result == Ty::None) emit("core.ret", {}, {}, {}, end_pos());
      else emit("core.unreachable", {}, {}, {}, end_pos());
    }
  }

 private:
  Pos end_pos() const {
    const auto& b = f_.def->body;
    return b.empty() ? f_.def->pos : b.back()->pos;
  }

  // --- emission helpers ---
  Value* emit(std::string_view name, std::vector<Value*> ops, const std::vector<Type>& results, AttrDict attrs, Pos p) {
    auto op = ir::Operation::create(name, std::move(ops), results, std::move(attrs), ir::Location(m_.path, p.line, p.col));
    ir::Operation* o = cur_->append(std::move(op));
    return o->num_results() ? o->result(0) : nullptr;
  }
  ir::Operation* emit_op(std::string_view name, std::vector<Value*> ops, const std::vector<Type>& results, AttrDict attrs, Pos p) {
    auto op = ir::Operation::create(name, std::move(ops), results, std::move(attrs), ir::Location(m_.path, p.line, p.col));
    return cur_->append(std::move(op));
  }
  void br(Block* to, std::vector<Value*> args, Pos p) {
    ir::Operation* o = emit_op("core.br", {}, {}, {}, p);
    o->successors().push_back({to, std::move(args)});
  }
  void cond_br(Value* c, Block* t, std::vector<Value*> targs, Block* f, std::vector<Value*> fargs, Pos p) {
    ir::Operation* o = emit_op("core.cond_br", {c}, {}, {}, p);
    o->successors().push_back({t, std::move(targs)});
    o->successors().push_back({f, std::move(fargs)});
  }
  Block* new_block(const std::string& kind) { return fn_->body().add_block(str_cat(kind, ++labels_)); }
  Block* new_block(const std::string& kind, int n) { return fn_->body().add_block(str_cat(kind, n)); }
  bool terminated() const { return is_terminator(cur_->terminator()); }

  Value* const_i64(int64_t v, Pos p) { return emit("core.const", {}, {Type::i64()}, {{"value", v}}, p); }
  Value* const_f64(double v, Pos p) { return emit("core.const", {}, {Type::f64()}, {{"value", v}}, p); }
  Value* const_bool(bool v, Pos p) { return emit("core.const", {}, {Type::i1()}, {{"value", v}}, p); }
  Value* const_index(int64_t v, Pos p) { return emit("core.const", {}, {Type::index()}, {{"value", v}}, p); }
  Value* cmp(const char* pred, Value* a, Value* b, Pos p) {
    return emit("core.cmp", {a, b}, {Type::i1()}, {{"predicate", pred}}, p);
  }
  Value* cast(Value* v, Type to, Pos p) {
    if (v->type() == to) return v;
    return emit("core.cast", {v}, {to}, {}, p);
  }
  Value* not_(Value* v, Pos p) { return emit("core.xor", {v, const_bool(true, p)}, {Type::i1()}, {}, p); }
  Value* and_(Value* a, Value* b, Pos p) { return emit("core.and", {a, b}, {Type::i1()}, {}, p); }
  Value* or_(Value* a, Value* b, Pos p) { return emit("core.or", {a, b}, {Type::i1()}, {}, p); }
  Value* select(Value* c, Value* a, Value* b, Pos p) { return emit("core.select", {c, a, b}, {a->type()}, {}, p); }
  /// `overflow` for integer arithmetic: Python's checks on the host, wrapping on a GPU.
  const char* ovf() const { return gpu_ ? "wrap" : "python"; }
  Value* iadd(Value* a, Value* b, Pos p, const char* mode = nullptr) {
    return emit("core.add", {a, b}, {Type::i64()}, {{"overflow", mode ? mode : ovf()}}, p);
  }
  void guard(Value* ok, const char* kind, std::string message, Pos p) {
    if (gpu_) return;
    AttrDict a{{"kind", kind}};
    if (!message.empty()) a.set("message", message);
    emit("core.guard", {ok}, {}, std::move(a), p);
  }
  void call_extern(const char* callee, std::vector<Value*> args, Pos p, AttrDict extra = {}) {
    extra.set("abi", "c");
    extra.set("callee", callee);
    emit("core.call_extern", std::move(args), {}, std::move(extra), p);
  }
  void use_dialect(const char* d) { mod_.dialects()[d] = 1; }
  /// A runtime function with one result (the string functions of ppy_str.h).
  Value* rt(const char* callee, std::vector<Value*> args, Type result, Pos p, AttrDict extra = {}) {
    extra.set("abi", "c");
    extra.set("callee", callee);
    return emit("core.call_extern", std::move(args), {result}, std::move(extra), p);
  }
  Value* str_literal(const std::string& text, Pos p) { return rt("ppy_str_literal", {}, str_type(), p, {{"text", text}}); }

  /// `v` of source type `from` as source type `to` (bool -> int -> float).
  Value* convert(Value* v, Ty from, Ty to, Pos p) {
    if (from == to) return v;
    return cast(v, ir_type(to), p);
  }

  Value* truth(Value* v, Ty t, Pos p) {
    if (is_list(t)) return cmp("ne", list_len(v, p), const_i64(0, p), p);
    if (is_table(t)) return cmp("ne", rt("ppy_dict_len", {v}, Type::i64(), p), const_i64(0, p), p);
    switch (t) {
      case Ty::Bool: return v;
      case Ty::Int: return cmp("ne", v, const_i64(0, p), p);
      case Ty::Float: return cmp("ne", v, const_f64(0.0, p), p);
      case Ty::ListInt:
      case Ty::ListFloat: {
        Value* n = list_len(v, p);
        return cmp("ne", n, const_i64(0, p), p);
      }
      case Ty::Str: return cmp("ne", rt("ppy_str_len", {v}, Type::i64(), p), const_i64(0, p), p);
      default:
        if (t >= Ty::FirstCompound) return compound_truth(v, t, p);
        return cmp("ne", v, v, p);
    }
  }

  Value* list_len(Value* buf, Pos p) {
    Value* n = emit("core.buffer_len", {buf}, {Type::index()}, {}, p);
    return cast(n, Type::i64(), p);
  }

  /// A Python index (negative counts from the end) as a checked `index`.
  Value* list_index(Value* buf, Value* i, Pos p, bool store) {
    Value* n = list_len(buf, p);
    Value* zero = const_i64(0, p);
    Value* neg = cmp("lt", i, zero, p);
    Value* adj = iadd(i, n, p, "proven");
    Value* ii = select(neg, adj, i, p);
    Value* ge = cmp("ge", ii, zero, p);
    Value* lt = cmp("lt", ii, n, p);
    Value* ok = and_(ge, lt, p);
    guard(ok, "bounds", store ? "list assignment index out of range" : "list index out of range", p);
    return cast(ii, Type::index(), p);
  }

  // --- statements ---
  void block(const std::vector<StmtPtr>& body) {
    for (auto& s : body) {
      if (s->dead || terminated()) continue;
      stmt(*s);
    }
  }

  /// A module variable's slot is its global's address (`core.const @g : ptr<T>`):
  /// loads and stores reach it as they reach a local's stack slot.
  void global_slot(const std::string& name, Ty ty, Pos p) {
    slots_[name] =
        emit("core.const", {}, {Type::ptr(ir_type(ty))}, {{"value", SymbolRef{symbol_name(m_.name, name)}}}, p);
    slot_ty_[name] = ty;
  }

  void store_local(const std::string& name, Value* v, Pos p) { emit("core.store", {v, slots_.at(name)}, {}, {}, p); }
  Value* load_local(const std::string& name, Pos p) {
    return emit("core.load", {slots_.at(name)}, {ir_type(slot_ty_.at(name))}, {}, p);
  }
  /// A local read as type `ty`: an optional the checker narrowed gives its value.
  Value* load_as(const std::string& name, Ty ty, Pos p) {
    Value* v = load_local(name, p);
    Ty declared = slot_ty_.at(name);
    if (ty != declared && is_optional(declared) && ty == optional_inner(declared)) return extract(v, 1, p);
    return v;
  }
  /// Stores a value of type `vt` into a local, made the local's type first.
  void store_as(const std::string& name, Value* v, Ty vt, Pos p) {
    auto it = slot_ty_.find(name);
    store_local(name, it == slot_ty_.end() ? v : coerce(v, vt, it->second, p), p);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Pass:
      case StmtKind::Def:
      case StmtKind::Global:
      case StmtKind::Import:
      case StmtKind::ImportFrom:
        return;
      case StmtKind::Expr:
        if (s.value->kind == ExprKind::Str) return;
        expr(*s.value);
        return;
      case StmtKind::Assign: {
        bool elementwise = s.value->kind == ExprKind::Tuple;  // `a, b = x, y`, as the checker saw it
        for (auto& t : s.targets)
          if (t->kind != ExprKind::Tuple || t->kids.size() != s.value->kids.size()) elementwise = false;
        if (elementwise) {
          std::vector<Value*> vals;
          for (auto& k : s.value->kids) vals.push_back(expr(*k));
          for (auto& t : s.targets)
            for (size_t i = 0; i < t->kids.size(); ++i) assign(*t->kids[i], vals[i], s.value->kids[i]->ty);
          return;
        }
        Value* v = expr(*s.value);
        for (auto& t : s.targets) assign(*t, v, s.value->ty);
        return;
      }
      case StmtKind::AnnAssign:
        if (s.value) assign(*s.targets[0], expr(*s.value), s.value->ty);
        return;
      case StmtKind::Class:
        return;
      case StmtKind::AugAssign: {
        const Expr& t = *s.targets[0];
        if (is_list(t.ty)) {  // `xs += ys`: the list itself grows (Python's list.__iadd__)
          Value* cur = expr(t);
          call_extern("ppy_list_extend", {cur, expr(*s.value)}, s.pos);
          return;
        }
        if (t.kind == ExprKind::Attribute) {  // `x.f op= v`: x (a variable) read once
          Value* obj = expr(*t.kids[0]);
          Ty cls = t.kids[0]->ty;
          field_set(obj, cls, t.str, aug_value(s, field_get(obj, cls, t.str, t.pos)), s.pos);
          return;
        }
        if (t.kind == ExprKind::Subscript && is_table(t.kids[0]->ty)) {  // `d[k] op= v`
          Ty dt = t.kids[0]->ty;
          Value* d = expr(*t.kids[0]);
          Value* k = key(expr(*t.kids[1]), dt, t.pos);
          table_set(d, dt, k, aug_value(s, table_get(d, dt, k, t.pos)), s.pos);
          return;
        }
        if (t.kind == ExprKind::Name) {
          Value* cur = load_as(t.str, t.ty, t.pos);
          Value* v = expr(*s.value);
          if (t.ty == Ty::Str) {
            Value* r = s.op == "+" ? rt("ppy_str_concat", {cur, v}, str_type(), s.pos)
                                   : rt("ppy_str_repeat", {cur, convert(v, s.value->ty, Ty::Int, s.pos)}, str_type(), s.pos);
            store_as(t.str, r, t.ty, s.pos);
            return;
          }
          store_as(t.str, arith(s.op, cur, t.ty, v, s.value->ty, t.ty, s.pos), t.ty, s.pos);
        } else {
          Value* buf = expr(*t.kids[0]);
          Value* i = convert(expr(*t.kids[1]), t.kids[1]->ty, Ty::Int, t.pos);
          Value* idx = list_index(buf, i, t.pos, false);
          Value* cur = emit("core.buffer_load", {buf, idx}, {ir_type(t.ty)}, {}, t.pos);
          Value* v = expr(*s.value);
          Value* r = arith(s.op, cur, t.ty, v, s.value->ty, t.ty, s.pos);
          emit("core.buffer_store", {r, buf, idx}, {}, {}, s.pos);
        }
        return;
      }
      case StmtKind::If: {
        Value* c = truth(expr(*s.value), s.value->ty, s.value->pos);
        int n = ++labels_;
        Block* then_b = new_block("if.then", n);
        Block* else_b = s.orelse.empty() ? nullptr : new_block("if.else", n);
        Block* join = new_block("if.end", n);
        cond_br(c, then_b, {}, else_b ? else_b : join, {}, s.pos);
        cur_ = then_b;
        block(s.body);
        if (!terminated()) br(join, {}, s.pos);
        if (else_b) {
          cur_ = else_b;
          block(s.orelse);
          if (!terminated()) br(join, {}, s.pos);
        }
        cur_ = join;
        return;
      }
      case StmtKind::While: {
        int n = ++labels_;
        Block* head = new_block("while.head", n);
        Block* body = new_block("while.body", n);
        Block* exit = new_block("while.end", n);
        br(head, {}, s.pos);
        cur_ = head;
        Value* c = truth(expr(*s.value), s.value->ty, s.value->pos);
        cond_br(c, body, {}, exit, {}, s.pos);
        cur_ = body;
        loops_.push_back({head, exit});
        block(s.body);
        loops_.pop_back();
        if (!terminated()) br(head, {}, s.pos);
        cur_ = exit;
        return;
      }
      case StmtKind::For:
        for_stmt(s);
        return;
      case StmtKind::Break:
        jump(kBreak, s.pos);
        return;
      case StmtKind::Continue:
        jump(kContinue, s.pos);
        return;
      case StmtKind::Return:
        if (is_optional(f_.result) && (!s.value || s.value->kind == ExprKind::NoneLit)) {
          ret(none_of(f_.result, s.pos), s.pos);
        } else if (s.value && s.value->kind != ExprKind::NoneLit && f_.result != Ty::None) {
          Value* v = coerce(expr(*s.value), s.value->ty, f_.result, s.pos);
          ret(v, s.pos);
        } else {
          ret(nullptr, s.pos);
        }
        return;
      case StmtKind::Raise:
        raise_stmt(s);
        return;
      case StmtKind::Try:
        if (s.finalbody.empty()) {
          try_except(s);
        } else {
          Region r = outline([&] { try_except(s); }, s.pos);
          finally(s, r);
        }
        return;
      case StmtKind::Assert: {
        Value* c = truth(expr(*s.value), s.value->ty, s.value->pos);
        AttrDict a{{"kind", "assert"}};
        if (s.annotation) a.set("message", s.annotation->str);
        emit("core.guard", {c}, {}, std::move(a), s.pos);
        return;
      }
    }
  }

  // --- exceptions (docs/runtime.md, "Exceptions") ---

  /// How an outlined region ended when it did not raise: its i64 result.
  enum Outcome : int64_t { kFell = 0, kReturn = 1, kBreak = 2, kContinue = 3 };
  /// A region of statements lowered as a function of its own (a try body),
  /// called with capture_status so that a raise inside it comes back as a status.
  struct Region {
    Value* outcome;
    Value* status;
    bool ends[4] = {true, false, false, false};  ///< the outcomes it can give
  };
  struct Outlined {
    bool ends[4] = {true, false, false, false};
  };

  /// `return v` (null: no value): a plain return, or inside an outlined region
  /// the value stored in the function's `.ret` slot and the outcome kReturn.
  void ret(Value* v, Pos p) {
    if (outlined_.empty()) {
      emit("core.ret", v ? std::vector<Value*>{v} : std::vector<Value*>{}, {}, {}, p);
      return;
    }
    if (v) store_local(".ret", v, p);
    outlined_.back().ends[kReturn] = true;
    emit("core.ret", {const_i64(kReturn, p)}, {}, {}, p);
  }
  /// `break` / `continue`: a branch, or the outcome when the loop is outside the region.
  void jump(Outcome o, Pos p) {
    if (loops_.empty() && !outlined_.empty()) {
      outlined_.back().ends[o] = true;
      emit("core.ret", {const_i64(o, p)}, {}, {}, p);
      return;
    }
    br(o == kBreak ? loops_.back().brk : loops_.back().cont, {}, p);
  }

  /// Lowers `body` as a private function `@<this>__try<n>` that takes every
  /// stack slot of this function (so what it assigns is seen here, also after
  /// it raised) and returns its Outcome; the call captures the status.
  template <class F>
  Region outline(F&& body, Pos p) {
    int n = ++labels_;
    std::vector<ir::Param> params;
    std::vector<Value*> args;
    for (auto& name : stack_slots_) {
      params.push_back({slots_.at(name)->type(), {}, name[0] == '.' ? name.substr(1) : name});
      args.push_back(slots_.at(name));
    }
    auto fn = std::make_unique<ir::Function>(str_cat(fn_->name(), "__try", n), std::move(params),
                                             std::vector<Type>{Type::i64()});
    fn->set_loc(ir::Location(m_.path, p.line, p.col));
    fn->set_visibility(ir::Visibility::Private);
    const ir::Attribute* q = fn_->attributes().get("ppy.qualname");
    fn->attributes().set("ppy.qualname", str_cat(q && q->is<std::string>() ? q->as_string() : fn_->name(), ".try", n));
    // It reads and writes the slots it is given, whatever the body does.
    std::set<std::string> fx = f_.effects;
    fx.insert("reads");
    fx.insert("writes");
    fn->attributes().set("ppy.effects", effects_attr(fx));
    fn->attributes().set("ppy.synthesized", true);
    ir::Function* inner = mod_.add_function(std::move(fn));
    // Lower the body there, with this function's slots as its parameters.
    ir::Function* saved_fn = fn_;
    Block* saved_cur = cur_;
    auto saved_slots = slots_;
    auto saved_loops = std::move(loops_);
    loops_.clear();
    fn_ = inner;
    cur_ = inner->create_entry_block("entry");
    for (size_t i = 0; i < stack_slots_.size(); ++i) {
      cur_->argument(i)->set_hint(str_cat(inner->params()[i].name, "_slot"));
      slots_[stack_slots_[i]] = cur_->argument(i);
    }
    for (auto& [name, ty] : slot_ty_)
      if (std::find(stack_slots_.begin(), stack_slots_.end(), name) == stack_slots_.end()) global_slot(name, ty, p);
    outlined_.push_back({});
    body();
    if (!terminated()) emit("core.ret", {const_i64(kFell, p)}, {}, {}, p);
    Region r;
    for (int k = 0; k < 4; ++k) r.ends[k] = outlined_.back().ends[k];
    outlined_.pop_back();
    fn_ = saved_fn;
    cur_ = saved_cur;
    slots_ = std::move(saved_slots);
    loops_ = std::move(saved_loops);
    ir::Operation* call = emit_op("core.call", std::move(args), {Type::i64(), Type::i64()},
                                  {{"callee", SymbolRef{inner->name()}}, {"capture_status", true}}, p);
    r.outcome = call->result(0);
    r.outcome->set_hint(str_cat("try", n, "_outcome"));
    r.status = call->result(1);
    r.status->set_hint(str_cat("try", n, "_status"));
    return r;
  }

  /// After a region that did not raise: where its return, break or continue
  /// goes on from here; falls through to the code after it otherwise.
  void finish(const Region& r, Pos p) {
    for (Outcome o : {kReturn, kBreak, kContinue}) {
      if (!r.ends[o]) continue;
      int n = ++labels_;
      Block* go = new_block("try.leave", n);
      Block* stay = new_block("try.next", n);
      cond_br(cmp("eq", r.outcome, const_i64(o, p), p), go, {}, stay, {}, p);
      cur_ = go;
      if (o != kReturn) {
        jump(o, p);
      } else if (!outlined_.empty()) {
        ret(nullptr, p);  // the value is in `.ret` already
      } else {
        ret(f_.result == Ty::None ? nullptr : load_local(".ret", p), p);
      }
      cur_ = stay;
    }
  }

  /// The exception the runtime holds (the last raise caught): (name, message).
  Value* caught(Pos p) {
    Value* name = rt("ppy_exc_name", {}, str_type(), p);
    Value* msg = rt("ppy_exc_message", {}, str_type(), p);
    return emit("core.tuple_make", {name, msg}, {ir_type(Ty::Exc)}, {}, p);
  }
  void raise_exc(Value* exc, Pos p) {
    call_extern("ppy_exc_raise", {extract(exc, 0, p), extract(exc, 1, p)}, p);
    emit("core.unreachable", {}, {}, {}, p);
  }

  void raise_stmt(const Stmt& s) {
    Pos p = s.pos;
    if (!s.value) {  // the exception of the innermost handler, again
      raise_exc(load_local(handlers_.back(), p), p);
      return;
    }
    const Expr& v = *s.value;
    if (v.kind == ExprKind::Name && v.ref == Ref::Local) {
      raise_exc(load_local(v.str, p), p);
      return;
    }
    const Expr& cls = v.kind == ExprKind::Call ? *v.kids[0] : v;
    Value* msg;
    if (v.kind == ExprKind::Call && v.kids.size() == 2) {
      const Expr& a = *v.kids[1];
      msg = str_of(expr(a), a.ty, p);
      // str() of a KeyError is the repr of its key, as Python has it.
      if (cls.str == "KeyError" && a.ty == Ty::Str) msg = rt("ppy_str_repr", {msg}, str_type(), p);
    } else {
      msg = str_literal("", p);
    }
    call_extern("ppy_exc_raise", {str_literal(cls.str, p), msg}, p);
    emit("core.unreachable", {}, {}, {}, p);
  }

  /// try / except / else (no finally) where the code is: the body outlined,
  /// the handlers tried in order on its status, else after a body that fell through.
  void try_except(const Stmt& s) {
    Pos p = s.pos;
    Region r = outline([&] { block(s.body); }, p);
    int n = ++labels_;
    Block* raised = new_block("try.except", n);
    Block* ok = new_block("try.ok", n);
    Block* end = new_block("try.end", n);
    cond_br(cmp("ne", r.status, const_i64(0, p), p), raised, {}, ok, {}, p);
    cur_ = ok;
    finish(r, p);
    block(s.orelse);
    if (!terminated()) br(end, {}, p);
    cur_ = raised;
    Value* exc = caught(p);
    Value* name = extract(exc, 0, p);
    bool caught_all = false;
    for (const Handler& h : s.handlers) {
      Block* body = new_block("except.body");
      Block* next = nullptr;
      Value* hit = nullptr;
      for (const std::string& c : h.classes) {
        Value* m = rt("ppy_exc_matches", {name, str_literal(c, h.pos)}, Type::i64(), h.pos);
        Value* b = cmp("ne", m, const_i64(0, h.pos), h.pos);
        hit = hit ? or_(hit, b, h.pos) : b;
      }
      if (hit) {
        next = new_block("except.next");
        cond_br(hit, body, {}, next, {}, h.pos);
      } else {
        br(body, {}, h.pos);
      }
      cur_ = body;
      std::string local = h.name.empty() ? str_cat(".exc", h.pos.line, "_", h.pos.col) : h.name;
      store_local(local, exc, h.pos);
      handlers_.push_back(local);
      block(h.body);
      handlers_.pop_back();
      if (!terminated()) br(end, {}, h.pos);
      if (!next) {  // a bare except takes everything; later clauses are unreachable
        caught_all = true;
        break;
      }
      cur_ = next;
    }
    if (!caught_all) raise_exc(exc, p);  // no handler matched: on up
    cur_ = end;
  }

  /// finally: lowered twice, as CPython does, once where the region raised
  /// (then the exception goes on up, unless finally returns or jumps) and once
  /// where it did not (then the region's return, break or continue goes on).
  void finally(const Stmt& s, const Region& r) {
    Pos p = s.pos;
    int n = ++labels_;
    Block* raised = new_block("finally.raised", n);
    Block* ok = new_block("finally.ok", n);
    cond_br(cmp("ne", r.status, const_i64(0, p), p), raised, {}, ok, {}, p);
    cur_ = raised;
    Value* exc = caught(p);
    block(s.finalbody);
    if (!terminated()) raise_exc(exc, p);
    cur_ = ok;
    block(s.finalbody);
    if (!terminated()) finish(r, p);
  }

  void assign(const Expr& t, Value* v, Ty vt) {
    if (t.kind == ExprKind::Name) {
      store_as(t.str, v, vt, t.pos);
      return;
    }
    if (t.kind == ExprKind::Tuple) {  // unpacking a tuple value
      std::vector<Ty> elems = tuple_elems(vt);
      for (size_t i = 0; i < t.kids.size() && i < elems.size(); ++i) assign(*t.kids[i], extract(v, i, t.pos), elems[i]);
      return;
    }
    if (t.kind == ExprKind::Attribute) {  // a field
      Value* obj = expr(*t.kids[0]);
      const ClassInfo& c = *class_info(t.kids[0]->ty);
      field_set(obj, t.kids[0]->ty, t.str, coerce(v, vt, c.fields[static_cast<size_t>(c.field(t.str))].second, t.pos),
                t.pos);
      return;
    }
    if (is_table(t.kids[0]->ty)) {  // `d[k] = v`
      Value* d = expr(*t.kids[0]);
      table_set(d, t.kids[0]->ty, key(expr(*t.kids[1]), t.kids[0]->ty, t.pos), v, t.pos);
      return;
    }
    // A list element.
    Value* buf = expr(*t.kids[0]);
    Value* i = convert(expr(*t.kids[1]), t.kids[1]->ty, Ty::Int, t.pos);
    Value* idx = list_index(buf, i, t.pos, true);
    emit("core.buffer_store", {coerce(v, vt, t.ty, t.pos), buf, idx}, {}, {}, t.pos);
  }

  /// `cur op v` of the augmented assignment `s` whose target holds `cur`.
  Value* aug_value(const Stmt& s, Value* cur) {
    const Expr& t = *s.targets[0];
    Value* v = expr(*s.value);
    return t.ty == Ty::Str ? (s.op == "+" ? rt("ppy_str_concat", {cur, v}, str_type(), s.pos)
                                          : rt("ppy_str_repeat", {cur, convert(v, s.value->ty, Ty::Int, s.pos)},
                                               str_type(), s.pos))
                           : arith(s.op, cur, t.ty, v, s.value->ty, t.ty, s.pos);
  }

  /// `for i, x in enumerate(xs[, start])` / `for a, b in zip(xs, ys)`: a counted
  /// loop whose lengths are read at every step (docs/runtime.md, "Lists").
  void for_pairs(const Stmt& s) {
    const Expr& t = *s.targets[0];
    pairs_loop(*s.value, s.pos, [&](Value* a, Ty at, Value* b, Ty bt) {
      assign(*t.kids[0], a, at);
      assign(*t.kids[1], b, bt);
      block(s.body);
    });
  }

  /// The loop over `enumerate(...)` / `zip(...)`: `body(a, a_type, b, b_type)` for each pair.
  template <typename Body>
  void pairs_loop(const Expr& it, Pos p, Body body_fn) {
    bool zip = it.target == "zip";
    std::vector<std::pair<Value*, Ty>> seqs;
    for (size_t k = 1; k < (zip ? 3u : 2u); ++k) seqs.emplace_back(expr(*it.kids[k]), it.kids[k]->ty);
    Value* start = !zip && it.kids.size() == 3 ? convert(expr(*it.kids[2]), it.kids[2]->ty, Ty::Int, p) : nullptr;
    int n = ++labels_;
    Block* head = new_block("for.head", n);
    Block* body = new_block("for.body", n);
    Block* latch = new_block("for.latch", n);
    Block* exit = new_block("for.end", n);
    br(head, {const_i64(0, p)}, p);
    cur_ = head;
    Value* i = head->add_argument(Type::i64(), "i");
    Value* c = nullptr;
    for (auto& [v, ty] : seqs) {
      Value* len = ty == Ty::Str ? rt("ppy_str_len", {v}, Type::i64(), p) : list_len(v, p);
      Value* lt = cmp("lt", i, len, p);
      c = c ? and_(c, lt, p) : lt;
    }
    cond_br(c, body, {}, exit, {}, p);
    cur_ = body;
    auto elem = [&](const std::pair<Value*, Ty>& sq) {
      if (sq.second == Ty::Str) return rt("ppy_str_index", {sq.first, i}, str_type(), p);
      return emit("core.buffer_load", {sq.first, cast(i, Type::index(), p)}, {ir_type(list_elem(sq.second))}, {}, p);
    };
    Value* a = zip ? elem(seqs[0]) : start ? iadd(i, start, p) : i;
    Value* b = zip ? elem(seqs[1]) : elem(seqs[0]);
    Ty at = zip ? list_or_str_elem(seqs[0].second) : Ty::Int;
    Ty bt = zip ? list_or_str_elem(seqs[1].second) : list_or_str_elem(seqs[0].second);
    loops_.push_back({latch, exit});
    body_fn(a, at, b, bt);
    loops_.pop_back();
    if (!terminated()) br(latch, {}, p);
    cur_ = latch;
    br(head, {iadd(i, const_i64(1, p), p, "proven")}, p);
    cur_ = exit;
  }

  static Ty list_or_str_elem(Ty t) { return t == Ty::Str ? Ty::Str : list_elem(t); }

  void for_stmt(const Stmt& s) {
    const Expr& t = *s.targets[0];
    const Expr& it = *s.value;
    if (it.target == "enumerate" || it.target == "zip") return for_pairs(s);
    if (it.target == "dict.items") return for_items(s);
    for_loop(
        t.str, t.pos, it, s.pos, [&] { block(s.body); }, t.kind == ExprKind::Tuple ? &t : nullptr);
  }

  /// A loop over `range(...)`, a list or a str, the variable `var` taking each
  /// value before `body` lowers its statements (a for statement's, a comprehension's).
  template <typename Body, typename Sink = std::nullptr_t>
  void for_loop(const std::string& var_name, Pos var_pos, const Expr& it, Pos p, Body body_fn,
                const Expr* unpack = nullptr, Sink sink = nullptr) {
    int n = ++labels_;
    Block* head = new_block("for.head", n);
    Block* body = new_block("for.body", n);
    Block* latch = new_block("for.latch", n);
    Block* exit = new_block("for.end", n);
    Value* start;
    Value* step;
    Value* cond_stop;
    Value* buf = nullptr;
    Value* table = nullptr;
    Value* table_n = nullptr;
    Ty elem_ty = it.ty == Ty::Str ? Ty::Str : elem_of(it.ty);
    int step_sign = 1;  // 0: known only at run time
    if (it.target == "range") {
      std::vector<Value*> a;
      for (size_t i = 1; i < it.kids.size(); ++i) a.push_back(convert(expr(*it.kids[i]), it.kids[i]->ty, Ty::Int, it.kids[i]->pos));
      start = a.size() >= 2 ? a[0] : const_i64(0, p);
      cond_stop = a.size() >= 2 ? a[1] : a[0];
      if (a.size() == 3) {
        step = a[2];
        const Expr& st = *it.kids[3];
        if (st.kind == ExprKind::Int) step_sign = st.ival > 0 ? 1 : -1;
        else if (st.kind == ExprKind::Unary && st.str == "-" && st.kids[0]->kind == ExprKind::Int) step_sign = st.kids[0]->ival > 0 ? -1 : 1;
        else step_sign = 0;
        if (step_sign == 0) guard(cmp("ne", step, const_i64(0, p), p), "range", "range() arg 3 must not be zero", st.pos);
      } else {
        step = const_i64(1, p);
      }
    } else if (is_table(it.ty) || it.target == "dict.keys" || it.target == "dict.values") {
      // A dict or set: a list of its keys (or values) made when the loop starts, its size checked at each step.
      table = expr(is_table(it.ty) ? it : *it.kids[0]->kids[0]);
      table_n = rt("ppy_dict_len", {table}, Type::i64(), p);
      elem_ty = is_table(it.ty) ? key_of(it.ty) : list_elem(it.ty);
      buf = rt(it.target == "dict.values" ? "ppy_dict_values" : "ppy_dict_keys", {table}, ir_type(list_of(elem_ty)), p);
      start = const_i64(0, p);
      cond_stop = nullptr;
      step = const_i64(1, p);
    } else {
      buf = expr(it);
      start = const_i64(0, p);
      cond_stop = it.ty == Ty::Str ? rt("ppy_str_len", {buf}, Type::i64(), p) : nullptr;  // a list's: at each step
      step = const_i64(1, p);
    }
    br(head, {start}, p);
    cur_ = head;
    Value* i = head->add_argument(Type::i64(), "i");
    if (table) call_extern("ppy_dict_check_iter", {table, table_n}, p);
    // A list's length is read at every step, as Python's iterator does: the
    // body may append to the list or pop from it.
    if (buf && it.ty != Ty::Str) cond_stop = list_len(buf, p);
    Value* c;
    if (step_sign > 0) c = cmp("lt", i, cond_stop, p);
    else if (step_sign < 0) c = cmp("gt", i, cond_stop, p);
    else {
      Value* up = cmp("gt", step, const_i64(0, p), p);
      Value* below = cmp("lt", i, cond_stop, p);
      Value* above = cmp("gt", i, cond_stop, p);
      c = select(up, below, above, p);
    }
    cond_br(c, body, {}, exit, {}, p);
    cur_ = body;
    Value* var = i;
    if (buf && it.ty == Ty::Str) var = rt("ppy_str_index", {buf, i}, str_type(), p);
    else if (buf)
      var = emit("core.buffer_load", {buf, cast(i, Type::index(), p)}, {ir_type(elem_ty)}, {}, p);
    if constexpr (!std::is_same_v<Sink, std::nullptr_t>)
      sink(var);  // `list(x)`: each value goes straight to the new list
    else if (unpack)
      assign(*unpack, var, elem_ty);  // `for a, b in pairs`
    else
      store_local(var_name, var, var_pos);
    loops_.push_back({latch, exit});
    body_fn();
    loops_.pop_back();
    if (!terminated()) br(latch, {}, p);
    cur_ = latch;
    Value* next = iadd(i, step, p, buf ? "proven" : nullptr);
    br(head, {next}, p);
    cur_ = exit;
  }

  // --- expressions ---
  Value* expr(const Expr& e) {
    Pos p = e.pos;
    switch (e.kind) {
      case ExprKind::Int: return const_i64(e.ival, p);
      case ExprKind::Float: return const_f64(e.fval, p);
      case ExprKind::Bool: return const_bool(e.bval, p);
      case ExprKind::NoneLit:
        return const_bool(false, p);
      case ExprKind::Tuple:
        return tuple_display(e);
      case ExprKind::Str: return str_literal(e.str, p);
      case ExprKind::FString: return fstring(e);
      case ExprKind::Name:
      case ExprKind::Attribute:
        if (e.kind == ExprKind::Attribute && e.ref != Ref::Const && is_class(e.kids[0]->ty))
          return field_get(expr(*e.kids[0]), e.kids[0]->ty, e.str, p);
        if (e.ref == Ref::Const) {
          if (e.ty == Ty::Str) return str_literal(e.str, p);
          if (e.ty == Ty::Int) return const_i64(e.ival, p);
          if (e.ty == Ty::Float) return const_f64(e.fval, p);
          return const_bool(e.bval, p);
        }
        return load_as(e.str, e.ty, p);
      case ExprKind::Unary: {
        const Expr& a = *e.kids[0];
        Value* v = expr(a);
        if (e.str == "not") return not_(truth(v, a.ty, p), p);
        v = convert(v, a.ty, e.ty, p);
        if (e.str == "+") return v;
        if (e.str == "~") return emit("core.xor", {v, const_i64(-1, p)}, {Type::i64()}, {}, p);
        if (e.ty == Ty::Float) return emit("core.neg", {v}, {Type::f64()}, {}, p);
        return emit("core.neg", {v}, {Type::i64()}, {{"overflow", ovf()}}, p);
      }
      case ExprKind::Binary: {
        if (e.target == "repeat") return repeat(e);
        if (e.target == "list.concat")
          return rt("ppy_list_concat", {expr(*e.kids[0]), expr(*e.kids[1])}, ir_type(e.ty), p);
        Value* a = expr(*e.kids[0]);
        Value* b = expr(*e.kids[1]);
        if (e.ty == Ty::Str) return str_binary(e, a, b);
        return arith(e.str, a, e.kids[0]->ty, b, e.kids[1]->ty, e.ty, p);
      }
      case ExprKind::BoolOp: {
        Value* a = expr(*e.kids[0]);
        Value* t = truth(a, e.kids[0]->ty, p);
        int n = ++labels_;
        Block* rhs = new_block(str_cat(e.str, ".rhs"), n);
        Block* join = new_block(str_cat(e.str, ".end"), n);
        if (e.str == "and") cond_br(t, rhs, {}, join, {a}, p);
        else cond_br(t, join, {a}, rhs, {}, p);
        cur_ = rhs;
        Value* b = expr(*e.kids[1]);
        br(join, {b}, p);
        cur_ = join;
        return join->add_argument(ir_type(e.ty), "");
      }
      case ExprKind::Compare: return compare(e);
      case ExprKind::IfExp: {
        Value* c = truth(expr(*e.kids[0]), e.kids[0]->ty, p);
        int n = ++labels_;
        Block* tb = new_block("sel.then", n);
        Block* fb = new_block("sel.else", n);
        Block* join = new_block("sel.end", n);
        cond_br(c, tb, {}, fb, {}, p);
        cur_ = tb;
        Value* a = coerce(expr(*e.kids[1]), e.kids[1]->ty, e.ty, p);
        br(join, {a}, p);
        cur_ = fb;
        Value* b = coerce(expr(*e.kids[2]), e.kids[2]->ty, e.ty, p);
        br(join, {b}, p);
        cur_ = join;
        return join->add_argument(ir_type(e.ty), "");
      }
      case ExprKind::Call: return call(e);
      case ExprKind::Subscript: {
        if (e.kids[0]->ty == Ty::Str) return str_subscript(e);
        if (e.target == "tuple") return extract(expr(*e.kids[0]), static_cast<size_t>(e.ival), p);
        if (is_table(e.kids[0]->ty)) {
          Value* d = expr(*e.kids[0]);
          return table_get(d, e.kids[0]->ty, key(expr(*e.kids[1]), e.kids[0]->ty, p), p);
        }
        if (e.kids[1]->kind == ExprKind::Slice) return slice_of(e, expr(*e.kids[0]), "ppy_list_slice", ir_type(e.ty));
        Value* buf = expr(*e.kids[0]);
        Value* i = convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p);
        Value* idx = list_index(buf, i, p, false);
        return emit("core.buffer_load", {buf, idx}, {ir_type(e.ty)}, {}, p);
      }
      case ExprKind::ListComp:
        return list_comp(e);
      case ExprKind::Dict:
      case ExprKind::Set:
        return table_display(e);
      case ExprKind::DictComp:
      case ExprKind::SetComp:
        return table_comp(e);
      case ExprKind::List: {
        std::vector<Value*> vals;
        for (auto& k : e.kids) vals.push_back(coerce(expr(*k), k->ty, list_elem(e.ty), p));
        Value* buf = new_list(e.ty, const_index(static_cast<int64_t>(vals.size()), p), p);
        for (size_t i = 0; i < vals.size(); ++i)
          emit("core.buffer_store", {vals[i], buf, const_index(static_cast<int64_t>(i), p)}, {}, {}, p);
        return buf;
      }
      default:
        return const_i64(0, p);  // unreachable: the checker refused it
    }
  }

  Value* new_list(Ty t, Value* n, Pos p) {
    std::string callee = str_cat("ppy_list_new_", list_suffix(list_elem(t)));
    return emit("core.call_extern", {n}, {ir_type(t)}, {{"abi", "c"}, {"callee", callee}}, p);
  }

  /// How the runtime moves an element of type `t` (docs/runtime.md, "Lists"):
  /// i64 (an int, or a bool as 0 or 1), f64, or ptr (a str or a list handle).
  static const char* list_suffix(Ty t) {
    if (t == Ty::Int || t == Ty::Bool) return "i64";
    if (t == Ty::Float) return "f64";
    return "ptr";
  }

  /// A list's element type as the runtime's repr and == read it: `i`, `f`,
  /// `b`, `s`, `[` and the elements' descriptor.
  static std::string list_desc(Ty t) { return value_desc(list_elem(t)); }
  /// `(` and the elements' descriptors and `)` for a tuple, `?` and the value's for an optional.
  static std::string value_desc(Ty e) {
    if (e == Ty::Int) return "i";
    if (e == Ty::Float) return "f";
    if (e == Ty::Bool) return "b";
    if (e == Ty::Str) return "s";
    if (is_optional(e)) return "?" + value_desc(optional_inner(e));
    if (is_tuple(e)) {
      std::string d = "(";
      for (Ty x : tuple_elems(e)) d += value_desc(x);
      return d + ")";
    }
    if (is_class(e)) return "o";  // objects: the checker refuses what would read this
    if (is_list(e)) return "[" + list_desc(e);
    return "n";  // the value None (a tuple element `(1, None)`)
  }

  /// A tuple or an optional travels to the runtime's list functions as its box
  /// (docs/runtime.md, "Lists"): stored into a list of one element, taken out.
  static bool boxed(Ty t) { return is_tuple(t) || is_optional(t); }
  Value* box(Value* v, Ty elem, Pos p) {
    Value* tmp = new_list(list_of(elem), const_index(1, p), p);
    emit("core.buffer_store", {v, tmp, const_index(0, p)}, {}, {}, p);
    return rt("ppy_list_pop_ptr", {tmp}, str_type(), p);
  }
  Value* unbox(Value* handle, Ty elem, Pos p) {
    Value* tmp = new_list(list_of(elem), const_index(0, p), p);
    call_extern("ppy_list_append_ptr", {tmp, handle}, p);
    return emit("core.buffer_load", {tmp, const_index(0, p)}, {ir_type(elem)}, {}, p);
  }
  /// An element `v` of type `t` as the runtime's list functions take it: a
  /// bool as an i64, a tuple or an optional as its box.
  Value* element_arg(Value* v, Ty t, Ty elem, Pos p) {
    v = coerce(v, t, elem, p);
    if (elem == Ty::Bool) return cast(v, Type::i64(), p);
    if (boxed(elem)) return box(v, elem, p);
    return v;
  }

  // --- dicts and sets (docs/runtime.md, "Dicts and sets") ---
  static bool is_table(Ty t) { return is_dict(t) || is_set(t); }
  /// A key's or value's descriptor: `i`, `f`, `b`, `s`, or `[` and a list's element descriptor.
  static std::string item_desc(Ty t) { return list_desc(list_of(t)); }
  /// The runtime's descriptor of a table: `K:V` for a dict, `K` for a set.
  static std::string table_desc(Ty t) {
    std::string d = item_desc(key_of(t));
    if (is_dict(t)) d += ":" + item_desc(dict_value(t));
    return d;
  }
  /// How the runtime takes a key: an int as i64, a str as its handle.
  static const char* key_sfx(Ty t) { return t == Ty::Int ? "i64" : "ptr"; }
  /// A key as the runtime takes it: a tuple in its box (as a list holds it), else itself.
  Value* key(Value* k, Ty table, Pos p) { return is_tuple(key_of(table)) ? box(k, key_of(table), p) : k; }
  /// A value as the runtime's word (a bool as 0 or 1), and back.
  Value* to_word(Value* v, Ty t, Pos p) { return t == Ty::Bool ? cast(v, Type::i64(), p) : v; }
  Value* from_word(Value* v, Ty t, Pos p) { return t == Ty::Bool ? cmp("ne", v, const_i64(0, p), p) : v; }
  static Type word_type(Ty t) { return t == Ty::Bool ? Type::i64() : ir_type(t); }
  Value* new_table(Ty t, Pos p) { return rt("ppy_dict_new", {str_literal(table_desc(t), p)}, ir_type(t), p); }
  std::string table_fn(const char* what, Ty t) {
    return str_cat("ppy_dict_", what, "_", key_sfx(key_of(t)), "_", list_suffix(dict_value(t)));
  }
  void table_set(Value* d, Ty t, Value* k, Value* v, Pos p) {
    call_extern(table_fn("set", t).c_str(), {d, k, to_word(v, dict_value(t), p)}, p);
  }
  Value* table_get(Value* d, Ty t, Value* k, Pos p) {
    Ty v = dict_value(t);
    return from_word(rt(table_fn("get", t).c_str(), {d, k}, word_type(v), p), v, p);
  }
  Value* table_contains(Value* d, Ty t, Value* k, Pos p) {
    return rt(str_cat("ppy_dict_contains_", key_sfx(key_of(t))).c_str(), {d, k}, Type::i64(), p);
  }
  void set_add(Value* s, Ty t, Value* k, Pos p) {
    call_extern(str_cat("ppy_set_add_", key_sfx(key_of(t))).c_str(), {s, k}, p);
  }

  /// `{k: v, ...}` and `{a, b}`: a new table filled in the display's order.
  Value* table_display(const Expr& e) {
    Pos p = e.pos;
    Value* d = new_table(e.ty, p);
    if (e.kind == ExprKind::Set) {
      for (auto& k : e.kids) set_add(d, e.ty, key(expr(*k), e.ty, p), p);
      return d;
    }
    for (size_t i = 0; i + 1 < e.kids.size(); i += 2) {
      Value* k = key(expr(*e.kids[i]), e.ty, p);
      Value* v = expr(*e.kids[i + 1]);
      table_set(d, e.ty, k, v, p);
    }
    return d;
  }

  /// `{k: v for x in it if cond}` and `{x for x in it if cond}`: comp_into's loop, each key (and value) put in.
  Value* table_comp(const Expr& e) {
    Pos p = e.pos;
    Value* out = new_table(e.ty, p);
    std::function<void(const Expr&)> put = [&](const Expr& x) {
      Value* k = key(expr(x), e.ty, p);
      if (e.kind == ExprKind::SetComp)
        set_add(out, e.ty, k, p);
      else
        table_set(out, e.ty, k, expr(*e.kids.back()), p);
    };
    comp_into(e, out, Ty::Error, &put);
    return out;
  }

  /// The methods of dicts and sets.
  Value* table_method(const Expr& e) {
    Pos p = e.pos;
    const Expr& base = *e.kids[0]->kids[0];
    Value* d = expr(base);
    Ty t = base.ty;
    const std::string& n = e.target;
    if (n == "dict.keys" || n == "dict.values")
      return rt(n == "dict.keys" ? "ppy_dict_keys" : "ppy_dict_values", {d}, ir_type(e.ty), p);
    if (n == "dict.clear" || n == "set.clear") {
      call_extern("ppy_dict_clear", {d}, p);
      return nullptr;
    }
    Value* k = key(expr(*e.kids[1]), t, p);
    if (n.starts_with("set.")) {
      call_extern(str_cat("ppy_set_", n.substr(4), "_", key_sfx(key_of(t))).c_str(), {d, k}, p);
      return nullptr;
    }
    Ty v = dict_value(t);
    if (n == "dict.__delitem__") {  // `del d[k]`: a pop whose value is dropped
      rt(table_fn("pop", t).c_str(), {d, k}, word_type(v), p);
      return nullptr;
    }
    bool get = n == "dict.get";
    if (e.kids.size() == 3) {
      Value* dflt = to_word(expr(*e.kids[2]), v, p);
      return from_word(rt(table_fn(get ? "get_or" : "pop_or", t).c_str(), {d, k, dflt}, word_type(v), p), v, p);
    }
    if (!get) return from_word(rt(table_fn("pop", t).c_str(), {d, k}, word_type(v), p), v, p);
    // d.get(k): an optional, None when k is not there.
    Value* found = cmp("ne", table_contains(d, t, k, p), const_i64(0, p), p);
    Value* val = rt(table_fn("get_or", t).c_str(), {d, k, to_word(zero_of(v, p), v, p)}, word_type(v), p);
    return make_tuple({found, from_word(val, v, p)}, e.ty, p);
  }

  /// `for k, v in d.items()`: lists of the keys and values made when the loop starts, its size checked at each step.
  void for_items(const Stmt& s) {
    const Expr& t = *s.targets[0];
    items_loop(*s.value, s.pos, [&](Value* k, Ty, Value* v, Ty) {
      store_local(t.kids[0]->str, k, t.pos);
      store_local(t.kids[1]->str, v, t.pos);
      block(s.body);
    });
  }

  /// A loop over `it`, a `d.items()` call: `body_fn(key, key type, value, value type)` at each step, in a loop
  /// whose break and continue are its own.
  template <typename Body>
  void items_loop(const Expr& it, Pos p, Body body_fn) {
    const Expr& base = *it.kids[0]->kids[0];
    Ty dt = base.ty;
    Value* d = expr(base);
    Value* n0 = rt("ppy_dict_len", {d}, Type::i64(), p);
    Ty kt = key_of(dt), vt = dict_value(dt);
    Value* keys = rt("ppy_dict_keys", {d}, ir_type(list_of(kt)), p);
    Value* vals = rt("ppy_dict_values", {d}, ir_type(list_of(vt)), p);
    int n = ++labels_;
    Block* head = new_block("for.head", n);
    Block* body = new_block("for.body", n);
    Block* latch = new_block("for.latch", n);
    Block* exit = new_block("for.end", n);
    br(head, {const_i64(0, p)}, p);
    cur_ = head;
    Value* i = head->add_argument(Type::i64(), "i");
    call_extern("ppy_dict_check_iter", {d, n0}, p);
    cond_br(cmp("lt", i, list_len(keys, p), p), body, {}, exit, {}, p);
    cur_ = body;
    Value* ix = cast(i, Type::index(), p);
    Value* k = emit("core.buffer_load", {keys, ix}, {ir_type(kt)}, {}, p);
    Value* v = emit("core.buffer_load", {vals, ix}, {ir_type(vt)}, {}, p);
    loops_.push_back({latch, exit});
    body_fn(k, kt, v, vt);
    loops_.pop_back();
    if (!terminated()) br(latch, {}, p);
    cur_ = latch;
    br(head, {iadd(i, const_i64(1, p), p, "proven")}, p);
    cur_ = exit;
  }

  /// `[elt for x in it if cond ...]`: a new list appended to in a loop (docs/language.md, "Lists").
  Value* list_comp(const Expr& e) {
    Value* out = new_list(e.ty, const_index(0, e.pos), e.pos);
    comp_into(e, out, list_elem(e.ty));
    return out;
  }
  /// One `for` clause of a comprehension: its loop, its conditions, then the next
  /// clause (a ListComp marked "for") or the element appended to `out`.
  /// `put` (a dict or set comprehension's) takes each element instead of the append to `out`.
  void comp_into(const Expr& e, Value* out, Ty elem, const std::function<void(const Expr&)>* put = nullptr) {
    Pos p = e.pos;
    std::vector<std::string> names;
    size_t from = 0;
    for (size_t at; (at = e.target.find(',', from)) != std::string::npos; from = at + 1)
      names.push_back(e.target.substr(from, at - from));
    names.push_back(e.target.substr(from));
    Expr unpack;  // `for a, b in pairs`: the names as a tuple target
    unpack.kind = ExprKind::Tuple;
    unpack.pos = p;
    for (const std::string& n : names) {
      auto k = std::make_unique<Expr>();
      k->kind = ExprKind::Name;
      k->str = n;
      k->pos = p;
      unpack.kids.push_back(std::move(k));
    }
    std::string append = str_cat("ppy_list_append_", list_suffix(elem));
    auto body = [&] {
      Block* skip = nullptr;
      for (int64_t k = 0; k < e.ival; ++k) {
        int n = ++labels_;
        Block* take = new_block("comp.take", n);
        if (!skip) skip = new_block("comp.skip", n);
        const Expr& c = *e.kids[2 + static_cast<size_t>(k)];
        cond_br(truth(expr(c), c.ty, p), take, {}, skip, {}, p);
        cur_ = take;
      }
      const Expr& x = *e.kids[0];
      if (x.kind == ExprKind::ListComp && x.str == "for") {
        comp_into(x, out, elem, put);
      } else if (put) {
        (*put)(x);
      } else {
        Value* v = element_arg(expr(x), x.ty, elem, p);
        call_extern(append.c_str(), {out, v}, p);
      }
      if (skip) {
        if (!terminated()) br(skip, {}, p);
        cur_ = skip;
      }
    };
    const Expr& it = *e.kids[1];
    if (it.target == "enumerate" || it.target == "zip" || it.target == "dict.items") {
      auto pairs = [&](Value* a, Ty at, Value* b, Ty bt) {
        Value* pair = make_tuple({a, b}, tuple_of({at, bt}), p);
        if (names.size() > 1)
          assign(unpack, pair, tuple_of({at, bt}));
        else
          store_local(names[0], pair, p);
        body();
      };
      if (it.target == "dict.items")
        items_loop(it, p, pairs);
      else
        pairs_loop(it, p, pairs);
      return;
    }
    for_loop(names[0], p, it, p, body, names.size() > 1 ? &unpack : nullptr);
  }

  /// `list(x)`: a copy of a list; the characters of a str, the ints of a range,
  /// the pairs of zip or enumerate appended to a new list.
  Value* list_call(const Expr& e) {
    Pos p = e.pos;
    if (e.target == "list.new") return new_list(e.ty, const_index(0, p), p);
    const Expr& a = *e.kids[1];
    if (e.target == "list.copy_of")
      return rt("ppy_list_slice", {expr(a), const_i64(0, p), const_i64(0, p), const_i64(1, p), const_i64(3, p)},
                ir_type(e.ty), p);
    Ty elem = list_elem(e.ty);
    Value* out = new_list(e.ty, const_index(0, p), p);
    std::string append = str_cat("ppy_list_append_", list_suffix(elem));
    if (e.target == "list.pairs") {
      pairs_loop(a, p, [&](Value* x, Ty, Value* y, Ty) {
        call_extern(append.c_str(), {out, element_arg(make_tuple({x, y}, elem, p), elem, elem, p)}, p);
      });
      return out;
    }
    std::string var = str_cat(".list", ++labels_);
    for_loop(
        var, p, a, p, [&] {}, nullptr,
        [&](Value* x) {
          call_extern(append.c_str(), {out, element_arg(x, elem, elem, p)}, p);
        });
    return out;
  }

  /// `sum(xs)`, `sorted(xs)`, `min(xs)`, `max(xs)` of a list.
  Value* list_builtin(const Expr& e) {
    Pos p = e.pos;
    const Expr& a = *e.kids[1];
    Value* l = expr(a);
    Ty at = a.ty;
    if (is_table(at)) {  // its keys
      at = list_of(key_of(at));
      l = rt("ppy_dict_keys", {l}, ir_type(at), p);
    }
    Ty elem = list_elem(at);
    std::string sfx = list_suffix(elem);
    if (e.target == "list.sorted") return rt("ppy_list_sorted", {l, str_literal(list_desc(at), p)}, ir_type(e.ty), p);
    if (e.target == "list.sum" && e.kids.size() == 3) {
      Value* start = convert(expr(*e.kids[2]), e.kids[2]->ty, elem, p);
      return rt(str_cat("ppy_list_sum_from_", sfx).c_str(), {l, start}, ir_type(elem), p);
    }
    if (e.target == "list.sum") return rt(str_cat("ppy_list_sum_", sfx).c_str(), {l}, ir_type(elem), p);
    Value* max = const_i64(e.target == "list.max" ? 1 : 0, p);
    if (is_list(elem) || boxed(elem)) {  // lists and tuples order by the descriptor
      Value* h = rt("ppy_list_min_desc", {l, max, str_literal(list_desc(a.ty), p)},
                    boxed(elem) ? str_type() : ir_type(elem), p);
      return boxed(elem) ? unbox(h, elem, p) : h;
    }
    return rt(str_cat("ppy_list_min_", sfx).c_str(), {l, max}, ir_type(elem), p);
  }

  /// `xs.append(v)` and `xs.pop()`.
  Value* list_method(const Expr& e) {
    Pos p = e.pos;
    const Expr& base = *e.kids[0]->kids[0];
    Value* l = expr(base);
    Ty elem = list_elem(base.ty);
    std::string sfx = list_suffix(elem);
    if (e.target == "list.append") {
      Value* v = element_arg(expr(*e.kids[1]), e.kids[1]->ty, elem, p);
      call_extern(str_cat("ppy_list_append_", sfx).c_str(), {l, v}, p);
      return nullptr;
    }
    if (e.target == "list.insert") {
      Value* i = convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p);
      Value* v = element_arg(expr(*e.kids[2]), e.kids[2]->ty, elem, p);
      call_extern(str_cat("ppy_list_insert_", sfx).c_str(), {l, i, v}, p);
      return nullptr;
    }
    if (e.target == "list.extend") {
      call_extern("ppy_list_extend", {l, expr(*e.kids[1])}, p);
      return nullptr;
    }
    if (e.target == "list.copy")
      return rt("ppy_list_slice", {l, const_i64(0, p), const_i64(0, p), const_i64(1, p), const_i64(3, p)},
                ir_type(base.ty), p);
    if (e.target == "list.sort") {
      call_extern("ppy_list_sort", {l, str_literal(list_desc(base.ty), p)}, p);
      return nullptr;
    }
    if (e.target == "list.reverse" || e.target == "list.clear") {
      call_extern(e.target == "list.reverse" ? "ppy_list_reverse" : "ppy_list_clear", {l}, p);
      return nullptr;
    }
    if (e.target == "list.index" || e.target == "list.count" || e.target == "list.remove") {
      Value* v = element_arg(expr(*e.kids[1]), e.kids[1]->ty, elem, p);
      std::vector<Value*> args{l, v};
      if (e.target != "list.count" || sfx == "ptr") args.push_back(str_literal(list_desc(base.ty), p));
      std::string fn = str_cat("ppy_list_", e.target.substr(5), "_", sfx);
      if (e.target == "list.remove") {
        call_extern(fn.c_str(), args, p);
        return nullptr;
      }
      return rt(fn.c_str(), args, Type::i64(), p);
    }
    // list.pop, list.pop(i)
    Type slot = sfx == "i64" ? Type::i64() : sfx == "f64" ? Type::f64() : boxed(elem) ? str_type() : ir_type(elem);
    Value* v = e.kids.size() == 2
                   ? rt(str_cat("ppy_list_pop_at_", sfx).c_str(), {l, convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p)},
                        slot, p)
                   : rt(str_cat("ppy_list_pop_", sfx).c_str(), {l}, slot, p);
    if (elem == Ty::Bool) v = cmp("ne", v, const_i64(0, p), p);
    if (boxed(elem)) v = unbox(v, elem, p);
    return v;
  }

  Value* repeat(const Expr& e) {
    Pos p = e.pos;
    bool list_first = e.kids[0]->kind == ExprKind::List;
    const Expr& lst = list_first ? *e.kids[0] : *e.kids[1];
    const Expr& cnt = list_first ? *e.kids[1] : *e.kids[0];
    Value* x;
    Value* count;
    if (list_first) {
      x = expr(*lst.kids[0]);
      count = convert(expr(cnt), cnt.ty, Ty::Int, p);
    } else {
      count = convert(expr(cnt), cnt.ty, Ty::Int, p);
      x = expr(*lst.kids[0]);
    }
    Value* zero = const_i64(0, p);
    count = select(cmp("lt", count, zero, p), zero, count, p);
    Value* buf = new_list(e.ty, cast(count, Type::index(), p), p);
    const Expr& xe = *lst.kids[0];
    bool zero_fill = (xe.kind == ExprKind::Int && xe.ival == 0) ||
                     (xe.kind == ExprKind::Float && xe.fval == 0.0 && !std::signbit(xe.fval));
    if (zero_fill) return buf;
    int n = ++labels_;
    Block* head = new_block("fill.head", n);
    Block* body = new_block("fill.body", n);
    Block* exit = new_block("fill.end", n);
    br(head, {zero}, p);
    cur_ = head;
    Value* i = head->add_argument(Type::i64(), "i");
    cond_br(cmp("lt", i, count, p), body, {}, exit, {}, p);
    cur_ = body;
    emit("core.buffer_store", {x, buf, cast(i, Type::index(), p)}, {}, {}, p);
    br(head, {iadd(i, const_i64(1, p), p, "proven")}, p);
    cur_ = exit;
    return buf;
  }

  Value* compare(const Expr& e) {
    Pos p = e.pos;
    static const std::map<std::string, const char*> preds = {{"<", "lt"}, {"<=", "le"}, {">", "gt"},
                                                             {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}};
    auto one = [&](Value* a, Ty at, Value* b, Ty bt, const std::string& op) {
      if (is_table(bt) && (op == "in" || op == "not in"))
        return cmp(op == "in" ? "ne" : "eq", table_contains(b, bt, key(a, bt, p), p), const_i64(0, p), p);
      if (is_table(at)) {
        Value* eq = rt("ppy_dict_eq", {a, b}, Type::i64(), p);
        return cmp(op == "==" ? "ne" : "eq", eq, const_i64(0, p), p);
      }
      if (is_list(bt) && (op == "in" || op == "not in")) {
        Ty elem = list_elem(bt);
        std::string sfx = list_suffix(elem);
        Value* found;
        a = element_arg(a, at, elem, p);
        if (sfx == "ptr")
          found = rt("ppy_list_contains_ptr", {b, a, str_literal(list_desc(bt), p)}, Type::i64(), p);
        else
          found = rt(str_cat("ppy_list_contains_", sfx).c_str(), {b, a}, Type::i64(), p);
        return cmp(op == "in" ? "ne" : "eq", found, const_i64(0, p), p);
      }
      if (is_list(at) && op != "is" && op != "is not") return list_compare(a, b, at, op, p);
      if (at >= Ty::FirstCompound || bt >= Ty::FirstCompound || op == "is" || op == "is not")
        return compare_compound(a, at, b, bt, op, p);
      if (at == Ty::Str) {
        if (op == "in" || op == "not in")
          return cmp(op == "in" ? "ne" : "eq", rt("ppy_str_contains", {b, a}, Type::i64(), p), const_i64(0, p), p);
        return cmp(preds.at(op), rt("ppy_str_compare", {a, b}, Type::i64(), p), const_i64(0, p), p);
      }
      Ty common = (at == Ty::Float || bt == Ty::Float) ? Ty::Float : Ty::Int;
      Value* ca = convert(a, at, common, p);
      Value* cb = convert(b, bt, common, p);
      return cmp(preds.at(op), ca, cb, p);
    };
    Value* left = expr(*e.kids[0]);
    Value* right = expr(*e.kids[1]);
    Value* r = one(left, e.kids[0]->ty, right, e.kids[1]->ty, e.ops[0]);
    if (e.ops.size() == 1) return r;
    int n = ++labels_;
    Block* join = new_block("cmp.end", n);
    for (size_t k = 1; k < e.ops.size(); ++k) {
      Block* next = new_block(str_cat("cmp.next", n, "."), static_cast<int>(k));
      Value* f = const_bool(false, p);
      cond_br(r, next, {}, join, {f}, p);
      cur_ = next;
      Value* nv = expr(*e.kids[k + 1]);
      r = one(right, e.kids[k]->ty, nv, e.kids[k + 1]->ty, e.ops[k]);
      right = nv;
    }
    br(join, {r}, p);
    cur_ = join;
    return join->add_argument(Type::i1(), "");
  }

  /// `a op b` with operands of source types at/bt and result type rt.
  Value* arith(const std::string& op, Value* a, Ty at, Value* b, Ty bt, Ty rt, Pos p) {
    if (op == "<<" || op == ">>") return shift(op == "<<", convert(a, at, Ty::Int, p), convert(b, bt, Ty::Int, p), p);
    if (op == "&" || op == "|" || op == "^") {
      const char* name = op == "&" ? "core.and" : op == "|" ? "core.or" : "core.xor";
      a = convert(a, at, rt, p);
      b = convert(b, bt, rt, p);
      return emit(name, {a, b}, {ir_type(rt)}, {}, p);
    }
    bool both_int = at != Ty::Float && bt != Ty::Float;
    Ty ot = (op == "/" || rt == Ty::Float) ? Ty::Float : Ty::Int;
    a = convert(a, at, ot, p);
    b = convert(b, bt, ot, p);
    Type T = ir_type(ot);
    bool flt = ot == Ty::Float;
    if (op == "+" || op == "-" || op == "*") {
      const char* name = op == "+" ? "core.add" : op == "-" ? "core.sub" : "core.mul";
      if (flt) return emit(name, {a, b}, {T}, {}, p);
      return emit(name, {a, b}, {T}, {{"overflow", ovf()}}, p);
    }
    if (op == "/" || op == "//" || op == "%") {
      Value* zero = flt ? const_f64(0.0, p) : const_i64(0, p);
      const char* msg = op == "/" ? (both_int ? "division by zero" : "float division by zero")
                        : op == "//" ? (flt ? "float floor division by zero" : "integer division or modulo by zero")
                                     : (flt ? "float modulo" : "integer modulo by zero");
      guard(cmp("ne", b, zero, p), "zero_division", msg, p);
      const char* name = op == "%" ? "core.mod" : "core.div";
      if (op == "/") return emit(name, {a, b}, {T}, {}, p);
      if (flt) return emit(name, {a, b}, {T}, {{"rounding", "floor"}}, p);
      return emit(name, {a, b}, {T}, {{"overflow", ovf()}, {"rounding", "floor"}}, p);
    }
    if (op == "**") {
      if (!flt) return emit("core.call_extern", {a, b}, {T}, {{"abi", "c"}, {"callee", "ppy_pow_i64"}}, p);
      return fpow(a, b, p, false);
    }
    return a;
  }

  /// `a << b` / `a >> b` with Python's errors: a negative count is ValueError,
  /// a `<<` leaving i64 OverflowError (`overflow = "python"` on core.shl).
  Value* shift(bool left, Value* a, Value* b, Pos p) {
    guard(cmp("ge", b, const_i64(0, p), p), "range", "negative shift count", p);
    if (left) return emit("core.shl", {a, b}, {Type::i64()}, {{"overflow", ovf()}}, p);
    return emit("core.shr", {a, b}, {Type::i64()}, {}, p);
  }

  Value* is_inf(Value* x, Pos p) {
    use_dialect("math");
    Value* ax = emit("math.abs", {x}, {Type::f64()}, {}, p);
    return cmp("eq", ax, const_f64(INFINITY, p), p);
  }

  /// Float power with Python's errors; `math_fn` selects math.pow's wording.
  Value* fpow(Value* a, Value* b, Pos p, bool math_fn) {
    use_dialect("math");
    if (!gpu_) {
      Value* fz = const_f64(0.0, p);
      Value* a_zero = cmp("eq", a, fz, p);
      Value* b_neg = cmp("lt", b, fz, p);
      Value* zero_neg = and_(a_zero, b_neg, p);
      guard(not_(zero_neg, p), math_fn ? "range" : "zero_division",
            math_fn ? "math domain error" : "0.0 cannot be raised to a negative power", p);
      Value* frac = cmp("ne", emit("math.trunc", {b}, {Type::f64()}, {}, p), b, p);
      Value* a_neg = cmp("lt", a, fz, p);
      Value* neg_base_frac = and_(a_neg, frac, p);
      Value* b_finite = not_(is_inf(b, p), p);
      Value* neg_frac = and_(neg_base_frac, b_finite, p);
      guard(not_(neg_frac, p), "range",
            math_fn ? "math domain error"
                    : "a negative number raised to a fractional power is complex, which is outside the ppy subset",
            p);
    }
    Value* r = emit("math.pow", {a, b}, {Type::f64()}, {}, p);
    if (!gpu_) {
      Value* r_inf = is_inf(r, p);
      Value* a_inf = is_inf(a, p);
      Value* b_inf = is_inf(b, p);
      Value* finite_in = not_(or_(a_inf, b_inf, p), p);
      Value* blew = and_(r_inf, finite_in, p);
      guard(not_(blew, p), "overflow", math_fn ? "math range error" : "(34, 'Numerical result out of range')", p);
    }
    return r;
  }

  /// A float to int, as Python's int(): truncation, with its errors.
  Value* float_to_int(Value* x, Pos p) {
    if (!gpu_) {
      guard(cmp("eq", x, x, p), "range", "cannot convert float NaN to integer", p);
      guard(not_(is_inf(x, p), p), "overflow", "cannot convert float infinity to integer", p);
      Value* above_min = cmp("ge", x, const_f64(-9223372036854775808.0, p), p);
      Value* below_max = cmp("lt", x, const_f64(9223372036854775808.0, p), p);
      Value* ok = and_(above_min, below_max, p);
      guard(ok, "overflow", "integer overflow", p);
    }
    return cast(x, Type::i64(), p);
  }

  Value* call(const Expr& e) {
    Pos p = e.pos;
    switch (e.ref) {
      case Ref::Func:
        return user_call(e);
      case Ref::Ctor:
        return construct(e);
      case Ref::Method:
        return method_call(e);
      case Ref::Super:
        return super_call(e);
      case Ref::Builtin:
        return builtin(e);
      case Ref::Math:
        return math_call(e);
      case Ref::Cuda:
      case Ref::Native: return gpu_call(e);
      default: return const_i64(0, p);
    }
  }

  Value* user_call(const Expr& e) {
    std::vector<Value*> args;
    std::vector<std::pair<int, Value*>> placed;
    for (size_t i = 1; i < e.kids.size(); ++i) placed.emplace_back(e.kids[i]->param_index, expr(*e.kids[i]));
    for (auto& k : e.keywords) placed.emplace_back(k.value->param_index, expr(*k.value));
    args.resize(placed.size());
    for (auto& [i, v] : placed) args[static_cast<size_t>(i)] = v;
    size_t dot = e.target.rfind('.');
    std::string sym = symbol_name(e.target.substr(0, dot), e.target.substr(dot + 1));
    // An argument takes its parameter's type (a value or None into an optional).
    std::vector<Ty> params = kernel_params(e.target.substr(0, dot), e.target.substr(dot + 1));
    std::vector<Ty> arg_ty(args.size(), Ty::Error);
    for (size_t i = 1; i < e.kids.size(); ++i) arg_ty[static_cast<size_t>(e.kids[i]->param_index)] = e.kids[i]->ty;
    for (auto& k : e.keywords) arg_ty[static_cast<size_t>(k.value->param_index)] = k.value->ty;
    for (size_t i = 0; i < args.size() && i < params.size(); ++i)
      args[i] = coerce(args[i], arg_ty[i], params[i], e.pos);
    std::vector<Type> res;
    if (e.ty != Ty::None) res.push_back(ir_type(e.ty));
    return emit("core.call", std::move(args), res, {{"callee", SymbolRef{sym}}}, e.pos);
  }

  Value* builtin(const Expr& e) {
    Pos p = e.pos;
    const std::string& n = e.target;
    if (n == "isinstance") return isinstance(e);
    if (n == "print") {
      // Python evaluates every argument before printing any.
      std::vector<std::pair<Value*, const Expr*>> vals;
      std::map<size_t, std::vector<std::string>> choices;
      for (size_t i = 1; i < e.kids.size(); ++i) {
        const Expr& a = *e.kids[i];
        Value* v = nullptr;
        if (a.ty == Ty::Str && literal_choice(a)) {
          if (a.kind != ExprKind::Str) v = str_choice(a, choices[i - 1]);
        } else {
          v = expr(a);
        }
        vals.emplace_back(v, &a);
      }
      const std::string* sep = nullptr;
      const std::string* end = nullptr;
      for (auto& k : e.keywords) {
        if (k.name == "sep") sep = &k.value->str;
        if (k.name == "end") end = &k.value->str;
      }
      for (size_t i = 0; i < vals.size(); ++i) {
        if (i > 0) {
          if (!sep) call_extern("ppy_print_space", {}, p);
          else if (!sep->empty()) call_extern("ppy_print_str", {}, p, {{"text", *sep}});
        }
        if (choices.count(i)) print_choice(vals[i].first, choices[i], p);
        else print_value(vals[i].first, *vals[i].second, p);
      }
      if (!end) call_extern("ppy_print_newline", {}, p);
      else if (!end->empty()) call_extern("ppy_print_str", {}, p, {{"text", *end}});
      return nullptr;
    }
    if (n == "int0") return const_i64(0, p);
    if (n == "float0") return const_f64(0.0, p);
    if (n == "bool0") return const_bool(false, p);
    if (n == "str.join") return rt("ppy_str_join", {expr(*e.kids[0]->kids[0]), expr(*e.kids[1])}, str_type(), p);
    if (n == "str.split") {
      Value* s = expr(*e.kids[0]->kids[0]);
      if (e.kids.size() == 1) return rt("ppy_str_split_ws", {s}, ir_type(e.ty), p);
      return rt("ppy_str_split", {s, expr(*e.kids[1])}, ir_type(e.ty), p);
    }
    if (n.starts_with("str.")) return str_method(e);
    if (n == "list.sum" || n == "list.sorted" || n == "list.min" || n == "list.max") return list_builtin(e);
    if (n == "list.new" || n == "list.copy_of" || n == "list.of" || n == "list.pairs") return list_call(e);
    if (n.starts_with("list.")) return list_method(e);
    if (n == "set" || n == "dict") return new_table(e.ty, p);
    if (n.starts_with("dict.") || n.starts_with("set.")) return table_method(e);
    if (n == "str" && e.kids.size() == 1) return str_literal("", p);
    const Expr& a = *e.kids[1];
    if (n == "len") {
      Value* v = expr(a);
      if (is_tuple(a.ty)) return const_i64(static_cast<int64_t>(tuple_elems(a.ty).size()), p);
      if (a.ty == Ty::Str) return rt("ppy_str_len", {v}, Type::i64(), p);
      if (is_table(a.ty)) return rt("ppy_dict_len", {v}, Type::i64(), p);
      return list_len(v, p);
    }
    Value* v = expr(a);
    if (n == "str") return str_of(v, a.ty, p);
    if (n == "ord") return rt("ppy_str_ord", {v}, Type::i64(), p);
    if (n == "chr") return rt("ppy_str_chr", {convert(v, a.ty, Ty::Int, p)}, str_type(), p);
    if (n == "repr") return repr_of(v, a.ty, p);
    if (a.ty == Ty::Str && n == "int") return rt("ppy_str_to_i64", {v}, Type::i64(), p);
    if (a.ty == Ty::Str && n == "float") return rt("ppy_str_to_f64", {v}, Type::f64(), p);
    if (n == "int") return a.ty == Ty::Float ? float_to_int(v, p) : convert(v, a.ty, Ty::Int, p);
    if (n == "float") return convert(v, a.ty, Ty::Float, p);
    if (n == "bool") return truth(v, a.ty, p);
    if (n == "abs") {
      if (a.ty == Ty::Float) {
        use_dialect("math");
        return emit("math.abs", {v}, {Type::f64()}, {}, p);
      }
      v = convert(v, a.ty, Ty::Int, p);
      Value* neg = emit("core.neg", {v}, {Type::i64()}, {{"overflow", ovf()}}, p);
      return select(cmp("lt", v, const_i64(0, p), p), neg, v, p);
    }
    if (n == "min" || n == "max") {
      Value* r = v;
      for (size_t i = 2; i < e.kids.size(); ++i) {
        Value* b = expr(*e.kids[i]);
        const char* pred = n == "min" ? "lt" : "gt";
        Value* better = a.ty == Ty::Str  ? cmp(pred, rt("ppy_str_compare", {b, r}, Type::i64(), p), const_i64(0, p), p)
                        : is_tuple(a.ty) ? lexicographic(b, a.ty, r, a.ty, pred, p)
                        : is_list(a.ty)  ? ordered(b, a.ty, r, a.ty, pred, p)
                                         : cmp(pred, b, r, p);
        r = select(better, b, r, p);
      }
      return r;
    }
    return const_i64(0, p);
  }

  // --- strings (docs/runtime.md, "Strings") ---
  /// Whether `e` is a string literal or a conditional expression choosing
  /// between such (print() prints the chosen text without making a str).
  static bool literal_choice(const Expr& e) {
    if (e.kind == ExprKind::Str) return true;
    return e.kind == ExprKind::IfExp && literal_choice(*e.kids[1]) && literal_choice(*e.kids[2]);
  }

  Value* str_binary(const Expr& e, Value* a, Value* b) {
    Pos p = e.pos;
    if (e.str == "+") return rt("ppy_str_concat", {a, b}, str_type(), p);
    // `s * n` or `n * s`
    bool str_first = e.kids[0]->ty == Ty::Str;
    Value* s = str_first ? a : b;
    Value* n = str_first ? convert(b, e.kids[1]->ty, Ty::Int, p) : convert(a, e.kids[0]->ty, Ty::Int, p);
    return rt("ppy_str_repeat", {s, n}, str_type(), p);
  }

  Value* str_subscript(const Expr& e) {
    Pos p = e.pos;
    Value* s = expr(*e.kids[0]);
    const Expr& i = *e.kids[1];
    if (i.kind != ExprKind::Slice) return rt("ppy_str_index", {s, convert(expr(i), i.ty, Ty::Int, p)}, str_type(), p);
    return slice_of(e, s, "ppy_str_slice", str_type());
  }

  /// `x[a:b:c]` of a str or a list `s`: the runtime's slice (docs/runtime.md).
  Value* slice_of(const Expr& e, Value* s, const char* callee, Type result) {
    Pos p = e.pos;
    const Expr& i = *e.kids[1];
    // The parts present, in order; the absent ones are 0 (start, stop) or 1 (step).
    Value* parts[3] = {nullptr, nullptr, nullptr};
    size_t k = 0;
    for (int bit = 0; bit < 3; ++bit)
      if (i.ival & (1 << bit)) {
        const Expr& x = *i.kids[k++];
        parts[bit] = convert(expr(x), x.ty, Ty::Int, p);
      }
    for (int bit = 0; bit < 3; ++bit)
      if (!parts[bit]) parts[bit] = const_i64(bit == 2 ? 1 : 0, p);
    int64_t omitted = ((i.ival & 1) ? 0 : 1) | ((i.ival & 2) ? 0 : 2);
    return rt(callee, {s, parts[0], parts[1], parts[2], const_i64(omitted, p)}, result, p);
  }

  Value* str_method(const Expr& e) {
    Pos p = e.pos;
    const std::string m = e.target.substr(4);
    std::vector<Value*> args{expr(*e.kids[0]->kids[0])};
    for (size_t k = 1; k < e.kids.size(); ++k) args.push_back(expr(*e.kids[k]));
    std::string callee = "ppy_str_" + m;
    if (e.ty == Ty::Bool) return cmp("ne", rt(callee.c_str(), args, Type::i64(), p), const_i64(0, p), p);
    return rt(callee.c_str(), args, e.ty == Ty::Int ? Type::i64() : str_type(), p);
  }

  /// An f-string: its parts made into strings and concatenated in order.
  Value* fstring(const Expr& e) {
    Pos p = e.pos;
    Value* acc = nullptr;
    for (auto& part : e.kids) {
      Value* v;
      if (part->kind == ExprKind::Str) {
        v = str_literal(part->str, p);
      } else {
        const Expr& x = *part->kids[0];
        v = expr(x);
        Ty t = x.ty;
        if (part->ival == 'r' && t == Ty::Str) v = rt("ppy_str_repr", {v}, str_type(), p);
        if (part->ival == 'r' && t >= Ty::FirstCompound && !is_list(t)) {
          v = repr_of(v, t, p);
          t = Ty::Str;
        }
        if (part->str.empty()) {
          v = str_of(v, t, p);
        } else {
          Value* spec = str_literal(part->str, p);
          if (t == Ty::Str) v = rt("ppy_str_format_str", {v, spec}, str_type(), p);
          else if (t == Ty::Float) v = rt("ppy_str_format_f64", {v, spec}, str_type(), p);
          else v = rt("ppy_str_format_i64", {cast(v, Type::i64(), p), spec}, str_type(), p);
        }
      }
      acc = acc ? rt("ppy_str_concat", {acc, v}, str_type(), p) : v;
    }
    return acc ? acc : str_literal("", p);
  }

  /// `str(v)` of a value of source type `t`.
  Value* str_of(Value* v, Ty t, Pos p) {
    switch (t) {
      case Ty::Str: return v;
      case Ty::Int: return rt("ppy_str_from_i64", {v}, str_type(), p);
      case Ty::Float: return rt("ppy_str_from_f64", {v}, str_type(), p);
      case Ty::Bool: return rt("ppy_str_from_bool", {cast(v, Type::i64(), p)}, str_type(), p);
      case Ty::Exc:
        return extract(v, 1, p);
      default:
        if (is_list(t)) return rt("ppy_list_repr", {v, str_literal(list_desc(t), p)}, str_type(), p);
        if (is_class(t)) return repr_str(v, t, p);
        if (is_none_value(t)) return str_literal("None", p);
        // `str(x)` of an optional: its value's str, or None.
        if (is_optional(t))
          return select(extract(v, 0, p), str_of(extract(v, 1, p), optional_inner(t), p), str_literal("None", p), p);
        if (is_tuple(t)) return tuple_repr(v, t, p);
        if (is_table(t)) return rt("ppy_dict_repr", {v, str_literal(table_desc(t), p)}, str_type(), p);
        return str_literal("", p);
    }
  }
  /// `repr(x)`: a str's repr, an optional's value's repr or None; else as str(x).
  Value* repr_of(Value* v, Ty t, Pos p) {
    if (t == Ty::Str) return rt("ppy_str_repr", {v}, str_type(), p);
    if (is_optional(t))
      return select(extract(v, 0, p), repr_of(extract(v, 1, p), optional_inner(t), p), str_literal("None", p), p);
    return str_of(v, t, p);
  }
  /// Python's repr of a tuple: the runtime's repr of a list holding it, `[` and `]` cut.
  Value* tuple_repr(Value* v, Ty t, Pos p) {
    Ty lt = list_of(t);
    Value* one = new_list(lt, const_index(1, p), p);
    emit("core.buffer_store", {v, one, const_index(0, p)}, {}, {}, p);
    Value* s = rt("ppy_list_repr", {one, str_literal(list_desc(lt), p)}, str_type(), p);
    return rt("ppy_str_slice", {s, const_i64(1, p), const_i64(-1, p), const_i64(1, p), const_i64(0, p)}, str_type(), p);
  }

  /// A conditional expression of string literals as the index of its text.
  Value* str_choice(const Expr& e, std::vector<std::string>& texts) {
    Pos p = e.pos;
    if (e.kind == ExprKind::Str) {
      texts.push_back(e.str);
      return const_i64(static_cast<int64_t>(texts.size() - 1), p);
    }
    Value* c = truth(expr(*e.kids[0]), e.kids[0]->ty, p);
    int n = ++labels_;
    Block* tb = new_block("str.then", n);
    Block* fb = new_block("str.else", n);
    Block* join = new_block("str.end", n);
    cond_br(c, tb, {}, fb, {}, p);
    cur_ = tb;
    Value* a = str_choice(*e.kids[1], texts);
    br(join, {a}, p);
    cur_ = fb;
    Value* b = str_choice(*e.kids[2], texts);
    br(join, {b}, p);
    cur_ = join;
    return join->add_argument(Type::i64(), "");
  }

  void print_choice(Value* idx, const std::vector<std::string>& texts, Pos p) {
    int n = ++labels_;
    Block* end = new_block("str.printed", n);
    for (size_t k = 0; k < texts.size(); ++k) {
      if (k + 1 == texts.size()) {
        call_extern("ppy_print_str", {}, p, {{"text", texts[k]}});
        br(end, {}, p);
        break;
      }
      Block* yes = new_block(str_cat("str.is", n, "."), static_cast<int>(k));
      Block* no = new_block(str_cat("str.not", n, "."), static_cast<int>(k));
      cond_br(cmp("eq", idx, const_i64(static_cast<int64_t>(k), p), p), yes, {}, no, {}, p);
      cur_ = yes;
      call_extern("ppy_print_str", {}, p, {{"text", texts[k]}});
      br(end, {}, p);
      cur_ = no;
    }
    cur_ = end;
  }

  void print_value(Value* v, const Expr& a, Pos p) {
    switch (a.ty) {
      case Ty::Str:
        if (a.kind == ExprKind::Str) call_extern("ppy_print_str", {}, p, {{"text", a.str}});
        else call_extern("ppy_print_string", {v}, p);
        return;
      case Ty::Int: call_extern("ppy_print_i64", {v}, p); return;
      case Ty::Float: call_extern("ppy_print_f64", {v}, p); return;
      case Ty::Bool: call_extern("ppy_print_bool", {v}, p); return;
      case Ty::Exc:
        call_extern("ppy_print_string", {extract(v, 1, p)}, p);
        return;
      case Ty::ListInt:
      case Ty::ListFloat: {
        call_extern("ppy_print_str", {}, p, {{"text", "["}});
        Value* len = list_len(v, p);
        Value* zero = const_i64(0, p);
        int n = ++labels_;
        Block* head = new_block("print.head", n);
        Block* body = new_block("print.body", n);
        Block* sep = new_block("print.sep", n);
        Block* elem = new_block("print.elem", n);
        Block* exit = new_block("print.end", n);
        br(head, {zero}, p);
        cur_ = head;
        Value* i = head->add_argument(Type::i64(), "i");
        cond_br(cmp("lt", i, len, p), body, {}, exit, {}, p);
        cur_ = body;
        cond_br(cmp("gt", i, zero, p), sep, {}, elem, {}, p);
        cur_ = sep;
        call_extern("ppy_print_str", {}, p, {{"text", ", "}});
        br(elem, {}, p);
        cur_ = elem;
        Value* x = emit("core.buffer_load", {v, cast(i, Type::index(), p)}, {ir_type(elem_of(a.ty))}, {}, p);
        call_extern(a.ty == Ty::ListInt ? "ppy_print_i64" : "ppy_print_f64", {x}, p);
        br(head, {iadd(i, const_i64(1, p), p, "proven")}, p);
        cur_ = exit;
        call_extern("ppy_print_str", {}, p, {{"text", "]"}});
        return;
      }
      default:
        if (is_list(a.ty)) {
          call_extern("ppy_print_string", {rt("ppy_list_repr", {v, str_literal(list_desc(a.ty), p)}, str_type(), p)},
                      p);
          return;
        }
        if (is_table(a.ty)) {
          call_extern("ppy_print_string", {str_of(v, a.ty, p)}, p);
          return;
        }
        if (a.ty >= Ty::FirstCompound) print_compound(v, a.ty, p);
        return;
    }
  }

  // --- tuples and optional values (docs/runtime.md, *Tuples and optional values*) ---

  Value* extract(Value* t, size_t i, Pos p) {
    return emit("core.tuple_extract", {t}, {t->type().elem(i)}, {{"index", static_cast<int64_t>(i)}}, p);
  }
  Value* make_tuple(std::vector<Value*> vals, Ty t, Pos p) {
    return emit("core.tuple_make", std::move(vals), {ir_type(t)}, {}, p);
  }
  /// The zero value of a type: what a None optional holds.
  Value* zero_of(Ty t, Pos p) {
    if (is_class(t)) return rt("ppy_obj_null", {}, str_type(), p);
    if (t == Ty::Float) return const_f64(0.0, p);
    if (t == Ty::Str) return str_literal("", p);
    if (t == Ty::Bool || is_none_value(t)) return const_bool(false, p);
    if (is_optional(t)) return none_of(t, p);
    if (is_list(t)) return new_list(t, const_index(0, p), p);
    if (is_tuple(t)) {
      std::vector<Value*> vals;
      for (Ty e : tuple_elems(t)) vals.push_back(zero_of(e, p));
      return make_tuple(std::move(vals), t, p);
    }
    return const_i64(0, p);
  }
  Value* none_of(Ty opt, Pos p) { return make_tuple({const_bool(false, p), zero_of(optional_inner(opt), p)}, opt, p); }

  /// A value of type `from` as type `to` (the checker proved `assignable`):
  /// a value or None into an optional, tuples element by element.
  Value* coerce(Value* v, Ty from, Ty to, Pos p) {
    if (from == to || from == Ty::Error || to == Ty::Error) return v;
    if (is_optional(to)) {
      Ty inner = optional_inner(to);
      if (is_none_value(from)) return none_of(to, p);
      if (is_optional(from))
        return make_tuple({extract(v, 0, p), coerce(extract(v, 1, p), optional_inner(from), inner, p)}, to, p);
      return make_tuple({const_bool(true, p), coerce(v, from, inner, p)}, to, p);
    }
    if (is_tuple(from) && is_tuple(to)) {
      std::vector<Ty> a = tuple_elems(from), b = tuple_elems(to);
      std::vector<Value*> vals;
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) vals.push_back(coerce(extract(v, i, p), a[i], b[i], p));
      return make_tuple(std::move(vals), to, p);
    }
    return v;
  }

  Value* tuple_display(const Expr& e) {
    std::vector<Ty> elems = tuple_elems(e.ty);
    std::vector<Value*> vals;
    for (size_t i = 0; i < e.kids.size(); ++i) {
      Value* v = expr(*e.kids[i]);
      vals.push_back(i < elems.size() ? coerce(v, e.kids[i]->ty, elems[i], e.pos) : v);
    }
    return make_tuple(std::move(vals), e.ty, e.pos);
  }

  /// A tuple is true (it is never empty); an optional when it holds a true
  /// value.
  Value* compound_truth(Value* v, Ty t, Pos p) {
    if (is_tuple(t) || is_class(t)) return const_bool(true, p);  // an object is true (no __bool__ or __len__)
    if (is_optional(t)) return and_(extract(v, 0, p), truth(extract(v, 1, p), optional_inner(t), p), p);
    return const_bool(false, p);  // None
  }

  /// Whether `a == b`, as Python compares tuples (element by element) and
  /// optionals (None equals only None).
  Value* equal(Value* a, Ty at, Value* b, Ty bt, Pos p) {
    if (is_class(at) && is_class(bt)) return object_equal(a, at, b, bt, p);
    if (is_none_value(at) && is_none_value(bt)) return const_bool(true, p);
    if (is_none_value(at) || is_none_value(bt)) {
      Value* x = is_none_value(at) ? b : a;
      Ty xt = is_none_value(at) ? bt : at;
      if (!is_optional(xt)) return const_bool(false, p);
      return not_(extract(x, 0, p), p);
    }
    if (is_optional(at) && is_optional(bt)) {
      Value* pa = extract(a, 0, p);
      Value* pb = extract(b, 0, p);
      Value* same = equal(extract(a, 1, p), optional_inner(at), extract(b, 1, p), optional_inner(bt), p);
      return and_(cmp("eq", pa, pb, p), or_(not_(pa, p), same, p), p);
    }
    if (is_optional(at) || is_optional(bt)) {
      Value* x = is_optional(at) ? a : b;
      Ty xt = is_optional(at) ? at : bt;
      Value* y = is_optional(at) ? b : a;
      Ty yt = is_optional(at) ? bt : at;
      return and_(extract(x, 0, p), equal(extract(x, 1, p), optional_inner(xt), y, yt, p), p);
    }
    if (is_tuple(at) && is_tuple(bt)) {
      std::vector<Ty> x = tuple_elems(at), y = tuple_elems(bt);
      if (x.size() != y.size()) return const_bool(false, p);
      Value* r = nullptr;
      for (size_t i = 0; i < x.size(); ++i) {
        Value* e = equal(extract(a, i, p), x[i], extract(b, i, p), y[i], p);
        r = r ? and_(r, e, p) : e;
      }
      return r;
    }
    return ordered(a, at, b, bt, "eq", p);
  }

  /// `a op b` of two lists of type `t`: `==` / `!=` element by element, and
  /// `<` ... `>=` as Python orders sequences (the runtime's ppy_list_lt ...).
  Value* list_compare(Value* a, Value* b, Ty t, const std::string& op, Pos p) {
    static const std::map<std::string, const char*> fns = {{"==", "ppy_list_eq"}, {"!=", "ppy_list_eq"},
                                                           {"<", "ppy_list_lt"},  {"<=", "ppy_list_le"},
                                                           {">", "ppy_list_gt"},  {">=", "ppy_list_ge"}};
    Value* r = rt(fns.at(op), {a, b, str_literal(list_desc(t), p)}, Type::i64(), p);
    return cmp(op == "!=" ? "eq" : "ne", r, const_i64(0, p), p);
  }

  /// Numbers compared by `pred` (eq, lt, ...), an int and a float as floats.
  Value* ordered(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p) {
    if (is_list(at)) {
      static const std::map<std::string, const char*> ops = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                                                             {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
      return list_compare(a, b, at, ops.at(pred), p);
    }
    if (at == Ty::Str) return cmp(pred, rt("ppy_str_compare", {a, b}, Type::i64(), p), const_i64(0, p), p);
    Ty common = (at == Ty::Float || bt == Ty::Float) ? Ty::Float : Ty::Int;
    return cmp(pred, convert(a, at, common, p), convert(b, bt, common, p), p);
  }

  /// `a < b` (and <=, >, >=) of tuples: the first elements that differ decide,
  /// else the lengths do, as Python compares sequences.
  Value* lexicographic(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p) {
    std::vector<Ty> x = tuple_elems(at), y = tuple_elems(bt);
    size_t n = std::min(x.size(), y.size());
    int64_t la = static_cast<int64_t>(x.size()), lb = static_cast<int64_t>(y.size());
    std::string pr = pred;
    bool by_len = pr == "lt" ? la < lb : pr == "le" ? la <= lb : pr == "gt" ? la > lb : la >= lb;
    Value* r = const_bool(by_len, p);
    for (size_t k = n; k-- > 0;) {
      Value* ai = extract(a, k, p);
      Value* bi = extract(b, k, p);
      Value* same = equal(ai, x[k], bi, y[k], p);
      Value* ord = is_tuple(x[k]) ? lexicographic(ai, x[k], bi, y[k], pred, p) : ordered(ai, x[k], bi, y[k], pred, p);
      r = select(same, r, ord, p);
    }
    return r;
  }

  Value* compare_compound(Value* a, Ty at, Value* b, Ty bt, const std::string& op, Pos p) {
    if ((op == "is" || op == "is not") && is_class(at) && is_class(bt))
      return cmp(op == "is" ? "eq" : "ne", a, b, p);  // identity
    if (op == "is" || op == "is not") {
      Value* none = equal(a, at, b, bt, p);  // one side is None: equality is identity
      if (!is_optional(at) && !is_optional(bt) && !(is_none_value(at) && is_none_value(bt)))
        none = const_bool(false, p);
      return op == "is" ? none : not_(none, p);
    }
    if (op == "==") return equal(a, at, b, bt, p);
    if (op == "!=") return not_(equal(a, at, b, bt, p), p);
    static const std::map<std::string, const char*> preds = {{"<", "lt"}, {"<=", "le"}, {">", "gt"}, {">=", "ge"}};
    return lexicographic(a, at, b, bt, preds.at(op), p);
  }

  /// Prints a tuple as Python does (`(1, 2.5)`, `(1,)`) and an optional as its
  /// value or `None`.
  void print_compound(Value* v, Ty t, Pos p, bool repr = false) {
    if (is_class(t)) {  // a dataclass: `Point(x=1, y=2)`
      const ClassInfo& c = *class_info(t);
      call_extern("ppy_print_str", {}, p, {{"text", c.name + "("}});
      for (size_t i = 0; i < c.fields.size(); ++i) {
        call_extern("ppy_print_str", {}, p, {{"text", str_cat(i ? ", " : "", c.fields[i].first, "=")}});
        print_typed(field_get(v, t, c.fields[i].first, p), c.fields[i].second, p, true);
      }
      call_extern("ppy_print_str", {}, p, {{"text", ")"}});
      return;
    }
    if (is_list(t)) {
      call_extern("ppy_print_string", {rt("ppy_list_repr", {v, str_literal(list_desc(t), p)}, str_type(), p)}, p);
      return;
    }
    if (is_none_value(t)) {
      call_extern("ppy_print_str", {}, p, {{"text", "None"}});
      return;
    }
    if (is_tuple(t)) {
      std::vector<Ty> elems = tuple_elems(t);
      call_extern("ppy_print_str", {}, p, {{"text", "("}});
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i > 0) call_extern("ppy_print_str", {}, p, {{"text", ", "}});
        print_typed(extract(v, i, p), elems[i], p, true);
      }
      call_extern("ppy_print_str", {}, p, {{"text", elems.size() == 1 ? ",)" : ")"}});
      return;
    }
    if (is_optional(t)) {
      int n = ++labels_;
      Block* some = new_block("opt.some", n);
      Block* none = new_block("opt.none", n);
      Block* end = new_block("opt.printed", n);
      cond_br(extract(v, 0, p), some, {}, none, {}, p);
      cur_ = some;
      print_typed(extract(v, 1, p), optional_inner(t), p, repr);
      br(end, {}, p);
      cur_ = none;
      call_extern("ppy_print_str", {}, p, {{"text", "None"}});
      br(end, {}, p);
      cur_ = end;
    }
  }
  /// `repr`: inside a tuple, where Python prints a str as its repr (`('a', 1)`).
  void print_typed(Value* v, Ty t, Pos p, bool repr = false) {
    if (t == Ty::Str) {
      call_extern("ppy_print_string", {repr ? rt("ppy_str_repr", {v}, str_type(), p) : v}, p);
      return;
    }
    if (t == Ty::Int)
      call_extern("ppy_print_i64", {v}, p);
    else if (t == Ty::Float)
      call_extern("ppy_print_f64", {v}, p);
    else if (t == Ty::Bool)
      call_extern("ppy_print_bool", {v}, p);
    else if (is_list(t))
      call_extern("ppy_print_string", {rt("ppy_list_repr", {v, str_literal(list_desc(t), p)}, str_type(), p)}, p);
    else
      print_compound(v, t, p, repr);
  }

  // --- classes (docs/runtime.md, "Objects") ---

  /// The struct an object of class `cls` points to, loaded.
  Value* object_struct(Value* obj, Ty cls, Pos p) {
    Type st = struct_type(cls);
    return emit("core.load", {cast(obj, Type::ptr(st), p)}, {st}, {}, p);
  }
  Value* field_get(Value* obj, Ty cls, const std::string& name, Pos p) {
    const ClassInfo& c = *class_info(cls);
    int i = c.field(name);
    return emit("core.struct_extract", {object_struct(obj, cls, p)}, {ir_type(c.fields[static_cast<size_t>(i)].second)},
                {{"field", name}}, p);
  }
  /// Python's repr of a value as a str: a dataclass's `Point(x=1, s='a')`, its
  /// fields' reprs.
  Value* repr_str(Value* v, Ty t, Pos p) {
    auto cat = [&](Value* a, Value* b) { return rt("ppy_str_concat", {a, b}, str_type(), p); };
    if (t == Ty::Str) return rt("ppy_str_repr", {v}, str_type(), p);
    if (is_none_value(t)) return str_literal("None", p);
    if (is_class(t)) {
      const ClassInfo& c = *class_info(t);
      Value* s = str_literal(c.name + "(", p);
      for (size_t i = 0; i < c.fields.size(); ++i) {
        s = cat(s, str_literal(str_cat(i ? ", " : "", c.fields[i].first, "="), p));
        s = cat(s, repr_str(field_get(v, t, c.fields[i].first, p), c.fields[i].second, p));
      }
      return cat(s, str_literal(")", p));
    }
    if (is_tuple(t)) {
      std::vector<Ty> elems = tuple_elems(t);
      Value* s = str_literal("(", p);
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i) s = cat(s, str_literal(", ", p));
        s = cat(s, repr_str(extract(v, i, p), elems[i], p));
      }
      return cat(s, str_literal(elems.size() == 1 ? ",)" : ")", p));
    }
    if (is_optional(t)) {
      int n = ++labels_;
      Block* some = new_block("repr.some", n);
      Block* none = new_block("repr.none", n);
      Block* end = new_block("repr.end", n);
      cond_br(extract(v, 0, p), some, {}, none, {}, p);
      cur_ = some;
      Value* a = repr_str(extract(v, 1, p), optional_inner(t), p);
      br(end, {a}, p);
      cur_ = none;
      Value* b = str_literal("None", p);
      br(end, {b}, p);
      cur_ = end;
      return end->add_argument(str_type(), "");
    }
    return str_of(v, t, p);
  }

  /// `obj.name = v`: the struct stored again with the field replaced.
  void field_set(Value* obj, Ty cls, const std::string& name, Value* v, Pos p) {
    const ClassInfo& c = *class_info(cls);
    Type st = struct_type(cls);
    Value* ptr = cast(obj, Type::ptr(st), p);
    Value* s = emit("core.load", {ptr}, {st}, {}, p);
    std::vector<Value*> vals{emit("core.struct_extract", {s}, {Type::i64()}, {{"field", "__tid"}}, p)};
    for (auto& [n, t] : c.fields)
      vals.push_back(n == name ? v : emit("core.struct_extract", {s}, {ir_type(t)}, {{"field", n}}, p));
    emit("core.store", {emit("core.struct_make", std::move(vals), {st}, {}, p), ptr}, {}, {}, p);
  }
  Value* type_id(Value* obj, Ty cls, Pos p) {
    return emit("core.struct_extract", {object_struct(obj, cls, p)}, {Type::i64()}, {{"field", "__tid"}}, p);
  }

  /// A call's arguments in parameter order (keywords and defaults placed), each
  /// as its parameter's type.
  std::vector<Value*> placed_args(const Expr& e, const std::vector<Ty>& params) {
    std::vector<std::pair<int, const Expr*>> placed;
    for (size_t i = 1; i < e.kids.size(); ++i) placed.emplace_back(e.kids[i]->param_index, e.kids[i].get());
    for (auto& k : e.keywords) placed.emplace_back(k.value->param_index, k.value.get());
    std::vector<Value*> args(placed.size(), nullptr);
    std::vector<Value*> vals;
    for (auto& [i, x] : placed) vals.push_back(expr(*x));  // in source order, as Python evaluates them
    for (size_t k = 0; k < placed.size(); ++k) {
      size_t i = static_cast<size_t>(placed[k].first);
      if (i >= args.size()) continue;
      args[i] = i < params.size() ? coerce(vals[k], placed[k].second->ty, params[i], e.pos) : vals[k];
    }
    return args;
  }
  const FuncInfo& method(Ty impl, const std::string& name) const { return *m_.func(str_cat(ty_name(impl), ".", name)); }
  Value* call_method(const FuncInfo& f, Value* self, std::vector<Value*> args, Pos p) {
    args.insert(args.begin(), self);
    std::vector<Type> res;
    if (f.result != Ty::None) res.push_back(ir_type(f.result));
    return emit("core.call", std::move(args), res, {{"callee", SymbolRef{symbol_name(m_.name, f.name)}}}, p);
  }

  /// `C(args)`: a new object of C's size and type id, then its __init__ (a
  /// dataclass's fields stored at once).
  Value* construct(const Expr& e) {
    Pos p = e.pos;
    Ty cls = e.ty;
    const ClassInfo& c = *class_info(cls);
    Type st = struct_type(cls);
    std::vector<Ty> params;
    const FuncInfo* init = nullptr;
    if (c.dataclass) {
      for (auto& f : c.fields) params.push_back(f.second);
    } else if (auto it = c.methods.find("__init__"); it != c.methods.end()) {
      init = &method(it->second, "__init__");
      params.assign(init->params.begin() + 1, init->params.end());
    }
    std::vector<Value*> args = placed_args(e, params);
    Value* obj = rt("ppy_obj_new", {const_i64(object_bytes(st), p), const_i64(c.tid, p)}, str_type(), p);
    if (c.dataclass) {
      args.insert(args.begin(), const_i64(c.tid, p));
      emit("core.store", {emit("core.struct_make", std::move(args), {st}, {}, p), cast(obj, Type::ptr(st), p)}, {}, {},
           p);
    } else if (init) {
      call_method(*init, obj, std::move(args), p);
    }
    return obj;
  }

  /// `x.m(args)`: the method of x's class, chosen by its type id when a
  /// subclass of x's static class overrides it (docs/runtime.md, "Objects").
  Value* method_call(const Expr& e) {
    Pos p = e.pos;
    const Expr& callee = *e.kids[0];
    Ty cls = callee.kids[0]->ty;
    const std::string& name = e.target;
    Value* self = expr(*callee.kids[0]);
    const FuncInfo& first = method(class_info(cls)->methods.at(name), name);
    std::vector<Value*> args = placed_args(e, std::vector<Ty>(first.params.begin() + 1, first.params.end()));
    // The implementation each class of the subtree runs, by type id.
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
    if (impls.size() == 1) return call_method(method(impls[0].first, name), self, std::move(args), p);
    Value* tid = type_id(self, cls, p);
    int n = ++labels_;
    Block* join = new_block("method.end", n);
    for (size_t k = 0; k < impls.size(); ++k) {
      const FuncInfo& f = method(impls[k].first, name);
      if (k + 1 < impls.size()) {
        Value* hit = nullptr;
        for (int64_t id : impls[k].second) {
          Value* c = cmp("eq", tid, const_i64(id, p), p);
          hit = hit ? or_(hit, c, p) : c;
        }
        Block* call_b = new_block(str_cat("method.", ty_name(impls[k].first), n, "."), static_cast<int>(k));
        Block* next = new_block(str_cat("method.next", n, "."), static_cast<int>(k));
        cond_br(hit, call_b, {}, next, {}, p);
        cur_ = call_b;
        Value* r = call_method(f, self, args, p);
        br(join, r ? std::vector<Value*>{r} : std::vector<Value*>{}, p);
        cur_ = next;
      } else {
        Value* r = call_method(f, self, args, p);
        br(join, r ? std::vector<Value*>{r} : std::vector<Value*>{}, p);
      }
    }
    cur_ = join;
    if (first.result == Ty::None) return nullptr;
    return join->add_argument(ir_type(first.result), "");
  }

  /// `super().m(args)`: the base's method, called on this method's self.
  Value* super_call(const Expr& e) {
    const FuncInfo& f = *m_.func(e.target);
    std::vector<Value*> args = placed_args(e, std::vector<Ty>(f.params.begin() + 1, f.params.end()));
    return call_method(f, load_local(f_.def->params[0].name, e.pos), std::move(args), e.pos);
  }

  /// `isinstance(x, K)`: K's type ids are one range (they are numbered in
  /// preorder).
  Value* isinstance(const Expr& e) {
    Pos p = e.pos;
    Ty cls = e.kids[1]->ty, k = e.kids[2]->ty;
    Value* obj = expr(*e.kids[1]);
    if (is_subclass(cls, k)) return const_bool(true, p);
    if (!is_subclass(k, cls)) return const_bool(false, p);
    const ClassInfo& kc = *class_info(k);
    Value* tid = type_id(obj, cls, p);
    return and_(cmp("ge", tid, const_i64(kc.tid, p), p), cmp("lt", tid, const_i64(kc.tid_end, p), p), p);
  }

  /// `a == b` of objects: identity, or a dataclass's fields (the checker allows
  /// that only of one dataclass without subclasses whose fields hold no
  /// object).
  Value* object_equal(Value* a, Ty at, Value* b, Ty bt, Pos p) {
    if (at != bt || !class_info(at)->dataclass) return cmp("eq", a, b, p);
    const ClassInfo& c = *class_info(at);
    Value* r = const_bool(true, p);
    for (auto& [n, t] : c.fields) r = and_(r, equal(field_get(a, at, n, p), t, field_get(b, bt, n, p), t, p), p);
    return r;
  }

  Value* math_call(const Expr& e) {
    Pos p = e.pos;
    use_dialect("math");
    const std::string& n = e.target;
    std::vector<Value*> raw, a;
    for (size_t i = 1; i < e.kids.size(); ++i) raw.push_back(expr(*e.kids[i]));
    if ((n == "math.floor" || n == "math.ceil" || n == "math.trunc") && e.kids[1]->ty != Ty::Float)
      return convert(raw[0], e.kids[1]->ty, Ty::Int, p);
    for (size_t i = 1; i < e.kids.size(); ++i) a.push_back(convert(raw[i - 1], e.kids[i]->ty, Ty::Float, p));
    Value* x = a[0];
    Type F = Type::f64();
    if (n == "math.pow") return fpow(a[0], a[1], p, true);
    if (n == "math.floor" || n == "math.ceil" || n == "math.trunc") {
      Value* r = emit(n == "math.floor" ? "math.floor" : n == "math.ceil" ? "math.ceil" : "math.trunc", {x}, {F}, {}, p);
      return float_to_int(r, p);
    }
    if (n == "math.fabs") return emit("math.abs", {x}, {F}, {}, p);
    if (n == "math.sqrt") {
      guard(not_(cmp("lt", x, const_f64(0.0, p), p), p), "range", "math domain error", p);
      return emit("math.sqrt", {x}, {F}, {}, p);
    }
    if (n == "math.log" || n == "math.log2" || n == "math.log10") {
      guard(not_(cmp("le", x, const_f64(0.0, p), p), p), "range", "math domain error", p);
      return emit(n, {x}, {F}, {}, p);
    }
    if (n == "math.sin" || n == "math.cos" || n == "math.tan") {
      guard(not_(is_inf(x, p), p), "range", "math domain error", p);
      return emit(n, {x}, {F}, {}, p);
    }
    if (n == "math.exp") {
      Value* r = emit("math.exp", {x}, {F}, {}, p);
      Value* r_inf = is_inf(r, p);
      Value* x_finite = not_(is_inf(x, p), p);
      guard(not_(and_(r_inf, x_finite, p), p), "overflow", "math range error", p);
      return r;
    }
    return x;
  }

  Value* gpu_call(const Expr& e) {
    Pos p = e.pos;
    const std::string& n = e.target;
    use_dialect("gpu");
    auto dim = [&](const char* op) {
      Value* v = emit(op, {}, {Type::index()}, {{"dim", e.str}}, p);
      return cast(v, Type::i64(), p);
    };
    if (n == "ppy.cuda.thread_id") return dim("gpu.thread_id");
    if (n == "ppy.cuda.block_id") return dim("gpu.block_id");
    if (n == "ppy.cuda.block_dim") return dim("gpu.block_dim");
    if (n == "ppy.cuda.grid_dim") return dim("gpu.grid_dim");
    if (n == "ppy.cuda.global_id") {
      Value* b = dim("gpu.block_id");
      Value* d = dim("gpu.block_dim");
      Value* t = dim("gpu.thread_id");
      Value* bd = emit("core.mul", {b, d}, {Type::i64()}, {{"overflow", "wrap"}}, p);
      return iadd(bd, t, p, "wrap");
    }
    if (n == "ppy.cuda.syncthreads") {
      emit("gpu.barrier", {}, {}, {}, p);
      return nullptr;
    }
    if (n == "ppy.native.offset") {
      Value* ptr = expr(*e.kids[1]);
      Value* i = expr(*e.kids[2]);
      return emit("core.ptr_offset", {ptr, i}, {ptr->type()}, {}, p);
    }
    if (n == "ppy.native.load") {
      Value* ptr = expr(*e.kids[1]);
      return emit("core.load", {ptr}, {ir_type(e.ty)}, {}, p);
    }
    if (n == "ppy.native.store") {
      Value* ptr = expr(*e.kids[1]);
      Value* v = expr(*e.kids[2]);
      emit("core.store", {v, ptr}, {}, {}, p);
      return nullptr;
    }
    if (n == "ppy.cuda.launch") {
      std::vector<Value*> ops;
      for (size_t g : {2, 3}) {
        const Expr& ge = *e.kids[g];
        std::vector<Value*> dims;
        if (ge.kind == ExprKind::Tuple)
          for (auto& k : ge.kids) dims.push_back(convert(expr(*k), k->ty, Ty::Int, p));
        else
          dims.push_back(convert(expr(ge), ge.ty == Ty::Error ? Ty::Int : ge.ty, Ty::Int, p));
        while (dims.size() < 3) dims.push_back(const_i64(1, p));
        ops.insert(ops.end(), dims.begin(), dims.end());
      }
      const std::string& kq = e.kids[1]->target;
      size_t dot = kq.rfind('.');
      std::string kmod = kq.substr(0, dot), kname = kq.substr(dot + 1);
      std::vector<Ty> params = kernel_params(kmod, kname);
      for (size_t i = 4; i < e.kids.size(); ++i) {
        const Expr& a = *e.kids[i];
        Value* v = expr(a);
        Ty want = i - 4 < params.size() ? params[i - 4] : a.ty;
        if (is_list(a.ty) && is_ptr(want)) {
          v = emit("core.buffer_data", {v}, {Type::ptr(ir_type(elem_of(a.ty)))}, {}, p);
          v = cast(v, ir_type(want), p);
        }
        ops.push_back(v);
      }
      emit("gpu.launch", std::move(ops), {}, {{"callee", SymbolRef{symbol_name(kmod, kname)}}}, p);
      return nullptr;
    }
    return const_i64(0, p);
  }

  std::vector<Ty> kernel_params(const std::string& mod, const std::string& name);

 public:
  const ModuleInterfaces* all_ = nullptr;

 private:
  const ModuleInfo& m_;
  const FuncInfo& f_;
  ir::Function* fn_;
  ir::Module& mod_;
  bool gpu_;
  Block* cur_ = nullptr;
  std::map<std::string, Value*> slots_;
  std::map<std::string, Ty> slot_ty_;
  std::vector<Loop> loops_;
  int labels_ = 0;
  std::vector<std::string> stack_slots_;  ///< the locals with a core.alloca, in order
  std::vector<Outlined> outlined_;        ///< regions being lowered as functions of their own
  std::vector<std::string> handlers_;     ///< the except clauses' locals around the code, innermost last
};

std::vector<Ty> FunctionLowerer::kernel_params(const std::string& mod, const std::string& name) {
  std::vector<Ty> out;
  if (mod == m_.name) {
    auto it = m_.func_index.find(name);
    if (it != m_.func_index.end()) out = m_.funcs[it->second].params;
    return out;
  }
  auto mi = all_->find(mod);
  if (mi == all_->end()) return out;
  auto fi = mi->second.functions.find(name);
  if (fi == mi->second.functions.end()) return out;
  for (auto& t : fi->second.param_types) out.push_back(ty_from_name(t));
  return out;
}

}  // namespace

std::string symbol_name(const std::string& module, const std::string& func) {
  std::string s = module;
  for (char& c : s)
    if (c == '.') c = '_';
  // A method `Class.m` is `<module>_Class__m`.
  std::string f = func;
  if (size_t dot = f.find('.'); dot != std::string::npos) f.replace(dot, 1, "__");
  return s + "_" + f;
}

std::unique_ptr<ir::Module> lower_to_ir(const ModuleInfo& m, const ModuleInterfaces& all) {
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
  for (const FuncInfo& f : m.funcs) {
    std::vector<ir::Param> params;
    for (size_t i = 0; i < f.params.size(); ++i) params.push_back({ir_type(f.params[i]), {}, f.def->params[i].name});
    std::vector<Type> results;
    if (f.result != Ty::None) results.push_back(ir_type(f.result));
    auto fn = std::make_unique<ir::Function>(symbol_name(m.name, f.name), std::move(params), std::move(results));
    fn->set_loc(ir::Location(m.path, f.def->pos.line, f.def->pos.col));
    fn->attributes().set("ppy.qualname", m.name + "." + f.name);
    fn->attributes().set("ppy.effects", effects_attr(f.effects));
    if (f.exported) fn->attributes().set("ppy.export", true);
    if (f.xla_jit) fn->attributes().set("xla.jit", true);
    if (f.opt_level >= 0) fn->attributes().set("ppy.opt_level", int64_t{f.opt_level});
    if (!f.gpu_kind.empty()) {
      fn->attributes().set("gpu.kind", f.gpu_kind);
      mod->dialects()["gpu"] = 1;
    }
    ir::Function* raw = mod->add_function(std::move(fn));
    FunctionLowerer fl(m, f, raw, *mod);
    fl.all_ = &all;
    fl.run();
  }
  for (const std::string& q : m.externals) {
    size_t dot = q.rfind('.');
    std::string mn = q.substr(0, dot), fname = q.substr(dot + 1);
    auto mi = all.find(mn);
    if (mi == all.end()) continue;
    auto fi = mi->second.functions.find(fname);
    if (fi == mi->second.functions.end()) continue;
    const FuncSignature& s = fi->second;
    std::vector<ir::Param> params;
    for (size_t i = 0; i < s.param_types.size(); ++i) params.push_back({ir_type(ty_from_name(s.param_types[i])), {}, s.param_names[i]});
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
