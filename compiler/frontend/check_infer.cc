// An empty list, dict or set whose type comes from its later use (issue 32):
// `result = []` then `result.append(3)` makes `result` a list[int], as a
// Python reader takes it. The first use in source order settles the type: a
// method that stores (append, insert, extend, add), a store `d[k] = v`, a
// read where a type is expected (a return, an argument, an annotated
// target), or another assignment. A use that gives no type (`len(xs)`)
// before one that does is E1030, as an empty display with no annotation was.
#include "body_checker.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {
namespace {

/// 'l', 'd' or 's' for an empty display `e` (`[]`, `{}`, `set()`, `dict()`), else 0.
char empty_kind(const Expr& e) {
  if (e.kind == ExprKind::List && e.kids.empty()) return 'l';
  if (e.kind == ExprKind::Dict && e.kids.empty()) return 'd';
  if (e.kind == ExprKind::Call && e.kids.size() == 1 && e.keywords.empty() && e.kids[0]->kind == ExprKind::Name) {
    if (e.kids[0]->str == "set") return 's';
    if (e.kids[0]->str == "dict") return 'd';
  }
  return 0;
}

bool kind_fits(char kind, Ty t) { return kind == 'l' ? is_list(t) : kind == 'd' ? is_dict(t) : is_set(t); }

const char* kind_name(char kind) { return kind == 'l' ? "list" : kind == 'd' ? "dict" : "set"; }

/// Whether checking `e` once more is harmless: no lambda or comprehension (each
/// makes a function or a local of its own when checked).
bool recheckable(const Expr& e) {
  if (e.kind == ExprKind::Lambda || e.kind == ExprKind::ListComp || e.kind == ExprKind::DictComp ||
      e.kind == ExprKind::SetComp)
    return false;
  for (auto& k : e.kids)
    if (!recheckable(*k)) return false;
  for (auto& k : e.keywords)
    if (!recheckable(*k.value)) return false;
  return true;
}

}  // namespace

bool BodyChecker::defer_empty(Stmt& s) {
  if (f_.module_code || s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name) return false;
  Expr& t = *s.targets[0];
  char kind = empty_kind(*s.value);
  if (!kind || !unknown_.count(t.str) || globals_.count(t.str) || enclosing_.count(t.str)) return false;
  if (s.value->kind == ExprKind::Call &&
      (types_.count(s.value->kids[0]->str) || m_.bindings.count(s.value->kids[0]->str) ||
       m_.func_index.count(s.value->kids[0]->str)))
    return false;  // a function of the user's named set / dict / list
  if (pending_empty_.count(t.str)) return false;
  pending_empty_[t.str] = PendingEmpty{s.value.get(), &t, kind};
  t.ref = Ref::Local;
  t.target = t.str;
  flow_.assigned.insert(t.str);
  return true;
}

void BodyChecker::settle_empty(const std::string& n, Ty t, Pos p) {
  auto it = pending_empty_.find(n);
  if (it == pending_empty_.end()) return;
  PendingEmpty pe = it->second;
  pending_empty_.erase(it);
  if (t == Ty::Error) return;
  if (!kind_fits(pe.kind, t)) {
    error(p, "E1030",
          str_cat("'", n, "' was given an empty ", kind_name(pe.kind), "; it cannot be used as a ", ty_name(t)));
    return;
  }
  types_[n] = t;
  unknown_.erase(n);
  note_local(n);
  pe.target->ty = t;
  Expr& d = *pe.display;
  d.ty = t;
  if (d.kind == ExprKind::Call) {  // set() / dict(): the builtin makes an empty one of its type
    d.ref = Ref::Builtin;
    d.target = kind_name(pe.kind);
    d.kids[0]->ref = Ref::Builtin;
  }
}

void BodyChecker::unsettled_empty() {
  for (auto& [n, pe] : pending_empty_) {
    const char* k = kind_name(pe.kind);
    error(pe.display->pos, "E1030",
          str_cat("the type of the empty ", k, " given to '", n, "' is unknown (no later use gives it); annotate it: `",
                  n, ": ",
                  pe.kind == 'l'   ? "list[int] = []`"
                  : pe.kind == 'd' ? "dict[str, int] = {}`"
                                   : "set[int] = set()`"));
  }
  pending_empty_.clear();
}

