// IR generation, lazy sequences (docs/runtime.md, "Iterables"): sum/any/all of any iterable as one loop
// (a generator expression's elements made one at a time, any/all leaving at the first that decides),
// zip/enumerate/reversed and range(...) as lists where an iterable goes, list/set/dict of an iterable.
#include <utility>

#include "callable.h"
#include "lazy.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

/// What a loop over `it` gives at each step (the checker's iter_type), a generator's values included
/// (lower_generator.cc; declared here, not in lowerer.h, which every lowering file includes).
Ty walked_elem(const Expr& it);

void FunctionLowerer::each(const Expr& it, Ty elem, const std::function<void(Value*, Ty)>& sink) {
  if (is_genexp(it)) {  // its clauses' loops, each element handed on as it is made
    // The element is made in the generator expression's frame; what takes it runs in this one.
    const int64_t outer = comp_;
    std::function<void(const Expr&)> put = [&](const Expr& x) {
      Value* v = coerce(expr(x), x.ty, elem, x.pos);
      const int64_t inner = std::exchange(comp_, outer);
      sink(v, elem);
      comp_ = inner;
    };
    comp_into(it, nullptr, elem, &put);
    return;
  }
  for_loop(
      str_cat(".each", ++labels_), it.pos, it, it.pos, [] {}, nullptr, [&](Value* v) { sink(v, elem); });
}

Value* FunctionLowerer::as_list(const Expr& it, Ty elem) {
  if (it.target != "range" && is_list(it.ty)) return expr(it);  // a list, or one made (a comprehension, zip ...)
  Pos p = it.pos;
  Value* out = new_list(list_of(elem), const_index(0, p), p);
  std::string append = str_cat("ppy_list_append_", list_suffix(elem));
  each(it, elem, [&](Value* v, Ty t) { call_extern(append.c_str(), {out, element_arg(v, t, elem, p)}, p); });
  return out;
}

Value* FunctionLowerer::fold(const Expr& e) {
  Pos p = e.pos;
  const Expr& a = *e.kids[1];
  Ty elem = walked_elem(a);
  if (e.target == "lazy.sum") {
    const std::string& total = e.ops[0];
    Ty tt = e.ty;
    store_local(total, tt == Ty::Float ? const_f64(0.0, p) : const_i64(0, p), p);
    each(a, elem, [&](Value* v, Ty t) {
      Value* sum = arith("+", load_local(total, p), tt, convert(v, t, tt, p), tt, tt, p);
      store_local(total, sum, p);
    });
    return load_local(total, p);
  }
  bool any = e.target == "lazy.any";
  int n = ++labels_;
  Block* done = new_block(any ? "any.done" : "all.done", n);
  Value* result = done->add_argument(Type::i1(), any ? "any" : "all");
  size_t made = made_gens_.size();
  const size_t depth = loops_.size();
  each(a, elem, [&](Value* v, Ty t) {
    Value* c = truth(v, t, p);
    Block* next = new_block(any ? "any.next" : "all.next", ++labels_);
    // Stopped inside an inner clause's loop over a generator it made: python3 closes the generator
    // expression, whose unwinding drops the inner clause's generator, then its first iterable.
    bool inner = false;
    for (size_t k = made; k < made_gens_.size(); ++k) inner = inner || made_gens_[k].depth > depth;
    Block* stop = done;
    if (inner) stop = new_block(any ? "any.stop" : "all.stop", labels_);
    if (any)
      cond_br(c, stop, inner ? std::vector<Value*>{} : std::vector<Value*>{const_bool(true, p)}, next, {}, p);
    else
      cond_br(c, next, {}, stop, inner ? std::vector<Value*>{} : std::vector<Value*>{const_bool(false, p)}, p);
    if (inner) {
      cur_ = stop;
      for (size_t k = made_gens_.size(); k-- > made;) gen_close(made_gens_[k].frame, made_gens_[k].elem, p);
      br(done, {const_bool(any, p)}, p);
    }
    cur_ = next;
  });
  if (!terminated()) br(done, {const_bool(!any, p)}, p);
  cur_ = done;
  // any(gen(...)) / any(f(x) for x in gen(...)) stopped early: python3 closes the generator as any returns.
  for (size_t k = made; k < made_gens_.size(); ++k)
    if (made_gens_[k].depth == loops_.size()) gen_close(made_gens_[k].frame, made_gens_[k].elem, p);
  made_gens_.resize(made);
  return result;
}

