// IR generation, a field read before any assignment (field_init.h): the read
// tests the field's set flag and raises AttributeError as Python does.
#include "field_init.h"
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

void FunctionLowerer::check_field_set(Value* s, Ty cls, const std::string& name, Pos p) {
  const ClassInfo& c = *class_info(cls);
  Value* set = emit("core.struct_extract", {s}, {Type::i1()}, {{"field", field_set_flag(name)}}, p);
  int n = ++labels_;
  Block* missing = new_block("field.unset", n);
  Block* ok = new_block("field.set", n);
  cond_br(set, ok, {}, missing, {}, p);
  cur_ = missing;
  // Python names the object's own class: a subclass's when it is one.
  Value* shown = str_literal(c.name, p);
  if (!c.subclasses.empty()) {
    Value* tid = emit("core.struct_extract", {s}, {Type::i64()}, {{"field", "__tid"}}, p);
    std::function<void(Ty)> visit = [&](Ty t) {
      for (Ty sub : class_info(t)->subclasses) {
        const ClassInfo& k = *class_info(sub);
        shown = select(cmp("eq", tid, const_i64(k.tid, p), p), str_literal(k.name, p), shown, p);
        visit(sub);
      }
    };
    visit(cls);
  }
  auto quoted = [&](Value* a, const std::string& tail) {
    return rt("ppy_str_concat", {a, str_literal(tail, p)}, str_type(), p);
  };
  Value* msg = quoted(rt("ppy_str_concat", {str_literal("'", p), shown}, str_type(), p),
                      str_cat("' object has no attribute '", name, "'"));
  call_extern("ppy_exc_raise", {str_literal("AttributeError", p), msg}, p);
  emit("core.unreachable", {}, {}, {}, p);
  cur_ = ok;
}

}  // namespace ppy::frontend::lowering
