// IR generation, exceptions (docs/runtime.md, "Exceptions"): raise, try/except/else
// and finally, a try body outlined as a function whose call captures the status.
#include <algorithm>

#include "builtin_exceptions.h"
#include "class_ids.h"
#include "exception_classes.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {
namespace {

/// Whether a bare `raise` (the handler's exception, again) is among `body`
/// or the suites nested in it (not in a nested def: that is another
/// function). A handler without one never reads its caught exception back,
/// so it is not kept: its name, message and args go unasked (issue 35).
bool raises_again(const std::vector<StmtPtr>& body) {
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Raise && !s->value) return true;
    bool nested = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { nested = nested || raises_again(b); });
    if (nested) return true;
  }
  return false;
}

/// Removes from the outlined `inner` the slot parameters its body never
/// names, and their arguments from `args` (issue 32: a loop's try stored
/// every slot's address into its call's frame at each iteration).
void drop_unused_slots(ir::Function& inner, std::vector<ir::Value*>& args) {
  std::set<const ir::Value*> used;
  ir::walk(static_cast<const ir::Region&>(inner.body()), [&](const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) used.insert(v);
  });
  ir::Block* entry = inner.body().entry();
  for (size_t i = args.size(); i-- > 0;) {
    if (used.count(entry->argument(i))) continue;
    entry->erase_argument(i);
    inner.params().erase(inner.params().begin() + static_cast<std::ptrdiff_t>(i));
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace

void FunctionLowerer::ret(Value* v, Pos p) {
  if (gen_ && outlined_.empty()) return gen_suspend(-1, false, p);  // a generator's return: exhausted
  if (outlined_.empty()) {
    emit("core.ret", v ? std::vector<Value*>{v} : std::vector<Value*>{}, {}, {}, p);
    return;
  }
  if (v) store_local(".ret", v, p);
  outlined_.back().ends[kReturn] = true;
  emit("core.ret", {const_i64(kReturn, p)}, {}, {}, p);
}

void FunctionLowerer::jump(Outcome o, Pos p) {
  if (loops_.empty() && !outlined_.empty()) {
    outlined_.back().ends[o] = true;
    emit("core.ret", {const_i64(o, p)}, {}, {}, p);
    return;
  }
  br(o == kBreak ? loops_.back().brk : loops_.back().cont, {}, p);
}

FunctionLowerer::Region FunctionLowerer::outline(const std::function<void()>& body, Pos p) {
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
  drop_unused_slots(*inner, args);
  Region r;
  for (int k = 0; k < 4; ++k) r.ends[k] = outlined_.back().ends[k];
  outlined_.pop_back();
  fn_ = saved_fn;
  keep_comps();  // a comprehension in the body is named by this function's frame
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

void FunctionLowerer::finish(const Region& r, Pos p) {
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
      ret(f_.result == Ty::None || gen_ ? nullptr : load_local(".ret", p), p);
    }
    cur_ = stay;
  }
}

Value* FunctionLowerer::caught(Pos p) {
  Value* name = rt("ppy_exc_name", {}, str_type(), p);
  Value* msg = rt("ppy_exc_message", {}, str_type(), p);
  Value* obj = rt("ppy_exc_object", {}, str_type(), p);
  Value* classes = rt("ppy_exc_classes", {}, str_type(), p);
  Value* args = rt("ppy_exc_args", {}, str_type(), p);
  return emit("core.tuple_make", {name, msg, obj, classes, args}, {ir_type(Ty::Exc)}, {}, p);
}

void FunctionLowerer::raise_exc(Value* exc, Pos p) {
  // Raised again: its args as they were (a builtin's classes are its name).
  call_extern("ppy_exc_keep_args", {extract(exc, 3, p), extract(exc, 1, p), extract(exc, 4, p)}, p);
  call_extern("ppy_exc_raise_object", {extract(exc, 3, p), extract(exc, 1, p), extract(exc, 2, p)}, p);
  emit("core.unreachable", {}, {}, {}, p);
}