Value* FunctionLowerer::lazy_builtin(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  if (n == "range") return as_list(e, Ty::Int);
  if (n == "next") return next_call(e);
  if (n == "gen.close") {  // g.close() (lower_generator_close.cc)
    const Expr& g = *e.kids[0]->kids[0];
    gen_close(expr(g), iterator_elem(g.ty), e.pos);
    return nullptr;
  }
  if (n == "yield" || n == "yield.from") {
    gen_yield(e);
    return nullptr;
  }
  if (n == "lazy.sum" || n == "lazy.any" || n == "lazy.all") return fold(e);
  if (n == "lazy.accumulate") {  // itertools.accumulate (check_itertools.cc): the running totals, one loop
    Ty acc = list_elem(e.ty);
    Value* out = new_list(e.ty, const_index(0, p), p);
    std::string append = str_cat("ppy_list_append_", list_suffix(acc));
    accumulate_loop(e, [&](Value* total) { call_extern(append.c_str(), {out, element_arg(total, acc, acc, p)}, p); });
    return out;
  }
  if (n == "lazy.reduce") {  // functools.reduce (check_functools.cc): accumulate's loop, its totals unseen
    accumulate_loop(e, [](Value*) {});
    if (e.kids.size() != 4) {
      int k = ++labels_;
      Block* empty = new_block("reduce.empty", k);
      Block* done = new_block("reduce.done", k);
      cond_br(load_local(e.ops[1], p), done, {}, empty, {}, p);
      cur_ = empty;
      call_extern("ppy_exc_raise",
                  {str_literal("TypeError", p), str_literal("reduce() of empty iterable with no initial value", p)}, p);
      emit("core.unreachable", {}, {}, {}, p);
      cur_ = done;
    }
    return load_local(e.ops[0], p);
  }
  const Expr& a = *e.kids[1];
  if (n == "lazy.list") return expr(a);  // a new list already: a comprehension's, zip's ...
  if (n == "lazy.set" || n == "lazy.dict") {
    Value* out = new_table(e.ty, p);
    bool set = n == "lazy.set";
    Ty elem = walked_elem(a);
    each(a, elem, [&](Value* v, Ty t) {
      if (set) {
        set_add(out, e.ty, key(coerce(v, t, key_of(e.ty), p), e.ty, p), p);
      } else {
        std::vector<Ty> kv = tuple_elems(t);
        Value* k = coerce(extract(v, 0, p), kv[0], key_of(e.ty), p);
        Value* val = coerce(extract(v, 1, p), kv[1], dict_value(e.ty), p);
        table_set(out, e.ty, key(k, e.ty, p), val, p);
      }
    });
    return out;
  }
  Ty tup = list_elem(e.ty);
  if (n == "lazy.reversed") {
    Value* l = as_list(a, tup);
    bool fresh = is_genexp(a) || a.target == "range" || !is_list(a.ty) || a.target.starts_with("lazy.");
    if (!fresh) l = list_copy(l, e.ty, p);
    call_extern("ppy_list_reverse", {l}, p);
    return l;
  }
  // zip and enumerate: a list of tuples.
  Value* out = new_list(e.ty, const_index(0, p), p);
  std::string append = str_cat("ppy_list_append_", list_suffix(tup));
  zip_loop(e, [&](Value* t) { call_extern(append.c_str(), {out, element_arg(t, tup, tup, p)}, p); });
  return out;
}

