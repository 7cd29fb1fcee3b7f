// The body checker, generators (docs/language.md, "Generators"): a function annotated
// `-> Iterator[T]` (or `Generator[T, None, None]`) whose body yields; `yield v`, `yield from it`,
// a bare `return`; `next(g)` and `next(g, default)`. Each for loop of a generator keeps what it
// walks in locals of its own (`_g<n>_...`), so the generator's frame holds every value that lives
// across a yield (docs/runtime.md, "Generators").
#include <string>

#include "body_checker.h"
#include "generator_close.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

namespace {

bool yields(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Expr && is_yield(*s->value)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || yields(b); });
    if (inner) return true;
  }
  return false;
}

}  // namespace

bool BodyChecker::generator_start() {
  generator_ = is_generator(f_);
  return generator_;
}

void BodyChecker::yield_stmt(Stmt& s) {
  Expr& e = *s.value;
  Expr& v = *e.kids[1];
  if (!is_iterator(f_.result)) {
    error(e.pos, "E1030",
          str_cat("function '", f_.name,
                  "' yields, so it is a generator: annotate its result Iterator[T] (or Generator[T, None, None])"));
    return;
  }
  if (tries_ > 0 || !handlers_.empty()) {
    error(e.pos, "E1010", "'yield' inside try or except is outside the ppy subset");
    return;
  }
  Ty want = iterator_elem(f_.result);
  e.ref = Ref::Builtin;
  e.target = e.ival ? "yield.from" : "yield";
  e.ty = Ty::None;
  Ty t;
  if (e.ival) {  // `yield from it`: each value of the iterable
    lazy_ok_.insert(&v);
    t = iter_type(v);
  } else {
    t = value(v, want);
  }
  if (t == Ty::Error || assignable(t, want)) return;
  if (!e.ival && maybe_none(v)) return;
  error(v.pos, "E1030", str_cat("generator '", f_.name, "' yields ", ty_name(want), ", not ", ty_name(t)));
}

void BodyChecker::generator_return(Stmt& s) {
  if (s.value && s.value->kind != ExprKind::NoneLit)
    error(s.value->pos, "E1010", "a generator's 'return <value>' is outside the ppy subset (write a bare return)");
  flow_.reachable = false;
}

void BodyChecker::generator_loops(std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    generator_loops(s->body);
    generator_loops(s->orelse);
    for (auto& h : s->handlers) generator_loops(h.body);
    generator_loops(s->finalbody);
    bool from = s->kind == StmtKind::Expr && is_yield(*s->value) && s->value->ival;  // `yield from it` walks it too
    if ((s->kind != StmtKind::For && !from) || s->dead) continue;
    const Expr& it = from ? *s->value->kids[1] : *s->value;
    if (view_call(it) == 2) {
      error(it.pos, "E1010", "a generator's loop over d.items() is outside the ppy subset (walk d and index it)");
      continue;
    }
    std::string n = str_cat("_g", ++comps_);
    (from ? s->value->str : s->op) = n;  // names this loop's locals
    auto local = [&](const char* what, Ty t) {
      types_[n + what] = t;
      note_local(n + what);
    };
    if (it.target == "range") {
      local("_i", Ty::Int);
      local("_stop", Ty::Int);
      local("_step", Ty::Int);
    } else if (is_iterator(it.ty) || it.ty == Ty::File) {  // a generator's frame, or a stream read line by line
      local("_seq", it.ty);
    } else {
      Ty elem = it.ty == Ty::Str ? Ty::Str : (is_dict(it.ty) || is_set(it.ty)) ? key_of(it.ty) : list_elem(it.ty);
      local("_i", Ty::Int);
      local("_seq", list_of(elem));
    }
  }
}

Ty BodyChecker::next_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty() || nargs < 1 || nargs > 2) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032", str_cat("next() takes 1 or 2 positional arguments (", nargs, " given)"));
    return Ty::Error;
  }
  Ty g = value(*e.kids[1], Ty::Error);
  if (g == Ty::Error) return g;
  if (is_class(g))
    if (auto t = protocol_next(e, g)) return *t;  // __next__ (check_iter_protocol.cc)
  if (g == Ty::File) {  // io (issue 33): the next line, StopIteration (or the default) at the end
    effect("io");
    raises();
    e.ref = Ref::Sys;
    e.target = "io.next";
    if (nargs == 1) return Ty::Str;
    Ty d = value(*e.kids[2], Ty::Str);
    if (d == Ty::Str || d == Ty::Error) return d;
    error(e.kids[2]->pos, "E1010", str_cat("next() of a stream with a default of ", ty_name(d),
                                           " is outside the ppy subset (it takes a str)"));
    return Ty::Error;
  }
  if (!is_iterator(g)) {
    error(e.kids[1]->pos, "E1030", str_cat("'", ty_name(g), "' object is not an iterator"));
    return Ty::Error;
  }
  Ty elem = iterator_elem(g);
  // What the generator's body does happens here.
  for (const char* fx : {"io", "reads", "writes"}) effect(fx);
  raises();  // StopIteration, and whatever the body raises
  e.target = "next";
  if (nargs == 1) return elem;
  Ty d = value(*e.kids[2], elem);
  if (d == Ty::Error) return d;
  if (d == elem) return elem;
  if (is_none_value(d) || assignable(d, elem)) return assignable(d, elem) ? elem : optional_of(elem);
  error(
      e.kids[2]->pos, "E1030",
      str_cat("next() of ", ty_name(g), " takes a default of ", ty_name(elem), " in the ppy subset, not ", ty_name(d)));
  return Ty::Error;
}

std::set<std::string> BodyChecker::closing_generators() const {
  std::vector<std::pair<std::string, const std::vector<StmtPtr>*>> gens;
  std::vector<std::pair<std::string, const FuncDef*>> plain;  // functions returning a new generator
  for (const FuncInfo& f : m_.funcs) {
    if (is_generator(f))
      gens.emplace_back(f.name, &f.def->body);
    else if (f.def && is_iterator(f.result))
      plain.emplace_back(f.name, f.def);
  }
  return frontend::closing_generators(gens, plain);
}

Ty BodyChecker::generator_close(Expr& e) {
  for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
  if (e.kids.size() != 1 || !e.keywords.empty()) {
    error(e.pos, "E1032", str_cat("close() takes no arguments (", e.kids.size() - 1, " given)"));
    return Ty::Error;
  }
  // What the generator's finally clauses do happens here.
  for (const char* fx : {"io", "reads", "writes"}) effect(fx);
  raises();
  e.ref = Ref::Builtin;
  e.target = "gen.close";
  return Ty::None;
}

}  // namespace ppy::frontend::checking

namespace ppy::frontend {

bool is_generator(const FuncInfo& f) { return is_iterator(f.result) && f.def && checking::yields(f.def->body); }

}  // namespace ppy::frontend
