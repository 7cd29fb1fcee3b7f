// IR generation, generators closed before they are exhausted (generator_close.h; docs/runtime.md,
// "Generators"). A generator with something to run when closed gets a private `<fn>__close(frame)`:
// at a yield (state > 0) it sets the frame's `_ppy_gclose` and resumes the body, whose check after
// that yield returns through the finally clauses around it; a value yielded instead is python3's
// RuntimeError. Closing any other generator, or one not started, only marks it exhausted (state -1).
#include "generator_close.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

namespace {

/// The start every frame shares: its generator's id and its state.
Type frame_head() { return Type::struct_("gen.head", {{"__tid", Type::i64()}, {"state", Type::i64()}}); }

bool has_close_fn(const FuncInfo& f) {
  for (auto& [name, ty] : f.locals)
    if (name == kGeneratorClosing && ty != Ty::Error) return true;
  return false;
}

}  // namespace

void FunctionLowerer::gen_mark_done(Value* frame, Value* tid, Pos p) {
  emit("core.store",
       {emit("core.struct_make", {tid, const_i64(-1, p)}, {frame_head()}, {}, p),
        cast(frame, Type::ptr(frame_head()), p)},
       {}, {}, p);
}

bool FunctionLowerer::gen_closes() const { return has_close_fn(f_); }

void FunctionLowerer::gen_close_fn(const std::string& gen_sym, Pos p) {
  if (!has_close_fn(f_)) return;
  Type st = frame_type();
  Ty elem = iterator_elem(f_.result);
  begin_frame_function(str_cat(gen_sym, "__close"), "close", {}, p);
  Value* frame = cur_->argument(0);
  Value* head = emit("core.load", {cast(frame, Type::ptr(frame_head()), p)}, {frame_head()}, {}, p);
  Value* tid = emit("core.struct_extract", {head}, {Type::i64()}, {{"field", "__tid"}}, p);
  Value* state = emit("core.struct_extract", {head}, {Type::i64()}, {{"field", "state"}}, p);
  int n = ++labels_;
  Block* run = new_block("close.run", n);
  Block* ignored = new_block("close.ignored", n);
  Block* done = new_block("close.done", n);
  cond_br(cmp("gt", state, const_i64(0, p), p), run, {}, done, {}, p);
  // At a yield: the frame with `_ppy_gclose` true, then the body from that yield on.
  cur_ = run;
  Value* ptr = cast(frame, Type::ptr(st), p);
  Value* saved = emit("core.load", {ptr}, {st}, {}, p);
  std::vector<Value*> vals{tid, state};
  size_t i = 0;
  for (auto& [name, ty] : frame_fields(f_)) {
    std::string field = str_cat("s", i++);
    vals.push_back(name == kGeneratorClosing ? const_bool(true, p)
                                             : emit("core.struct_extract", {saved}, {ty}, {{"field", field}}, p));
  }
  emit("core.store", {emit("core.struct_make", std::move(vals), {st}, {}, p), ptr}, {}, {}, p);
  Value* r = emit("core.call", {frame}, {ir_type(tuple_of({Ty::Bool, elem}))},
                  {{"callee", SymbolRef{str_cat(gen_sym, "__resume")}}}, p);
  cond_br(extract(r, 0, p), ignored, {}, done, {}, p);
  cur_ = ignored;  // it yielded again (a yield inside a finally is refused, so only through an except of BaseException)
  call_extern("ppy_exc_raise", {str_literal("RuntimeError", p), str_literal("generator ignored GeneratorExit", p)}, p);
  emit("core.unreachable", {}, {}, {}, p);
  cur_ = done;
  gen_mark_done(frame, tid, p);
  emit("core.ret", {}, {}, {}, p);
}

void FunctionLowerer::gen_close(Value* g, Ty elem, Pos p) {
  std::vector<std::pair<int64_t, std::string>> closers;  // this module's generators of `elem` with a close function
  for (auto& [id, f] : module_generators(m_))
    if (iterator_elem(f->result) == elem && has_close_fn(*f))
      closers.emplace_back(id, symbol_name(m_.name, f->name) + "__close");
  Value* head = emit("core.load", {cast(g, Type::ptr(frame_head()), p)}, {frame_head()}, {}, p);
  Value* tid = emit("core.struct_extract", {head}, {Type::i64()}, {{"field", "__tid"}}, p);
  int n = ++labels_;
  Block* join = new_block("close.join", n);
  for (auto& [k, sym] : closers) {
    Block* mine = new_block("close.call", ++labels_);
    Block* other = new_block("close.other", labels_);
    cond_br(cmp("eq", tid, const_i64(k, p), p), mine, {}, other, {}, p);
    cur_ = mine;
    emit_op("core.call", {g}, {}, {{"callee", SymbolRef{sym}}}, p);
    br(join, {}, p);
    cur_ = other;
  }
  gen_mark_done(g, tid, p);
  br(join, {}, p);
  cur_ = join;
}

}  // namespace ppy::frontend::lowering
