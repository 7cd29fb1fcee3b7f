#include "python_text.h"

#include "ppy/ir/core_ops.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::python {

std::string paren(const Expr& e, int need) { return e.prec >= need ? e.text : str_cat("(", e.text, ")"); }

const std::set<std::string, std::less<>>& python_reserved() {
  static auto* r = new std::set<std::string, std::less<>>{"False",
                                                          "None",
                                                          "True",
                                                          "and",
                                                          "as",
                                                          "assert",
                                                          "async",
                                                          "await",
                                                          "break",
                                                          "class",
                                                          "continue",
                                                          "def",
                                                          "del",
                                                          "elif",
                                                          "else",
                                                          "except",
                                                          "finally",
                                                          "for",
                                                          "from",
                                                          "global",
                                                          "if",
                                                          "import",
                                                          "in",
                                                          "is",
                                                          "lambda",
                                                          "nonlocal",
                                                          "not",
                                                          "or",
                                                          "pass",
                                                          "raise",
                                                          "return",
                                                          "try",
                                                          "while",
                                                          "with",
                                                          "yield",
                                                          "match",
                                                          "case",
                                                          "print",
                                                          "len",
                                                          "int",
                                                          "float",
                                                          "bool",
                                                          "abs",
                                                          "min",
                                                          "max",
                                                          "range",
                                                          "math",
                                                          "list",
                                                          "str",
                                                          "object",
                                                          "type",
                                                          "sys",
                                                          "RecursionError",
                                                          "MemoryError",
                                                          "__name__",
                                                          "self"};
  // The exceptions guards raise (the SDK's table): generated code names them.
  static const bool with_guards = [] {
    for (int k = 0; k <= static_cast<int>(ir::GuardKind::Unknown); ++k)
      r->insert(std::string(ir::guard_exception(static_cast<ir::GuardKind>(k)).exception));
    return true;
  }();
  (void)with_guards;
  return *r;
}

}  // namespace ppy::backends::python
