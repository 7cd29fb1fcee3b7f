// IR generation, statements: assignments, if, return, assert; loops are lower_loops.cc's,
// raise and try lower_exceptions.cc's.
#include "lowerer.h"
#include "ppy/util/str_cat.h"
#include "starred.h"

namespace ppy::frontend::lowering {

void FunctionLowerer::block(const std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    if (s->dead || terminated()) continue;
    stmt(*s);
  }
}

void FunctionLowerer::stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Def:  // a nested def: its closure, in the local of its name (lower_closure.cc)
      if (auto it = m_.closure_of.find(s.def.get()); it != m_.closure_of.end())
        store_local(s.def->name, closure_value(it->second, s.pos), s.pos);
      return;
    case StmtKind::Pass:
    case StmtKind::Nonlocal:
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
    case StmtKind::AugAssign:
      aug_assign(s);
      return;
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
    case StmtKind::While:
      while_stmt(s);
      return;
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

void FunctionLowerer::aug_assign(const Stmt& s) {
  const Expr& t = *s.targets[0];
  if (is_list(t.ty)) {  // `xs += ys`: the list itself grows (Python's list.__iadd__)
    Value* cur = expr(t);
    call_extern("ppy_list_extend", {cur, expr(*s.value)}, s.pos);
    return;
  }
  if (t.kind == ExprKind::Attribute) {  // `x.f op= v`: x (a variable) read once
    Value* obj = attribute_owner(*t.kids[0], t.str);
    Ty cls = t.kids[0]->ty;
    assign_field(obj, cls, t.str, aug_value(s, field_get(obj, cls, t.str, t.pos)), s.pos);
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
    store_as(t.str, aug_value(s, load_as(t.str, t.ty, t.pos)), t.ty, s.pos);
    return;
  }
  // A list element.
  Value* buf = expr(*t.kids[0]);
  Value* i = convert(expr(*t.kids[1]), t.kids[1]->ty, Ty::Int, t.pos);
  Value* idx = list_index(buf, i, t.pos, false, t.target == "deque" ? "deque" : "list");
  Value* cur = emit("core.buffer_load", {buf, idx}, {ir_type(t.ty)}, {}, t.pos);
  Value* v = expr(*s.value);
  Value* r = arith(s.op, cur, t.ty, v, s.value->ty, t.ty, s.pos);
  emit("core.buffer_store", {r, buf, idx}, {}, {}, s.pos);
}

void FunctionLowerer::assign(const Expr& t, Value* v, Ty vt) {
  if (t.kind == ExprKind::Name) {
    store_as(t.str, v, vt, t.pos);
    return;
  }
  // A list's length is known only at run time: checked (python3's ValueError), then each
  // name takes its element, a starred one (`first, *rest = xs`) the slice between.
  if (t.kind == ExprKind::Tuple && is_list(vt)) {
    Pos p = t.pos;
    size_t star = t.kids.size();
    for (size_t i = 0; i < t.kids.size(); ++i)
      if (is_starred(*t.kids[i])) star = i;
    const bool starred = star < t.kids.size();
    const int64_t want = static_cast<int64_t>(t.kids.size()) - (starred ? 1 : 0);
    Value* n = list_len(v, p);
    // python3's messages name the length found: one guard for each length short of `want`.
    for (int64_t got = 0; got < want; ++got)
      guard(cmp("ne", n, const_i64(got, p), p), "range",
            str_cat("not enough values to unpack (expected ", starred ? "at least " : "", want, ", got ", got, ")"), p);
    if (!starred)
      guard(cmp("le", n, const_i64(want, p), p), "range", str_cat("too many values to unpack (expected ", want, ")"), p);
    Ty elem = list_elem(vt);
    for (size_t i = 0; i < t.kids.size(); ++i) {
      if (i == star) {  // the rest: v[star : n - (names after it)]
        Value* stop = iadd(n, const_i64(-static_cast<int64_t>(t.kids.size() - 1 - star), p), p, "proven");
        Value* rest = rt("ppy_list_slice",
                         {v, const_i64(static_cast<int64_t>(star), p), stop, const_i64(1, p), const_i64(0, p)},
                         ir_type(vt), p);
        assign(*t.kids[i]->kids[0], rest, vt);
        continue;
      }
      Value* at = i < star ? const_i64(static_cast<int64_t>(i), p)
                           : iadd(n, const_i64(static_cast<int64_t>(i) - static_cast<int64_t>(t.kids.size()), p), p,
                                  "proven");
      assign(*t.kids[i], emit("core.buffer_load", {v, cast(at, Type::index(), p)}, {ir_type(elem)}, {}, p), elem);
    }
    return;
  }
  if (t.kind == ExprKind::Tuple) {  // unpacking a tuple value
    std::vector<Ty> elems = tuple_elems(vt);
    for (size_t i = 0; i < t.kids.size() && i < elems.size(); ++i) assign(*t.kids[i], extract(v, i, t.pos), elems[i]);
    return;
  }
  if (t.kind == ExprKind::Attribute) {  // a field
    Value* obj = attribute_owner(*t.kids[0], t.str);
    const ClassInfo& c = *class_info(t.kids[0]->ty);
    assign_field(obj, t.kids[0]->ty, t.str,
                 coerce(v, vt, c.fields[static_cast<size_t>(c.field(t.str))].second, t.pos), t.pos);
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
  Value* idx = list_index(buf, i, t.pos, true, t.target == "deque" ? "deque" : "list");
  emit("core.buffer_store", {coerce(v, vt, t.ty, t.pos), buf, idx}, {}, {}, t.pos);
}

Value* FunctionLowerer::aug_value(const Stmt& s, Value* cur) {
  const Expr& t = *s.targets[0];
  Value* v = expr(*s.value);
  return t.ty == Ty::Str
             ? (s.op == "+" ? rt("ppy_str_concat", {cur, v}, str_type(), s.pos)
                            : rt("ppy_str_repeat", {cur, convert(v, s.value->ty, Ty::Int, s.pos)}, str_type(), s.pos))
             : arith(s.op, cur, t.ty, v, s.value->ty, t.ty, s.pos);
}

}  // namespace ppy::frontend::lowering
