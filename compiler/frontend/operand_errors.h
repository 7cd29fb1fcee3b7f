#pragma once
// python3's words for a binary operator its operands' types do not take
// (issue 34: `1 + "a"` is `unsupported operand type(s) for +: 'int' and
// 'str'`, not str's concatenation message).

#include <string>
#include <string_view>

#include "ast.h"

namespace ppy::frontend {

/// The name python3's messages give a value of type `t`: `int`, `str`, `list`
/// (not `list[int]`), `dict`, `set`, `tuple`, a class's own name.
[[nodiscard]] std::string python_type_of(Ty t);

/// python3's TypeError text for `a OP b`: `can only concatenate str (not
/// "int") to str` (a str or list on the left of `+`), `can't multiply
/// sequence by non-int of type 'float'`, `unsupported operand type(s) for **
/// or pow(): ...`, else `unsupported operand type(s) for OP: 'A' and 'B'`.
[[nodiscard]] std::string operand_type_error(std::string_view op, Ty a, Ty b);

/// The same, with the operands' names given (an exception's own class, which its type does not hold).
[[nodiscard]] std::string operand_type_error(std::string_view op, Ty a, Ty b, const std::string& an,
                                             const std::string& bn);

}  // namespace ppy::frontend
