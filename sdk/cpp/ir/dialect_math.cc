// The `math` dialect (v1): pure float functions.
#include "ppy/ir/dialect.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

/// Operands are floats (or vectors of floats) of one type, and so is the result.
void verify_float_fn(const Operation& op, DiagSink& sink) {
  Type t = op.operand(0)->type();
  for (size_t i = 1; i < op.num_operands(); ++i)
    if (op.operand(i)->type() != t) {
      sink.error(ppy::str_cat("operands must have one type, got ", t.str(), " and ", op.operand(i)->type().str()));
      return;
    }
  Type s = t.kind() == TypeKind::Vector ? t.elem() : t;
  if (!s.is_float()) {
    sink.error(ppy::str_cat("operands must be floats or vectors of floats, got ", t.str()));
    return;
  }
  if (op.result()->type() != t)
    sink.error(ppy::str_cat("the result is ", op.result()->type().str(), " but the operand type is ", t.str()));
}

}  // namespace

Dialect math_dialect() {
  Dialect d{"math", 1};
  for (const char* n : {"sqrt", "sin", "cos", "tan", "exp", "exp2", "log", "log2", "log10", "floor",
                        "ceil", "trunc", "abs"}) {
    OpSpec s;
    s.name = std::string("math.") + n;
    s.pure = true;
    s.operands = 1;
    s.results = 1;
    s.verify = verify_float_fn;
    d.ops.push_back(std::move(s));
  }
  OpSpec pow;
  pow.name = "math.pow";
  pow.pure = true;
  pow.operands = 2;
  pow.results = 1;
  pow.verify = verify_float_fn;
  d.ops.push_back(std::move(pow));
  return d;
}

}  // namespace ppy::ir
