// IR generation, `collections.deque` (check_deque.cc): the constructor is the
// runtime's ppy_deque_new of a list (the iterable's, or a new empty one), and
// each left-hand method one runtime call (ppy_deque.h); everything else a deque
// does is its list's.
#include <cstdint>
#include <limits>

#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::deque_call(const Expr& e) {
  Pos p = e.pos;
  if (e.target == "collections.deque") {
    Value* xs = e.kids.size() > 1 ? expr(*e.kids[1]) : new_list(e.ty, const_index(0, p), p);
    Value* bound = const_i64(std::numeric_limits<int64_t>::min(), p);  // None: PPY_DEQUE_UNBOUNDED
    if (!e.keywords.empty()) {
      const Expr& m = *e.keywords[0].value;
      bound = convert(expr(m), m.ty, Ty::Int, p);
    }
    return rt("ppy_deque_new", {xs, bound}, ir_type(e.ty), p);
  }
  std::string name = e.target.substr(std::string("collections.deque.").size());
  const Expr& base = *e.kids[0]->kids[0];
  Value* l = expr(base);
  Ty elem = list_elem(base.ty);
  std::string sfx = list_suffix(elem);
  if (name == "maxlen") {  // the bound, -1 for None
    Value* m = rt("ppy_deque_maxlen", {l}, Type::i64(), p);
    return make_tuple({cmp("ne", m, const_i64(-1, p), p), m}, e.ty, p);
  }
  if (name == "appendleft") {
    call_extern(str_cat("ppy_deque_appendleft_", sfx).c_str(),
                {l, element_arg(expr(*e.kids[1]), e.kids[1]->ty, elem, p)}, p);
    return nullptr;
  }
  if (name == "extendleft") {
    call_extern("ppy_deque_extendleft", {l, expr(*e.kids[1])}, p);
    return nullptr;
  }
  if (name == "rotate") {
    Value* n = e.kids.size() > 1 ? convert(expr(*e.kids[1]), e.kids[1]->ty, Ty::Int, p) : const_i64(1, p);
    call_extern("ppy_deque_rotate", {l, n}, p);
    return nullptr;
  }
  // popleft(), as list.pop() takes its element.
  Type slot = sfx == "i64" ? Type::i64() : sfx == "f64" ? Type::f64() : boxed(elem) ? str_type() : ir_type(elem);
  Value* v = rt(str_cat("ppy_deque_popleft_", sfx).c_str(), {l}, slot, p);
  if (elem == Ty::Bool) v = cmp("ne", v, const_i64(0, p), p);
  if (boxed(elem)) v = unbox(v, elem, p);
  return v;
}

}  // namespace ppy::frontend::lowering