void BodyChecker::infer_from_read(Expr& e, Ty expected) {
  auto it = pending_empty_.find(e.str);
  if (it == pending_empty_.end()) return;
  if (expected != Ty::Error && is_optional(expected)) expected = optional_inner(expected);
  if (expected != Ty::Error && kind_fits(it->second.kind, expected)) return settle_empty(e.str, expected, e.pos);
  const char* k = kind_name(it->second.kind);
  error(e.pos, "E1030",
        str_cat("'", e.str, "' is an empty ", k, " whose element type is not known here: give it one first (`", e.str,
                it->second.kind == 'l'   ? ".append(x)`"
                : it->second.kind == 's' ? ".add(x)`"
                                         : "[k] = v`",
                ") or annotate it (`", e.str, ": ",
                it->second.kind == 'l'   ? "list[int]"
                : it->second.kind == 'd' ? "dict[str, int]"
                                         : "set[int]",
                " = ...`)"));
  pending_empty_.erase(it);
  types_[e.str] = Ty::Error;
  unknown_.erase(e.str);
}

void BodyChecker::infer_from_method(Expr& call, Expr& callee) {
  if (callee.kids[0]->kind != ExprKind::Name) return;
  auto it = pending_empty_.find(callee.kids[0]->str);
  if (it == pending_empty_.end()) return;
  const std::string n = it->first;
  char kind = it->second.kind;
  const std::string& m = callee.str;
  size_t nargs = call.kids.size() - 1;
  Expr* arg = nullptr;
  if (kind == 'l' && (m == "append" || m == "extend") && nargs == 1) arg = call.kids[1].get();
  if (kind == 'l' && m == "insert" && nargs == 2) arg = call.kids[2].get();
  if (kind == 's' && m == "add" && nargs == 1) arg = call.kids[1].get();
  if (kind == 'd' && (m == "get" || m == "setdefault") && nargs == 2 && call.keywords.empty() &&
      recheckable(*call.kids[1]) && recheckable(*call.kids[2])) {  // `counts.get(w, 0) + 1`
    Ty kt = value(*call.kids[1], Ty::Error), vt = value(*call.kids[2], Ty::Error);
    if (kt != Ty::Error && vt != Ty::Error && key_holdable(kt) && dict_value_holdable(vt))
      settle_empty(n, dict_of(kt, vt), call.pos);
    return;
  }
  // A lambda checked twice is the same function (check_closure.cc): `callbacks.append(lambda: f(x))`.
  bool lambda = arg && arg->kind == ExprKind::Lambda;
  if (!arg || !call.keywords.empty() || !(recheckable(*arg) || lambda)) return;  // the read reports it
  Ty t = value(*arg, Ty::Error);
  if (t == Ty::Error) return settle_empty(n, Ty::Error, call.pos);
  if (m == "extend") {
    if (!is_list(t)) return;  // list.extend reports it
    return settle_empty(n, t, call.pos);
  }
  if (kind == 'l' && !list_holdable(t)) return;
  if (kind == 's' && !key_holdable(t)) return;
  settle_empty(n, kind == 'l' ? list_of(t) : set_of(t), call.pos);
}

void BodyChecker::infer_from_store(Expr& target, Ty vt) {
  if (target.kind != ExprKind::Subscript || target.kids[0]->kind != ExprKind::Name) return;
  auto it = pending_empty_.find(target.kids[0]->str);
  if (it == pending_empty_.end() || it->second.kind != 'd' || vt == Ty::Error) return;
  Expr& k = *target.kids[1];
  if (k.kind == ExprKind::Slice || !recheckable(k)) return;
  Ty kt = value(k, Ty::Error);
  if (kt == Ty::Error || !key_holdable(kt) || !dict_value_holdable(vt)) return;
  settle_empty(it->first, dict_of(kt, vt), target.pos);
}

}  // namespace ppy::frontend::checking
