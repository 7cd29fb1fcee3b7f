#pragma once
// Python's own attributes of the builtin types and the standard modules (issue
// 34): a method the subset does not take is either one Python has (refused,
// E1010, naming it) or one it does not (python3's AttributeError, with a "did
// you mean" from Python's own names).

#include <string>
#include <string_view>
#include <vector>

namespace ppy::frontend {

/// The attribute names python3 has for `owner`: a builtin type ("list", "str",
/// "dict", "set", "tuple", "int", "float") or a standard module ("module math");
/// dunder names left out. Null for any other owner.
[[nodiscard]] const std::vector<std::string>* python_attributes(std::string_view owner);

/// python3's AttributeError text for `attr` of `owner` (`'list' object has no
/// attribute 'apend'; did you mean 'append'?`, `module 'math' has no attribute
/// 'sqr'; ...`), or "" when Python has it or `owner` is not in the table.
[[nodiscard]] std::string missing_attribute(std::string_view owner, const std::string& attr);

/// The keyword parameters python3's builtin function `builtin` ("print",
/// "sorted", "list.sort", ...) takes; null for one that takes none.
[[nodiscard]] const std::vector<std::string>* python_keywords(std::string_view builtin);

}  // namespace ppy::frontend