void FunctionLowerer::zip_loop(const Expr& e, const std::function<void(Value*)>& body_fn) {
  Pos p = e.pos;
  Ty tup = list_elem(e.ty);
  std::vector<Ty> elems = tuple_elems(tup);
  bool zip = e.target == "lazy.zip";
  if (zip && e.kids.size() == 3 && e.kids[1]->target == "range" && e.kids[1]->kids.size() == 2 &&
      is_genexp(*e.kids[2]) &&
      !(e.kids[2]->kids[0]->kind == ExprKind::ListComp && e.kids[2]->kids[0]->str == "for")) {
    // zip(range(n), g) of a generator expression (a map, a filter): islice's rewrite (check_itertools.cc). g's
    // elements are taken as they are made, and no more once n are: python3's zip asks the range first.
    const Expr& n = *e.kids[1]->kids[1];
    Value* stop = convert(expr(n), n.ty, Ty::Int, p);
    Value* count = new_list(Ty::ListInt, const_index(1, p), p);  // the one word the elements share
    int k = ++labels_;
    Block* run = new_block("islice.run", k);
    Block* done = new_block("islice.done", k);
    cond_br(cmp("gt", stop, const_i64(0, p), p), run, {}, done, {}, p);
    cur_ = run;
    each(*e.kids[2], elems[1], [&](Value* v, Ty t) {
      Value* i = emit("core.buffer_load", {count, const_index(0, p)}, {Type::i64()}, {}, p);
      Block* take = new_block("islice.take", ++labels_);
      cond_br(cmp("lt", i, stop, p), take, {}, loops_.back().brk, {}, p);  // after a `continue` on the last one
      cur_ = take;
      Value* next = iadd(i, const_i64(1, p), p);
      emit("core.buffer_store", {next, count, const_index(0, p)}, {}, {}, p);
      body_fn(make_tuple({i, coerce(v, t, elems[1], p)}, tup, p));
      if (terminated()) return;
      Block* more = new_block("islice.more", ++labels_);
      cond_br(cmp("lt", next, stop, p), more, {}, loops_.back().brk, {}, p);
      cur_ = more;
    });
    if (!terminated()) br(done, {}, p);
    cur_ = done;
    return;
  }
  // Each iterable as a list, but a generator's values and a stream's lines (issue 33: `zip(range(n), f)`), which
  // are taken one at a time as Python's zip takes them: the lines after the shortest stay for the program.
  // `zip(enumerate(f), xs)`: the stream's line, numbered by the steps taken (enumerate is asked once a step).
  auto numbered_stream = [&](const Expr& a) {
    return zip && a.target == "lazy.enumerate" && a.kids[1]->ty == Ty::File;
  };
  std::vector<Value*> srcs, firsts;
  std::vector<const Expr*> args;
  for (size_t k = 1; k < (zip ? e.kids.size() : 2u); ++k) {
    const Expr& a = *e.kids[k];
    args.push_back(&a);
    bool numbered = numbered_stream(a);
    srcs.push_back(numbered ? expr(*a.kids[1])
                   : is_iterator(a.ty) || a.ty == Ty::File ? expr(a)
                                                           : as_list(a, elems[zip ? k - 1 : 1]));
    firsts.push_back(!numbered ? nullptr
                     : a.kids.size() == 3 ? convert(expr(*a.kids[2]), a.kids[2]->ty, Ty::Int, p)
                                          : const_i64(0, p));
  }
  Value* start = !zip && e.kids.size() == 3 ? convert(expr(*e.kids[2]), e.kids[2]->ty, Ty::Int, p) : nullptr;
  LoopBlocks b = new_loop(zip ? "zip" : "enumerate", true);
  std::vector<Value*> vals(srcs.size(), nullptr);
  auto test = [&](Value* i) {
    // In order, stopping at the first that is exhausted (a generator after it is not run).
    Value* c = nullptr;
    for (size_t k = 0; k < srcs.size(); ++k) {
      if (c) {
        Block* more = new_block(zip ? "zip.more" : "enumerate.more", ++labels_);
        cond_br(c, more, {}, b.exit, {}, p);
        cur_ = more;
      }
      Ty et = elems[zip ? k : 1];
      if (is_iterator(args[k]->ty)) {
        Value* r = gen_next(srcs[k], et, p);
        vals[k] = extract(r, 1, p);
        c = extract(r, 0, p);
      } else if (args[k]->ty == Ty::File || firsts[k]) {  // "" at its end
        Value* line = rt("ppy_io_readline", {srcs[k]}, str_type(), p);
        vals[k] = firsts[k] ? make_tuple({iadd(i, firsts[k], p), line}, et, p) : line;
        c = cmp("ne", rt("ppy_str_len", {line}, Type::i64(), p), const_i64(0, p), p);
      } else {
        c = cmp("lt", i, list_len(srcs[k], p), p);
        vals[k] = nullptr;
      }
    }
    return c;
  };
  auto body = [&](Value* i) {
    std::vector<Value*> tv;
    if (!zip) tv.push_back(start ? iadd(i, start, p) : i);
    for (size_t k = 0; k < srcs.size(); ++k) {
      Ty et = elems[zip ? k : 1];
      tv.push_back(vals[k] ? vals[k]
                           : emit("core.buffer_load", {srcs[k], cast(i, Type::index(), p)}, {ir_type(et)}, {}, p));
    }
    body_fn(make_tuple(tv, tup, p));
  };
  loop(b, const_i64(0, p), test, body, nullptr, "proven", p);
  // zip(gen(...), xs) stopped by a shorter iterable or a break: python3 closes the generator with the zip.
  for (size_t k = 0; k < srcs.size(); ++k)
    if (temporary_generator(*args[k]) && !terminated()) gen_close(srcs[k], elems[zip ? k : 1], p);
}

