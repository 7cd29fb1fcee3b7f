// Ops an exception can come out of (ppy/runtime/raise_through.h).
#include "ppy/runtime/raise_through.h"

#include "ppy/ir/core_ops.h"
#include "ppy/ir/trace.h"
#include "ppy/runtime/abi.h"

namespace ppy::runtime {

bool exception_may_come_through(const ir::Operation& op) {
  switch (ir::core_op(op)) {
    case ir::CoreOp::Call:
    case ir::CoreOp::CallIndirect:
      return true;
    case ir::CoreOp::CallExtern: {
      const RuntimeFunction* fn = runtime_callee(op);
      return !fn || fn->has(kRaises) || fn->has(kNoReturn);
    }
    default:
      return false;
  }
}

bool inlining_keeps_line(const ir::Operation& def, const ir::Operation& user) {
  // The line as a frame holds it: in a comprehension's frame or not too (ppy/ir/trace.h).
  return !exception_may_come_through(def) || !def.loc() || (user.loc() && ir::trace_line(user) == ir::trace_line(def));
}

}  // namespace ppy::runtime
