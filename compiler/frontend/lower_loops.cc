// IR generation, loops: while, for over ranges, lists, strs, dicts, sets, enumerate and zip,
// and the comprehensions built on them; one skeleton (LoopBlocks, loop) for all.
#include <memory>
#include <utility>

#include "lazy.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

LoopBlocks FunctionLowerer::new_loop(std::string_view kind, bool latch, std::initializer_list<std::string_view> inner) {
  int n = ++labels_;
  LoopBlocks b;
  b.head = new_block(str_cat(kind, ".head"), n);
  b.body = new_block(str_cat(kind, ".body"), n);
  for (std::string_view name : inner) b.inner.push_back(new_block(str_cat(kind, ".", name), n));
  b.latch = latch ? new_block(str_cat(kind, ".latch"), n) : nullptr;
  b.exit = new_block(str_cat(kind, ".end"), n);
  return b;
}

void FunctionLowerer::loop(const LoopBlocks& b, Value* start, const std::function<Value*(Value*)>& test,
                           const std::function<void(Value*)>& body, Value* step, const char* overflow, Pos p) {
  br(b.head, start ? std::vector<Value*>{start} : std::vector<Value*>{}, p);
  cur_ = b.head;
  Value* i = start ? b.head->add_argument(Type::i64(), "i") : nullptr;
  cond_br(test(i), b.body, {}, b.exit, {}, p);
  cur_ = b.body;
  loops_.push_back({b.latch ? b.latch : b.head, b.exit});
  body(i);
  loops_.pop_back();
  if (b.latch) {
    if (!terminated()) br(b.latch, {}, p);
    cur_ = b.latch;
  }
  if (!terminated())
    br(b.head, i ? std::vector<Value*>{iadd(i, step ? step : const_i64(1, p), p, overflow)} : std::vector<Value*>{}, p);
  cur_ = b.exit;
}

void FunctionLowerer::while_stmt(const Stmt& s) {
  auto test = [&](Value*) { return truth(expr(*s.value), s.value->ty, s.value->pos); };
  loop(
      new_loop("while", false), nullptr, test, [&](Value*) { block(s.body); }, nullptr, nullptr, s.pos);
}

void FunctionLowerer::for_stmt(const Stmt& s) {
  if (gen_) return gen_for(s);  // a generator's loop (lower_generator.cc)
  const Expr& t = *s.targets[0];
  const Expr& it = *s.value;
  if (it.target == "enumerate" || it.target == "zip") return for_pairs(s);
  if (it.target == "dict.items") return for_items(s);
  for_loop(
      t.str, t.pos, it, s.pos, [&] { block(s.body); }, t.kind == ExprKind::Tuple ? &t : nullptr);
}

void FunctionLowerer::for_pairs(const Stmt& s) {
  const Expr& t = *s.targets[0];
  pairs_loop(*s.value, s.pos, [&](Value* a, Ty at, Value* b, Ty bt) {
    assign(*t.kids[0], a, at);
    assign(*t.kids[1], b, bt);
    block(s.body);
  });
}

void FunctionLowerer::pairs_loop(const Expr& it, Pos p, const PairBody& body_fn) {
  bool zip = it.target == "zip";
  std::vector<std::pair<Value*, Ty>> seqs;
  for (size_t k = 1; k < (zip ? 3u : 2u); ++k) seqs.emplace_back(expr(*it.kids[k]), it.kids[k]->ty);
  Value* start = !zip && it.kids.size() == 3 ? convert(expr(*it.kids[2]), it.kids[2]->ty, Ty::Int, p) : nullptr;
  // enumerate(f), zip(f, xs), zip(xs, f): the line each stream's test read. A stream after the first
  // iterable is read only while those before it gave a value, as python3's zip stops at the first
  // exhausted (ppy_io_readline_if).
  Value* lines[2] = {nullptr, nullptr};
  auto test = [&](Value* i) {
    Value* c = nullptr;
    for (size_t k = 0; k < seqs.size(); ++k) {
      auto& [v, ty] = seqs[k];
      Value* more;
      if (ty == Ty::File) {
        lines[k] = c ? rt("ppy_io_readline_if", {v, select(c, const_i64(1, p), const_i64(0, p), p)}, str_type(), p)
                     : rt("ppy_io_readline", {v}, str_type(), p);
        more = cmp("ne", rt("ppy_str_len", {lines[k]}, Type::i64(), p), const_i64(0, p), p);
      } else {
        Value* len = ty == Ty::Str ? rt("ppy_str_len", {v}, Type::i64(), p) : list_len(v, p);
        more = cmp("lt", i, len, p);
      }
      c = c ? and_(c, more, p) : more;
    }
    return c;
  };
  auto body = [&](Value* i) {
    auto elem = [&](const std::pair<Value*, Ty>& sq) {
      if (sq.second == Ty::File) return lines[&sq - seqs.data()];
      if (sq.second == Ty::Str) return rt("ppy_str_index", {sq.first, i}, str_type(), p);
      return emit("core.buffer_load", {sq.first, cast(i, Type::index(), p)}, {ir_type(list_elem(sq.second))}, {}, p);
    };
    auto elem_ty = [](Ty t) { return t == Ty::File ? Ty::Str : list_or_str_elem(t); };
    Value* a = zip ? elem(seqs[0]) : start ? iadd(i, start, p) : i;
    Value* b = zip ? elem(seqs[1]) : elem(seqs[0]);
    Ty at = zip ? elem_ty(seqs[0].second) : Ty::Int;
    Ty bt = zip ? elem_ty(seqs[1].second) : elem_ty(seqs[0].second);
    body_fn(a, at, b, bt);
  };
  loop(new_loop("for", true), const_i64(0, p), test, body, nullptr, "proven", p);
}

