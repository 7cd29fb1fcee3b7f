// The body checker, `collections.deque` (docs/stdlib.md, "collections"): a
// deque is typed as the list it holds (`deque[int]` is `list[int]`), as the
// dict classes are typed as dicts, so indexing, `len`, `in`, iteration,
// append, pop, extend and every function taking a list take it; the runtime
// list remembers that it is a deque and its bound (ppy_deque.h), which give its
// repr, its messages and what a full one drops. The left-hand methods are here.
#include <optional>
#include <string>

#include "body_checker.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool is_deque_method(const std::string& name) {
  return name == "appendleft" || name == "popleft" || name == "extendleft" || name == "rotate";
}

std::optional<Ty> deque_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                   const std::function<void(Pos, const char*, std::string)>& error) {
  if (a.kind != ExprKind::Subscript) return std::nullopt;
  auto base = dotted(*a.kids[0]);
  if (!base || (*base != "deque" && *base != "collections.deque" && *base != "Deque" && *base != "typing.Deque"))
    return std::nullopt;
  if (a.kids[1]->kind == ExprKind::Tuple) {
    error(a.pos, "E1031", "deque takes one type: deque[int]");
    return Ty::Error;
  }
  Ty t = elem(*a.kids[1]);
  if (t == Ty::Error) return Ty::Error;
  if (!list_holdable(t)) {
    error(a.kids[1]->pos, "E1031",
          str_cat("a deque holds what a list holds (int, float, bool, str, lists, tuples and optionals), not ",
                  ty_name(t)));
    return Ty::Error;
  }
  return list_of(t);
}

Ty BodyChecker::deque_ctor(Expr& e, Ty expected) {
  // maxlen by position or keyword becomes the one keyword `maxlen` (absent: None).
  if (e.kids.size() > 3) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032", str_cat("deque() takes at most 2 arguments (", e.kids.size() - 1, " given)"));
    return Ty::Error;
  }
  for (auto& kw : e.keywords)
    if (kw.name != "maxlen" && kw.name != "iterable") {
      error(kw.pos, "E1032", str_cat("deque() got an unexpected keyword argument '", kw.name, "'"));
      return Ty::Error;
    }
  for (size_t k = 0; k < e.keywords.size(); ++k)
    if (e.keywords[k].name == "iterable" && e.kids.size() == 1) {
      e.kids.push_back(std::move(e.keywords[k].value));
      e.keywords.erase(e.keywords.begin() + static_cast<long>(k));
      break;
    }
  if (e.kids.size() == 3) {
    if (!e.keywords.empty()) {
      error(e.keywords[0].pos, "E1032", "deque() got multiple values for argument 'maxlen'");
      return Ty::Error;
    }
    e.keywords.push_back({"maxlen", e.kids[2]->pos, std::move(e.kids[2])});
    e.kids.pop_back();
  }
  if (!e.keywords.empty() && e.keywords[0].value->kind == ExprKind::NoneLit) e.keywords.clear();
  if (!e.keywords.empty()) {
    Expr& m = *e.keywords[0].value;
    Ty t = value(m, Ty::Int);
    if (t == Ty::Error || maybe_none(m)) return Ty::Error;
    if (t != Ty::Int && t != Ty::Bool) {
      error(m.pos, "E1030", str_cat("deque()'s maxlen is an int or None, not ", ty_name(t)));
      return Ty::Error;
    }
  }
  effect("reads");
  raises();  // ValueError: maxlen must be non-negative
  if (e.kids.size() == 1) {
    if (!is_list(expected)) {
      error(e.pos, "E1030", "the type of an empty deque is unknown; annotate it: `q: deque[int] = deque()`");
      return Ty::Error;
    }
    return expected;
  }
  // deque(iterable): a list display as it is (the runtime copies it); anything else through list(it).
  Expr& arg = *e.kids[1];
  bool display = arg.kind == ExprKind::List || (arg.kind == ExprKind::ListComp && !arg.bval);
  if (!display) {
    Pos p = arg.pos;
    std::vector<ExprPtr> args;
    args.push_back(std::move(e.kids[1]));
    e.kids[1] = build::call(build::name("list", p), std::move(args), p);
  }
  Ty t = value(*e.kids[1], is_list(expected) ? expected : Ty::Error);
  if (t == Ty::Error) return t;
  if (!is_list(t)) {
    error(e.kids[1]->pos, "E1010",
          str_cat("deque() of ", ty_name(t), " is outside the ppy subset (it takes a list or an iterable)"));
    return Ty::Error;
  }
  return t;
}

