// IR generation, `collections`' dict classes (check_collections.cc): a
// constructor makes a runtime dict with its flavor (ppy_collections_new), a
// method is one runtime call (ppy_collections.c); popitem is the end key the
// runtime finds, then the dict's own pop.
#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::collections_call(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  if (n.starts_with("collections.deque")) return deque_call(e);  // lower_deque.cc
  if (!n.starts_with("collections.method.")) {  // a constructor
    int64_t flavor = n == "collections.defaultdict" ? 1 : n == "collections.Counter" ? 2 : 3;
    int64_t factory = flavor == 1 ? e.ival : 0;
    Value* d = rt("ppy_collections_new",
                  {str_literal(table_desc(e.ty), p), const_i64(flavor, p), const_i64(factory, p)}, ir_type(e.ty), p);
    if (flavor == 2 && e.kids.size() == 2) {
      const Expr& a = *e.kids[1];
      Value* v = expr(a);
      call_extern(a.ty == Ty::Str ? "ppy_counter_update_str"
                  : is_list(a.ty) ? "ppy_counter_update_list"
                                  : "ppy_counter_update_counter",
                  {d, v}, p);
    }
    return d;
  }
  std::string name = n.substr(19);
  const Expr& callee = *e.kids[0];
  Ty base = callee.kids[0]->ty;
  Value* d = expr(*callee.kids[0]);
  std::vector<const Expr*> given;
  for (size_t k = 1; k < e.kids.size(); ++k) given.push_back(e.kids[k].get());
  for (auto& kw : e.keywords) given.push_back(kw.value.get());
  if (name == "most_common") {
    if (given.empty()) return rt("ppy_counter_most_common_all", {d}, ir_type(e.ty), p);
    Value* count = convert(expr(*given[0]), given[0]->ty, Ty::Int, p);
    return rt("ppy_counter_most_common", {d, count}, ir_type(e.ty), p);
  }
  if (name == "total") return rt("ppy_counter_total", {d}, Type::i64(), p);
  if (name == "elements") return rt("ppy_counter_elements", {d}, ir_type(e.ty), p);  // ppy_counter.c
  if (name == "update" || name == "subtract") {
    const Expr& a = *given[0];
    Value* v = expr(a);
    const char* fn = name == "subtract" ? "ppy_counter_subtract_list"
                     : a.ty == Ty::Str  ? "ppy_counter_update_str"
                     : is_list(a.ty)    ? "ppy_counter_update_list"
                                        : "ppy_counter_update_counter";
    call_extern(fn, {d, v}, p);
    return nullptr;
  }
  Ty key_ty = key_of(base), val_ty = dict_value(base);
  if (name == "move_to_end") {
    Value* k = key(expr(*given[0]), base, p);
    Value* last = given.size() > 1 ? convert(expr(*given[1]), given[1]->ty, Ty::Int, p) : const_i64(1, p);
    call_extern(key_ty == Ty::Int ? "ppy_odict_move_to_end_i64" : "ppy_odict_move_to_end_ptr", {d, k, last}, p);
    return nullptr;
  }
  // popitem(last=True): the end key, then pop it; the pair as a tuple.
  Value* last = given.empty() ? const_i64(1, p) : convert(expr(*given[0]), given[0]->ty, Ty::Int, p);
  Value* word = key_ty == Ty::Int ? rt("ppy_odict_end_key_i64", {d, last}, Type::i64(), p)
                                  : rt("ppy_odict_end_key_ptr", {d, last}, str_type(), p);
  Value* v = from_word(rt(table_fn("pop", base).c_str(), {d, word}, word_type(val_ty), p), val_ty, p);
  Value* k = is_tuple(key_ty) ? unbox(word, key_ty, p) : word;
  return emit("core.tuple_make", {k, v}, {ir_type(e.ty)}, {}, p);
}

}  // namespace ppy::frontend::lowering