void FunctionLowerer::for_loop(const std::string& var_name, Pos var_pos, const Expr& it, Pos p,
                               const std::function<void()>& body_fn, const Expr* unpack,
                               const std::function<void(Value*)>& sink) {
  if (is_genexp(it) && !(it.kids[0]->kind == ExprKind::ListComp && it.kids[0]->str == "for")) {
    // map(), filter() and a generator expression of one clause: each element made just before the body
    // runs, as Python interleaves them (several clauses make their list first: a `break` in the body
    // would leave only the innermost of their loops).
    each(it, list_elem(it.ty), [&](Value* v, Ty t) {
      if (sink)
        sink(v);
      else if (unpack)
        assign(*unpack, v, t);
      else
        store_local(var_name, v, var_pos);
      body_fn();
    });
    return;
  }
  if (it.target == "lazy.accumulate" && it.kids.size() == 3) {  // each total as its value is taken (lower_lazy.cc)
    accumulate_loop(it, [&](Value* v) {
      if (sink)
        sink(v);
      else if (unpack)
        assign(*unpack, v, list_elem(it.ty));
      else
        store_local(var_name, v, var_pos);
      body_fn();
    });
    return;
  }
  auto each_value = [&](Value* v) {
    if (sink)
      sink(v);
    else if (unpack)
      assign(*unpack, v, it.ty == Ty::File ? Ty::Str : is_iterator(it.ty) ? iterator_elem(it.ty) : list_elem(it.ty));
    else
      store_local(var_name, v, var_pos);
    body_fn();
  };
  if (it.ty == Ty::File) return lines_loop(it, p, each_value);  // io (issue 33): a line read per step
  if (is_iterator(it.ty) || it.target == "lazy.zip" || it.target == "lazy.enumerate") {  // lower_generator.cc
    if (is_iterator(it.ty))
      iter_loop(it, p, each_value);
    else
      zip_loop(it, each_value);  // lower_lazy.cc: no list of its tuples made
    return;
  }
  LoopBlocks blocks = new_loop("for", true);
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
    for (size_t i = 1; i < it.kids.size(); ++i)
      a.push_back(convert(expr(*it.kids[i]), it.kids[i]->ty, Ty::Int, it.kids[i]->pos));
    start = a.size() >= 2 ? a[0] : const_i64(0, p);
    cond_stop = a.size() >= 2 ? a[1] : a[0];
    if (a.size() == 3) {
      step = a[2];
      const Expr& st = *it.kids[3];
      if (st.kind == ExprKind::Int)
        step_sign = st.ival > 0 ? 1 : -1;
      else if (st.kind == ExprKind::Unary && st.str == "-" && st.kids[0]->kind == ExprKind::Int)
        step_sign = st.kids[0]->ival > 0 ? -1 : 1;
      else
        step_sign = 0;
      if (step_sign == 0) guard(cmp("ne", step, const_i64(0, p), p), "range", "range() arg 3 must not be zero", st.pos);
    } else {
      step = const_i64(1, p);
    }
  } else if (is_table(it.ty) || it.target == "dict.keys" || it.target == "dict.values") {
    // A dict or set: a list of its keys (or values) made when the loop starts, its size checked at each step.
    table = expr(is_table(it.ty) ? it : *it.kids[0]->kids[0]);
    table_n = table_len(table, p);
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
  auto test = [&](Value* i) {
    if (table) call_extern("ppy_dict_check_iter", {table, table_n}, p);
    // A list's length is read at every step, as Python's iterator does: the
    // body may append to the list or pop from it.
    if (buf && it.ty != Ty::Str) cond_stop = list_len(buf, p);
    if (step_sign > 0) return cmp("lt", i, cond_stop, p);
    if (step_sign < 0) return cmp("gt", i, cond_stop, p);
    Value* up = cmp("gt", step, const_i64(0, p), p);
    Value* below = cmp("lt", i, cond_stop, p);
    Value* above = cmp("gt", i, cond_stop, p);
    return select(up, below, above, p);
  };
  auto body = [&](Value* i) {
    Value* var = i;
    if (buf && it.ty == Ty::Str)
      var = rt("ppy_str_index", {buf, i}, str_type(), p);
    else if (buf)
      var = emit("core.buffer_load", {buf, cast(i, Type::index(), p)}, {ir_type(elem_ty)}, {}, p);
    if (sink)
      sink(var);  // `list(x)`: each value goes straight to the new list
    else if (unpack)
      assign(*unpack, var, elem_ty);  // `for a, b in pairs`
    else
      store_local(var_name, var, var_pos);
    body_fn();
  };
  loop(blocks, start, test, body, step, buf ? "proven" : nullptr, p);
}

