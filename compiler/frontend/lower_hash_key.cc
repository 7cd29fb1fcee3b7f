// IR generation, objects as dict keys and set members (hash_key_helpers.h): a
// key of a class whose `==` is its own calls the class's key helper, which
// gives the one object the runtime's identity table knows for its equals.
#include "field_init.h"
#include "hash_key_helpers.h"
#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::object_key(Value* k, Ty t, Pos p) {
  if (!helped_key(t)) return k;
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    std::vector<Value*> parts;
    for (size_t i = 0; i < elems.size(); ++i) parts.push_back(object_key(extract(k, i, p), elems[i], p));
    return make_tuple(std::move(parts), t, p);
  }
  const ClassInfo& c = *class_info(t);
  if (unhashable_class(t)) {  // raised here, so that the traceback is the key's line, as Python's
    call_extern("ppy_exc_raise", {str_literal("TypeError", p), str_literal("unhashable type: '" + c.name + "'", p)}, p);
    return k;
  }
  return emit("core.call", {k}, {ir_type(t)},
              {{"callee", SymbolRef{symbol_name(c.module, hash_key_helper(c.name))}}}, p);
}

Value* FunctionLowerer::hash_of(Value* v, Ty t, Pos p) {
  if (t == Ty::Str) return rt("ppy_hash_text", {v}, Type::i64(), p);
  if (!is_tuple(t) && !is_class(t)) return rt("ppy_hash_int", {convert(v, t, Ty::Int, p)}, Type::i64(), p);
  if (is_class(t) && unhashable_class(t)) {
    object_key(v, t, p);  // raises TypeError
    return const_i64(0, p);
  }
  bool frozen = false;
  for (Ty c = t; is_class(c); c = class_info(c)->base) frozen = frozen || class_info(c)->frozen;
  if (is_class(t) && !frozen)  // object.__hash__, by identity: the hash of its address's text (issue 32)
    return rt("ppy_hash_text", {rt("ppy_obj_repr", {str_literal("", p), v}, str_type(), p)}, Type::i64(), p);
  // A tuple's hash, or a frozen dataclass's: its fields' tuple's, as Python's generated __hash__.
  std::vector<std::pair<Value*, Ty>> parts;
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    for (size_t i = 0; i < elems.size(); ++i) parts.emplace_back(extract(v, i, p), elems[i]);
  } else {
    for (auto& [name, ft] : class_info(t)->fields)
      if (!is_field_set_flag(name)) parts.emplace_back(field_get(v, t, name, p), ft);
  }
  Value* lanes = new_list(list_of(Ty::Int), const_index(static_cast<int64_t>(parts.size()), p), p);
  for (size_t i = 0; i < parts.size(); ++i)
    emit("core.buffer_store",
         {hash_of(parts[i].first, parts[i].second, p), lanes, const_index(static_cast<int64_t>(i), p)}, {}, {}, p);
  return rt("ppy_hash_lanes", {lanes}, Type::i64(), p);
}

}  // namespace ppy::frontend::lowering
