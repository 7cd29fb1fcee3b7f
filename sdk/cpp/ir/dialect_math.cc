// The `math` dialect (v1): pure float functions.
#include "ppy/ir/dialect.h"

namespace ppy::ir {

Dialect math_dialect() {
  Dialect d{"math", 1};
  for (const char* n : {"sqrt", "sin", "cos", "tan", "exp", "exp2", "log", "log2", "log10", "floor",
                        "ceil", "trunc", "abs"}) {
    OpSpec s;
    s.name = std::string("math.") + n;
    s.pure = true;
    s.operands = 1;
    s.results = 1;
    d.ops.push_back(std::move(s));
  }
  OpSpec pow;
  pow.name = "math.pow";
  pow.pure = true;
  pow.operands = 2;
  pow.results = 1;
  d.ops.push_back(std::move(pow));
  return d;
}

}  // namespace ppy::ir
