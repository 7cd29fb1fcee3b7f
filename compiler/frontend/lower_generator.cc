// IR generation, generators (docs/runtime.md, "Generators"): a state machine lowered on the IR.
// The generator function makes its frame (an object on the collector: its state and every local);
// a private `<fn>__resume(frame) -> tuple<bool, T>` restores the locals, jumps to where the last
// yield left off, runs to the next yield (saving the locals and the state, returning (true, v)) or
// to the end (false). Every value that lives across a yield is a local: a generator's for loops keep
// what they walk in locals of their own (the checker names them), so nothing new reaches a backend.
#include "lazy.h"
#include "generator_close.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

namespace {

/// A generator's id in its module: its frame's `__tid`.
int64_t generator_id(const ModuleInfo& m, const std::string& name) {
  for (auto& [id, f] : module_generators(m))
    if (f->name == name) return id;
  return 0;
}

}  // namespace

Ty walked_elem(const Expr& it) {
  if (it.target == "range") return Ty::Int;
  if (is_iterator(it.ty)) return iterator_elem(it.ty);
  if (it.ty == Ty::Str || it.ty == Ty::File) return Ty::Str;
  if (is_dict(it.ty) || is_set(it.ty)) return key_of(it.ty);
  return list_elem(it.ty);
}

std::vector<std::pair<int64_t, const FuncInfo*>> module_generators(const ModuleInfo& m) {
  std::vector<std::pair<int64_t, const FuncInfo*>> out;
  for (const FuncInfo& f : m.funcs)
    if (is_generator(f)) out.emplace_back(static_cast<int64_t>(out.size() + 1), &f);
  for (const FuncInfo& f : m.closures)
    if (is_generator(f)) out.emplace_back(static_cast<int64_t>(out.size() + 1), &f);
  return out;
}

std::vector<std::pair<std::string, Type>> frame_fields(const FuncInfo& f) {
  std::vector<std::pair<std::string, Type>> out;
  for (auto& [name, ty] : f.locals)
    if (ty != Ty::Error) out.emplace_back(name, ir_type(ty));
  if (f.closure)
    for (auto& [name, ty] : f.captures) out.emplace_back(name, str_type());
  return out;
}

Type FunctionLowerer::frame_type() const {
  std::vector<std::pair<std::string, Type>> fields{{"__tid", Type::i64()}, {"state", Type::i64()}};
  size_t i = 0;
  for (auto& [name, ty] : frame_fields(f_)) fields.emplace_back(str_cat("s", i++), ty);
  return Type::struct_(str_cat("gen.", f_.name), fields);
}

Value* FunctionLowerer::frame_slot_load(const std::string& name, Pos p) {
  if (!is_cell(name)) return load_local(name, p);
  return emit("core.load", {slots_.at(name)}, {str_type()}, {}, p);  // a captured cell's handle
}

Value* FunctionLowerer::frame_zero(Ty t, Pos p) {
  if (t == Ty::Exc) {  // an except clause's exception (the walker of iter_protocol.h catches StopIteration)
    Value* none = rt("ppy_obj_null", {}, str_type(), p);
    return emit("core.tuple_make", {none, none, none, none, none}, {ir_type(Ty::Exc)}, {}, p);
  }
  if (is_class(t) || is_iterator(t) || is_dict(t) || is_set(t) || t == Ty::File)
    return rt("ppy_obj_null", {}, ir_type(t), p);
  return zero_of(t, p);
}

