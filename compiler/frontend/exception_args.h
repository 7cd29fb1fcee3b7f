#pragma once
/// `e.args` of an exception class's instance (issue 32, docs/language.md
/// "Exceptions"): the tuple BaseException keeps. Python's is a tuple of any
/// values; ppy gives it a static type, which it reads off the program before
/// the bodies are checked: the arguments of the `super().__init__(...)` call
/// that reaches BaseException's, else those the constructor takes (the nearest
/// `__init__`'s parameters, or what each `E(...)` of the module passes when the
/// class has none). The runtime keeps each argument's `str()` in the hidden
/// field `__argv` (exception_classes.h), which `e.args` converts back.

#include <string>
#include <vector>

#include "checker.h"

namespace ppy::frontend {

/// The element types of `e.args` for `e` of exception class `cls` (and so of
/// any of its subclasses, which must agree); false with `why` (a phrase for
/// E1010) when ppy cannot tell them or they are not ints, floats, bools and strs.
[[nodiscard]] bool exception_args_types(const ModuleInfo& m, Ty cls, std::vector<Ty>& out, std::string& why);

}  // namespace ppy::frontend