void FunctionLowerer::accumulate_loop(const Expr& e, const std::function<void(Value*)>& body_fn) {
  // accumulate(it, f[, initial]) gives each total (a list); reduce(f, it[, initial]) only the last.
  Pos p = e.pos;
  bool reduce = e.target == "lazy.reduce";
  const Expr& it = *e.kids[reduce ? 2 : 1];
  const Expr& f = *e.kids[reduce ? 1 : 2];
  bool by_fn = f.kind != ExprKind::NoneLit;
  Ty acc = reduce ? e.ty : list_elem(e.ty), elem = walked_elem(it);
  const std::string& total = e.ops[0];
  const std::string& seen = e.ops[1];
  Value* fn = by_fn ? expr(f) : nullptr;
  bool init = e.kids.size() == 4;
  if (init) {
    store_local(total, coerce(expr(*e.kids[3]), e.kids[3]->ty, acc, p), p);
    body_fn(load_local(total, p));
  }
  store_local(seen, const_bool(init, p), p);
  each(it, elem, [&](Value* v, Ty t) {
    auto step = [&] {
      if (by_fn) {
        std::vector<Ty> ps = callable_params(f.ty);
        Value* r = call_value(fn, f.ty, {coerce(load_local(total, p), acc, ps[0], p), coerce(v, t, ps[1], p)}, p);
        store_local(total, coerce(r, callable_result(f.ty), acc, p), p);
      } else {
        store_local(total, arith("+", load_local(total, p), acc, convert(v, t, acc, p), acc, acc, p), p);
      }
    };
    if (init) {  // a total from the start: every element is a step (it may not be of the total's type)
      step();
    } else {  // the first element is the total, any later one a step
      int k = ++labels_;
      Block* first = new_block("accumulate.first", k);
      Block* later = new_block("accumulate.step", k);
      Block* join = new_block("accumulate.next", k);
      cond_br(load_local(seen, p), later, {}, first, {}, p);
      cur_ = first;
      store_local(total, coerce(v, t, acc, p), p);
      store_local(seen, const_bool(true, p), p);
      br(join, {}, p);
      cur_ = later;
      step();
      br(join, {}, p);
      cur_ = join;
    }
    body_fn(load_local(total, p));
  });
}

}  // namespace ppy::frontend::lowering