void FunctionLowerer::gen_run() {
  Pos p = f_.def->pos;
  Type st = frame_type();
  int64_t gid = generator_id(m_, f_.name);
  Ty elem = iterator_elem(f_.result);
  std::string gen_sym = fn_->name();
  // The generator function: a new frame holding the arguments, at state 0.
  Block* entry = fn_->create_entry_block("entry");
  cur_ = entry;
  size_t first = f_.closure ? 1 : 0;  // a nested generator's function takes its closure first (lower_closure.cc)
  for (size_t i = 0; i < f_.def->params.size(); ++i) entry->argument(first + i)->set_hint(f_.def->params[i].name);
  Value* frame = rt("ppy_obj_new", {const_i64(object_bytes(st), p), const_i64(gid, p)}, str_type(), p);
  std::vector<Value*> vals{const_i64(gid, p), const_i64(0, p)};
  for (auto& [name, ty] : f_.locals) {
    if (ty == Ty::Error) continue;
    Value* v = nullptr;
    for (size_t i = 0; i < f_.def->params.size(); ++i)
      if (f_.def->params[i].name == name) v = entry->argument(first + i);
    vals.push_back(v ? v : frame_zero(ty, p));
  }
  // A nested generator's frame holds the cells of the variables it shares with the functions around it.
  if (f_.closure && !f_.captures.empty()) {
    Type ct = closure_struct(f_.captures.size());
    Value* clo = emit("core.load", {cast(entry->argument(0), Type::ptr(ct), p)}, {ct}, {}, p);
    for (size_t i = 0; i < f_.captures.size(); ++i)
      vals.push_back(emit("core.struct_extract", {clo}, {str_type()}, {{"field", str_cat("c", i)}}, p));
  }
  emit("core.store", {emit("core.struct_make", std::move(vals), {st}, {}, p), cast(frame, Type::ptr(st), p)}, {}, {},
       p);
  emit("core.ret", {frame}, {}, {}, p);

  // The resume function: the body, entered at the state the frame holds.
  Type result = ir_type(tuple_of({Ty::Bool, elem}));
  begin_frame_function(str_cat(fn_->name(), "__resume"), "resume", {result}, p);
  if (f_.closure && f_.def) fn_->attributes().set("ppy.frame_name", f_.def->name);  // a nested generator's frame
  if (f_.name.starts_with("__ppy_")) fn_->attributes().set("ppy.frame_name", "");  // a lazy helper's (lower.cc)
  gen_ = true;
  frame_ = cur_->argument(0);
  for (auto& [name, ty] : f_.locals) {
    if (ty == Ty::Error) continue;
    slots_[name] = emit("core.alloca", {}, {Type::ptr(ir_type(ty), "stack")}, {}, p);
    slots_[name]->set_hint((name[0] == '.' ? name.substr(1) : name) + "_slot");
    slot_ty_[name] = ty;
    stack_slots_.push_back(name);
  }
  if (f_.closure)
    for (auto& [name, ty] : f_.captures) {  // a cell's handle, kept in the frame
      slots_[name] = emit("core.alloca", {}, {Type::ptr(str_type(), "stack")}, {}, p);
      slots_[name]->set_hint(name + "_cell");
      slot_ty_[name] = ty;
      stack_slots_.push_back(name);
      cells_.insert(name);
    }
  for (auto& [name, ty] : f_.globals)
    if (ty != Ty::Error) global_slot(name, ty, p);
  Value* saved = emit("core.load", {cast(frame_, Type::ptr(st), p)}, {st}, {}, p);
  Value* state = emit("core.struct_extract", {saved}, {Type::i64()}, {{"field", "state"}}, p);
  // One with a close function is marked exhausted while it runs: an exception leaving the body leaves it so, as
  // python3's (a yield stores its state again), and closing it later runs no finally a second time.
  if (gen_closes()) gen_mark_done(frame_, const_i64(gid, p), p);
  for (size_t i = 0; i < stack_slots_.size(); ++i) {
    const std::string& name = stack_slots_[i];
    Type t = is_cell(name) ? str_type() : ir_type(slot_ty_.at(name));
    Value* v = emit("core.struct_extract", {saved}, {t}, {{"field", str_cat("s", i)}}, p);
    if (is_cell(name))
      emit("core.store", {v, slots_.at(name)}, {}, {}, p);
    else
      store_local(name, v, p);
  }
  int n = ++labels_;
  Block* dispatch = new_block("gen.dispatch", n);
  Block* start = new_block("gen.start", n);
  br(dispatch, {}, p);
  cur_ = start;
  block(f_.def->body);
  if (!terminated()) {
    // The end: exhausted. An end no path reaches (`while True:`) is only marked so.
    if (f_.end_reachable)
      gen_suspend(-1, false, end_pos());
    else
      emit("core.unreachable", {}, {}, {}, end_pos());
  }
  // Where the frame's state says the body goes on: 0 its start, k after the k-th yield, -1 (done) nowhere.
  cur_ = dispatch;
  std::vector<std::pair<int64_t, Block*>> targets{{0, start}};
  for (size_t k = 0; k < resumes_.size(); ++k) targets.emplace_back(static_cast<int64_t>(k + 1), resumes_[k]);
  for (auto& [k, to] : targets) {
    Block* next = new_block("gen.dispatch", ++labels_);
    cond_br(cmp("eq", state, const_i64(k, p), p), to, {}, next, {}, p);
    cur_ = next;
  }
  emit("core.ret", {make_tuple({const_bool(false, p), frame_zero(elem, p)}, tuple_of({Ty::Bool, elem}), p)}, {}, {}, p);
  gen_close_fn(gen_sym, p);  // lower_generator_close.cc
}

void FunctionLowerer::gen_suspend(int64_t state, bool has, Pos p, Value* v) {
  Type st = frame_type();
  Ty elem = iterator_elem(f_.result);
  std::vector<Value*> vals{const_i64(generator_id(m_, f_.name), p), const_i64(state, p)};
  for (const std::string& name : stack_slots_) vals.push_back(frame_slot_load(name, p));
  emit("core.store", {emit("core.struct_make", std::move(vals), {st}, {}, p), cast(frame_, Type::ptr(st), p)}, {}, {},
       p);
  Value* out = make_tuple({const_bool(has, p), v ? v : frame_zero(elem, p)}, tuple_of({Ty::Bool, elem}), p);
  emit("core.ret", {out}, {}, {}, p);
}