Ty BodyChecker::deque_method(Expr& e, Expr& callee, Ty base) {
  const std::string& name = callee.str;
  size_t nargs = e.kids.size() - 1;
  Ty elem = list_elem(base);
  e.ref = Ref::Sys;
  e.target = "collections.deque." + name;
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1032", str_cat(name, "() takes no keyword arguments"));
    return Ty::Error;
  }
  auto arity = [&](size_t lo, size_t hi) {
    if (nargs >= lo && nargs <= hi) return true;
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032",
          lo == hi ? str_cat("deque.", name, "() takes ", lo == 0 ? "no arguments" : "exactly one argument", " (",
                             nargs, " given)")
                   : str_cat("deque.", name, "() takes at most ", hi, " argument (", nargs, " given)"));
    return false;
  };
  raises();  // AttributeError of a list that is no deque, IndexError
  effect("writes");
  if (name == "popleft") {
    if (!arity(0, 0)) return Ty::Error;
    return elem;
  }
  if (name == "rotate") {
    if (!arity(0, 1)) return Ty::Error;
    if (nargs == 1) {
      Ty t = value(*e.kids[1], Ty::Int);
      if (t == Ty::Error || maybe_none(*e.kids[1])) return Ty::Error;
      if (t != Ty::Int && t != Ty::Bool) {
        error(e.kids[1]->pos, "E1030", str_cat("deque.rotate() takes an int, not ", ty_name(t)));
        return Ty::Error;
      }
    }
    return Ty::None;
  }
  if (!arity(1, 1)) return Ty::Error;
  if (name == "appendleft") {
    Ty t = value(*e.kids[1], elem);
    if (t == Ty::Error) return Ty::Error;
    if (!element_fits(t, elem) && !(is_class(t) && assignable(t, elem))) {
      if (!is_optional(elem) && maybe_none(*e.kids[1])) return Ty::Error;
      error(e.kids[1]->pos, "E1030", str_cat("cannot appendleft ", ty_name(t), " to a deque of ", ty_name(elem)));
      return Ty::Error;
    }
    return Ty::None;
  }
  // extendleft(xs): a list of the deque's type.
  effect("reads");
  Ty t = value(*e.kids[1], base);
  if (t == Ty::Error) return Ty::Error;
  if (t != base) {
    error(e.kids[1]->pos, "E1030",
          str_cat("a deque of ", ty_name(elem), " can only be extended by a ", ty_name(base),
                  " in the ppy subset, not ", ty_name(t)));
    return Ty::Error;
  }
  return Ty::None;
}

namespace {

bool names_deque(const Expr* x) {
  if (!x) return false;
  if (x->kind == ExprKind::Subscript) x = x->kids[0].get();
  if (x->kind == ExprKind::Call) x = x->kids[0].get();
  auto n = dotted(*x);
  return n && (*n == "deque" || *n == "collections.deque" || *n == "Deque" || *n == "typing.Deque");
}

void deque_names(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
  for (auto& s : body) {
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) continue;
    if ((s->kind == StmtKind::AnnAssign && names_deque(s->annotation.get())) ||
        (s->kind == StmtKind::Assign && s->value && s->value->kind == ExprKind::Call && names_deque(s->value.get())))
      for (auto& t : s->targets)
        if (t->kind == ExprKind::Name) out.insert(t->str);
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { deque_names(b, out); });
  }
}

}  // namespace

void BodyChecker::note_deques(const FuncDef& def) {
  for (auto& prm : def.params)
    if (names_deque(prm.annotation.get())) deques_.insert(prm.name);
  deque_names(def.body, deques_);
}

void BodyChecker::mark_deque_index(Expr& sub) const {
  const Expr& base = *sub.kids[0];
  if (base.kind == ExprKind::Name && deques_.count(base.str)) sub.target = "deque";
}

}  // namespace ppy::frontend::checking
