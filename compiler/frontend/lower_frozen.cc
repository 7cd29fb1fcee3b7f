// IR generation, an assignment to a field of a frozen dataclass (dataclass_options.h):
// Python's frozen __setattr__ raises dataclasses.FrozenInstanceError once the value
// and the object are evaluated, whatever the field.
#include "dataclass_options.h"
#include "lowerer.h"
#include "namedtuple_classes.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {

void FunctionLowerer::assign_field(Value* obj, Ty cls, const std::string& name, Value* v, Pos p) {
  if (!is_frozen_class(cls)) {
    field_set(obj, cls, name, v, p);
    return;
  }
  // The raise sits on a branch of its own so that what follows the statement
  // still has a block to go in (it is never reached).
  int n = ++labels_;
  Block* frozen = new_block("field.frozen", n);
  Block* after = new_block("field.frozen.after", n);
  cond_br(const_bool(true, p), frozen, {}, after, {}, p);
  cur_ = frozen;
  if (is_namedtuple_class(cls))  // a tuple's field: Python 3.11's message
    call_extern("ppy_exc_raise", {str_literal("AttributeError", p), str_literal("can't set attribute", p)}, p);
  else
    call_extern("ppy_exc_raise",
                {str_literal(kFrozenInstanceError, p), str_literal(str_cat("cannot assign to field '", name, "'"), p)},
                p);
  emit("core.unreachable", {}, {}, {}, p);
  cur_ = after;
}

}  // namespace ppy::frontend::lowering