void FunctionLowerer::gen_yield(const Expr& e) {
  Pos p = e.pos;
  Ty elem = iterator_elem(f_.result);
  auto yield_value = [&](Value* v, Ty t) {
    gen_suspend(static_cast<int64_t>(resumes_.size() + 1), true, p, coerce(v, t, elem, p));
    resumes_.push_back(new_block("gen.resume", ++labels_));
    cur_ = resumes_.back();
  };
  const Expr& v = *e.kids[1];
  if (e.ival) {
    gen_walk(v, e.str, p, yield_value);
    return;
  }
  yield_value(expr(v), v.ty);
}

void FunctionLowerer::gen_for(const Stmt& s) {
  const Expr& t = *s.targets[0];
  gen_walk(*s.value, s.op, s.pos, [&](Value* v, Ty vt) {
    assign(t, v, vt);
    block(s.body);
  });
}

void FunctionLowerer::gen_walk(const Expr& it, const std::string& n, Pos p,
                               const std::function<void(Value*, Ty)>& body) {
  Ty elem = walked_elem(it);
  std::string idx = n + "_i", seq = n + "_seq";
  if (it.target == "range") {
    std::vector<Value*> a;
    for (size_t i = 1; i < it.kids.size(); ++i)
      a.push_back(convert(expr(*it.kids[i]), it.kids[i]->ty, Ty::Int, it.kids[i]->pos));
    Value* step = a.size() == 3 ? a[2] : const_i64(1, p);
    if (a.size() == 3) guard(cmp("ne", step, const_i64(0, p), p), "range", "range() arg 3 must not be zero", p);
    store_local(idx, a.size() >= 2 ? a[0] : const_i64(0, p), p);
    store_local(n + "_stop", a.size() >= 2 ? a[1] : a[0], p);
    store_local(n + "_step", step, p);
    auto test = [&](Value*) {
      Value* i = load_local(idx, p);
      Value* stop = load_local(n + "_stop", p);
      Value* up = cmp("gt", load_local(n + "_step", p), const_i64(0, p), p);
      return select(up, cmp("lt", i, stop, p), cmp("gt", i, stop, p), p);
    };
    loop(
        new_loop("for", true), nullptr, test,
        [&](Value*) {
          Value* i = load_local(idx, p);
          store_local(idx, iadd(i, load_local(n + "_step", p), p), p);
          body(i, Ty::Int);
        },
        nullptr, nullptr, p);
    return;
  }
  if (is_iterator(it.ty)) {
    store_local(seq, expr(it), p);
    Value* r = nullptr;
    loop(
        new_loop("for", true), nullptr,
        [&](Value*) {
          r = gen_next(load_local(seq, p), elem, p);
          return extract(r, 0, p);
        },
        [&](Value*) { body(extract(r, 1, p), elem); }, nullptr, nullptr, p);
    return;
  }
  if (it.ty == Ty::File) {  // a stream's lines, each read just before the body takes it (lower_io.cc, for_lines)
    store_local(seq, expr(it), p);
    Value* line = nullptr;
    loop(
        new_loop("for", true), nullptr,
        [&](Value*) {
          line = rt("ppy_io_readline", {load_local(seq, p)}, str_type(), p);
          return cmp("ne", rt("ppy_str_len", {line}, Type::i64(), p), const_i64(0, p), p);
        },
        [&](Value*) { body(line, Ty::Str); }, nullptr, nullptr, p);
    return;
  }
  // A list is walked as Python walks it (its length read at every step); anything else as a list of its values.
  store_local(seq, as_list(it, elem), p);
  store_local(idx, const_i64(0, p), p);
  auto test = [&](Value*) { return cmp("lt", load_local(idx, p), list_len(load_local(seq, p), p), p); };
  loop(
      new_loop("for", true), nullptr, test,
      [&](Value*) {
        Value* i = load_local(idx, p);
        Value* v = emit("core.buffer_load", {load_local(seq, p), cast(i, Type::index(), p)}, {ir_type(elem)}, {}, p);
        store_local(idx, iadd(i, const_i64(1, p), p, "proven"), p);
        body(v, elem);
      },
      nullptr, nullptr, p);
}

