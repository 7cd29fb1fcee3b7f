// IR generation, a field read before any assignment (field_init.h): the read
// tests the field's set flag and raises AttributeError as Python does; and a
// narrowed optional field that a call may have set back to None, tested where
// an attribute of it is read (issue 32).
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

Value* FunctionLowerer::attribute_owner(const Expr& obj, const std::string& attr) {
  if (obj.kind != ExprKind::Attribute || obj.ref == Ref::Const || obj.kids.size() != 1 || !is_class(obj.kids[0]->ty))
    return expr(obj);
  const ClassInfo& c = *class_info(obj.kids[0]->ty);
  int i = c.field(obj.str);
  if (i < 0) return expr(obj);
  Ty ft = c.fields[static_cast<size_t>(i)].second;
  if (!is_optional(ft) || obj.ty != optional_inner(ft)) return expr(obj);  // not a narrowed optional
  Pos p = obj.pos;
  Value* v = field_get(expr(*obj.kids[0]), obj.kids[0]->ty, obj.str, p);
  int n = ++labels_;
  Block* none = new_block("narrowed.none", n);
  Block* ok = new_block("narrowed.some", n);
  cond_br(extract(v, 0, p), ok, {}, none, {}, p);
  cur_ = none;
  std::string name = attr.substr(attr.find(':') == std::string::npos ? 0 : attr.find(':') + 1);  // "@property:x"
  call_extern("ppy_exc_raise",
              {str_literal("AttributeError", p), str_literal(str_cat("'NoneType' object has no attribute '", name, "'"), p)},
              p);
  emit("core.unreachable", {}, {}, {}, p);
  cur_ = ok;
  return extract(v, 1, p);
}

}  // namespace ppy::frontend::lowering
