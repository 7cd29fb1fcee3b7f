#pragma once
/// The special methods a class may define (docs/language.md, "Classes"), and
/// the signature each must have so that the operators, builtins and printing
/// that call it can.

#include <string_view>

namespace ppy::frontend {

/// Whether a class may define the special method `name` (besides `__init__`).
bool is_supported_dunder(std::string_view name);

}  // namespace ppy::frontend