void FunctionLowerer::raise_stmt(const Stmt& s) {
  Pos p = s.pos;
  if (!s.value) {  // the exception of the innermost handler, again
    raise_exc(load_local(handlers_.back(), p), p);
    return;
  }
  const Expr& v = *s.value;
  const Expr& cls = v.kind == ExprKind::Call ? *v.kids[0] : v;
  if (cls.ref != Ref::Builtin) {  // an instance of an exception class, or a caught exception again
    Value* x = expr(v);
    if (s.annotation && s.annotation->kind != ExprKind::NoneLit) expr(*s.annotation);  // the cause: evaluated only
    if (v.ty == Ty::Exc)
      raise_exc(x, p);
    else
      raise_object(x, v.ty, p);
    return;
  }
  if (cls.str == "SystemExit") return raise_system_exit(v, p);  // io (issue 33)
  auto cat = [&](Value* a, Value* b) { return rt("ppy_str_concat", {a, b}, str_type(), p); };
  Value* msg = str_literal("", p);
  // The repr of the args tuple, where the name and message do not tell it (ppy_exc_args, issue 32).
  Value* args = nullptr;
  size_t n = v.kind == ExprKind::Call ? v.kids.size() - 1 : 0;
  if (n == 1) {
    const Expr& a = *v.kids[1];
    Value* x = expr(a);
    msg = str_of(x, a.ty, p);
    // str() of a KeyError is the repr of its key, as Python has it.
    if (cls.str == "KeyError" && a.ty == Ty::Str)
      msg = rt("ppy_str_repr", {msg}, str_type(), p);
    else if (a.ty != Ty::Str)  // `(3,)`, where the message alone reads as `('3',)`
      args = cat(cat(str_literal("(", p), repr_of(x, a.ty, p)), str_literal(",)", p));
    else if (a.kind == ExprKind::Str && a.str.empty())  // `('',)`, where an empty message reads as `()`
      args = str_literal("('',)", p);
  } else if (n > 1) {  // str() of an exception of several args is their tuple's repr
    args = str_literal("(", p);
    for (size_t i = 1; i <= n; ++i) {
      if (i > 1) args = cat(args, str_literal(", ", p));
      args = cat(args, repr_of(expr(*v.kids[i]), v.kids[i]->ty, p));
    }
    msg = args = cat(args, str_literal(")", p));
  }
  if (s.annotation && s.annotation->kind != ExprKind::NoneLit) expr(*s.annotation);  // the cause: evaluated only
  Value* name = str_literal(runtime_exception_name(cls.str), p);
  if (args)
    call_extern("ppy_exc_raise_args", {name, msg, args}, p);
  else
    call_extern("ppy_exc_raise", {name, msg}, p);
  emit("core.unreachable", {}, {}, {}, p);
}

void FunctionLowerer::try_except(const Stmt& s) {
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
  // A clause's test reads the classes alone; the rest of what was caught is
  // asked for where it is used (issue 32: a loop's catch made five calls for
  // one). Nothing between raises: the runtime still holds the same exception.
  Value* classes = rt("ppy_exc_classes", {}, str_type(), p);
  bool caught_all = false;
  for (const Handler& h : s.handlers) {
    Block* body = new_block("except.body");
    Block* next = nullptr;
    Value* hit = nullptr;
    for (const std::string& c : h.classes) {
      // A class of the module: its name, which the classes of its instances and its subclasses' list.
      bool own = m_.classes.count(c) && is_exception_class(m_.classes.at(c));
      std::string named = own ? exception_class_name(*class_info(m_.classes.at(c))) : caught_by(c);  // class_ids.h
      Value* m = rt("ppy_exc_matches", {classes, str_literal(named, h.pos)}, Type::i64(), h.pos);
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
    std::string local = str_cat(".exc", h.pos.line, "_", h.pos.col);
    bool again = raises_again(h.body);
    bool named_exc = !h.local.empty() && h.local_ty == Ty::Exc;
    Value* exc = again || named_exc ? caught(h.pos) : nullptr;
    if (again) store_local(local, exc, h.pos);
    if (!h.local.empty())
      store_local(h.local, named_exc ? exc : rt("ppy_exc_object", {}, str_type(), h.pos), h.pos);
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
  if (!caught_all) raise_exc(caught(p), p);  // no handler matched: on up
  cur_ = end;
}

void FunctionLowerer::finally(const Stmt& s, const Region& r) {
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

}  // namespace ppy::frontend::lowering