Value* FunctionLowerer::gen_next(Value* g, Ty elem, Pos p) {
  Ty rt = tuple_of({Ty::Bool, elem});
  std::vector<std::pair<int64_t, std::string>> gens;  // this module's generators of `elem`: id, resume function
  for (auto& [id, f] : module_generators(m_))
    if (iterator_elem(f->result) == elem) gens.emplace_back(id, symbol_name(m_.name, f->name) + "__resume");
  auto resume = [&](const std::string& sym) {
    return emit("core.call", {g}, {ir_type(rt)}, {{"callee", SymbolRef{sym}}}, p);
  };
  if (gens.empty()) return make_tuple({const_bool(false, p), frame_zero(elem, p)}, rt, p);
  if (gens.size() == 1) return resume(gens[0].second);
  // Several generators make iterators of `elem`: the frame's id says whose it is.
  Type head = Type::struct_("gen", {{"__tid", Type::i64()}});
  Value* tid = emit("core.struct_extract", {emit("core.load", {cast(g, Type::ptr(head), p)}, {head}, {}, p)},
                    {Type::i64()}, {{"field", "__tid"}}, p);
  int n = ++labels_;
  Block* join = new_block("next.join", n);
  Value* out = join->add_argument(ir_type(rt), "next");
  for (size_t k = 0; k < gens.size(); ++k) {
    if (k + 1 == gens.size()) {
      br(join, {resume(gens[k].second)}, p);
      break;
    }
    Block* mine = new_block("next.call", ++labels_);
    Block* other = new_block("next.other", labels_);
    cond_br(cmp("eq", tid, const_i64(gens[k].first, p), p), mine, {}, other, {}, p);
    cur_ = mine;
    br(join, {resume(gens[k].second)}, p);
    cur_ = other;
  }
  cur_ = join;
  return out;
}

void FunctionLowerer::iter_loop(const Expr& it, Pos p, const std::function<void(Value*)>& each_value) {
  Ty elem = iterator_elem(it.ty);
  Value* g = expr(it);
  if (temporary_generator(it)) made_gens_.push_back({g, elem, loops_.size()});
  Value* r = nullptr;
  loop(
      new_loop("for", false), nullptr,
      [&](Value*) {
        r = gen_next(g, elem, p);
        return extract(r, 0, p);
      },
      [&](Value*) { each_value(extract(r, 1, p)); }, nullptr, nullptr, p);
}

Value* FunctionLowerer::next_call(const Expr& e) {
  Pos p = e.pos;
  const Expr& g = *e.kids[1];
  Ty elem = iterator_elem(g.ty);
  Value* gv = expr(g);
  // next(g, default): the default evaluated before the generator runs, as Python evaluates arguments.
  Value* dv = e.kids.size() == 3 ? coerce(expr(*e.kids[2]), e.kids[2]->ty, e.ty, e.pos) : nullptr;
  Value* r = gen_next(gv, elem, p);
  // `next(gen(...))`: nothing else holds the generator, which python3 drops, so closes, as next returns.
  if (temporary_generator(g)) gen_close(gv, elem, p);
  Value* has = extract(r, 0, p);
  if (dv) return select(has, coerce(extract(r, 1, p), elem, e.ty, p), dv, p);
  int n = ++labels_;
  Block* stop = new_block("next.stop", n);
  Block* ok = new_block("next.ok", n);
  cond_br(has, ok, {}, stop, {}, p);
  cur_ = stop;
  call_extern("ppy_exc_raise", {str_literal("StopIteration", p), str_literal("", p)}, p);
  emit("core.unreachable", {}, {}, {}, p);
  cur_ = ok;
  return extract(r, 1, p);
}

bool FunctionLowerer::temporary_generator(const Expr& g) const {
  if (g.kind != ExprKind::Call || g.kids[0]->kind != ExprKind::Name || !is_iterator(g.ty)) return false;
  const FuncInfo* f = m_.func(g.kids[0]->str);
  if (!f || is_generator(*f)) return true;
  // A function returning one may return one held elsewhere, unless it returns only new ones.
  auto is_gen = [&](const std::string& n) {
    const FuncInfo* h = m_.func(n);
    return h && is_generator(*h);
  };
  return f->def && returns_new_generator(*f->def, is_gen, false);
}

void FunctionLowerer::begin_frame_function(const std::string& sym, const std::string& role, std::vector<Type> results,
                                           Pos p) {
  auto fn = std::make_unique<ir::Function>(sym, std::vector<ir::Param>{{str_type(), {}, "frame"}}, std::move(results));
  fn->set_loc(ir::Location(m_.path, p.line, p.col));
  fn->set_visibility(ir::Visibility::Private);
  fn->attributes().set("ppy.qualname", str_cat(m_.name, ".", f_.name, ".", role));
  std::set<std::string> fx = f_.effects;  // it reads and writes the frame
  fx.insert("reads");
  fx.insert("writes");
  fn->attributes().set("ppy.effects", effects_attr(fx));
  fn->attributes().set("ppy.synthesized", true);
  fn_ = mod_.add_function(std::move(fn));
  cur_ = fn_->create_entry_block("entry");
}

}  // namespace ppy::frontend::lowering