void FunctionLowerer::for_items(const Stmt& s) {
  const Expr& t = *s.targets[0];
  items_loop(*s.value, s.pos, [&](Value* k, Ty, Value* v, Ty) {
    store_local(t.kids[0]->str, k, t.pos);
    store_local(t.kids[1]->str, v, t.pos);
    block(s.body);
  });
}

void FunctionLowerer::items_loop(const Expr& it, Pos p, const PairBody& body_fn) {
  const Expr& base = *it.kids[0]->kids[0];
  Ty dt = base.ty;
  Value* d = expr(base);
  Value* n0 = table_len(d, p);
  Ty kt = key_of(dt), vt = dict_value(dt);
  Value* keys = rt("ppy_dict_keys", {d}, ir_type(list_of(kt)), p);
  Value* vals = rt("ppy_dict_values", {d}, ir_type(list_of(vt)), p);
  auto test = [&](Value* i) {
    call_extern("ppy_dict_check_iter", {d, n0}, p);
    return cmp("lt", i, list_len(keys, p), p);
  };
  auto body = [&](Value* i) {
    Value* ix = cast(i, Type::index(), p);
    Value* k = emit("core.buffer_load", {keys, ix}, {ir_type(kt)}, {}, p);
    Value* v = emit("core.buffer_load", {vals, ix}, {ir_type(vt)}, {}, p);
    body_fn(k, kt, v, vt);
  };
  loop(new_loop("for", true), const_i64(0, p), test, body, nullptr, "proven", p);
}

Value* FunctionLowerer::list_comp(const Expr& e) {
  Value* out = new_list(e.ty, const_index(0, e.pos), e.pos);
  comp_into(e, out, list_elem(e.ty));
  return out;
}

void FunctionLowerer::comp_into(const Expr& e, Value* out, Ty elem, const std::function<void(const Expr&)>* put) {
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
  // The first iterable is taken in the enclosing frame, the rest in the comprehension's (python3's).
  const int64_t frame = e.str == "for" ? comp_ : open_comp(e);
  auto body = [&] {
    const int64_t outer = std::exchange(comp_, frame);
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
    comp_ = outer;
  };
  const Expr& it = *e.kids[1];
  // The first loop is the comprehension's (a generator's `next` runs in its frame), its
  // iterable the frame's around it (expr() evaluates what is noted so).
  if (frame != comp_) note_iterable_frame(it, comp_);
  const int64_t around = std::exchange(comp_, frame);
  comp_loop(e, it, names, unpack, body);
  comp_ = around;
}

void FunctionLowerer::note_iterable_frame(const Expr& it, int64_t frame) {
  iterable_frames_[&it] = frame;
  for (const ExprPtr& k : it.kids)
    if (k) note_iterable_frame(*k, frame);
  for (const Keyword& k : it.keywords)
    if (k.value) note_iterable_frame(*k.value, frame);
}

void FunctionLowerer::comp_loop(const Expr& e, const Expr& it, const std::vector<std::string>& names,
                                const Expr& unpack, const std::function<void()>& body) {
  Pos p = e.pos;
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

}  // namespace ppy::frontend::lowering
