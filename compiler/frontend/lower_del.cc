// IR generation for `del xs[i]` and `del xs[a:b]` of a list (check_del.cc), on
// the runtime's list functions: no new runtime entry, so every road has it.
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::list_del(const Expr& e) {
  Pos p = e.pos;
  const Expr& base = *e.kids[0]->kids[0];
  const Expr& k = *e.kids[1];
  Value* l = expr(base);
  Ty elem = list_elem(base.ty);
  std::string sfx = list_suffix(elem);
  if (k.kind != ExprKind::Slice) {
    // Python's IndexError for a missing element is the store's ("list assignment index out of range").
    Value* idx = list_index(l, convert(expr(k), k.ty, Ty::Int, p), p, true);
    Type slot = sfx == "i64" ? Type::i64() : sfx == "f64" ? Type::f64() : boxed(elem) ? str_type() : ir_type(elem);
    rt(str_cat("ppy_list_pop_at_", sfx).c_str(), {l, cast(idx, Type::i64(), p)}, slot, p);
    return nullptr;
  }
  // xs[:a] + xs[b:] is what stays, unless b is before a (then nothing goes).
  Value* a = nullptr;
  Value* b = nullptr;
  size_t n = 0;
  if (k.ival & 1) a = convert(expr(*k.kids[n]), k.kids[n]->ty, Ty::Int, p), ++n;
  if (k.ival & 2) b = convert(expr(*k.kids[n]), k.kids[n]->ty, Ty::Int, p), ++n;
  Value* len = list_len(l, p);
  Value* zero = const_i64(0, p);
  Value* one = const_i64(1, p);
  Type lt = ir_type(base.ty);
  Value* head = rt("ppy_list_slice", {l, zero, a ? a : zero, one, const_i64(1, p)}, lt, p);
  Value* tail = rt("ppy_list_slice", {l, b ? b : len, zero, one, const_i64(2, p)}, lt, p);
  Value* kept = iadd(list_len(head, p), list_len(tail, p), p, "proven");
  choose(
      cmp("le", kept, len, p), {"del.cut", "del.keep", "del.end"},
      [&]() -> Value* {
        call_extern("ppy_list_clear", {l}, p);
        call_extern("ppy_list_extend", {l, head}, p);
        call_extern("ppy_list_extend", {l, tail}, p);
        return nullptr;
      },
      []() -> Value* { return nullptr; }, Type::void_(), p);
  return nullptr;
}

}  // namespace ppy::frontend::lowering
