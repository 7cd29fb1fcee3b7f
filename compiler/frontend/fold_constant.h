#pragma once
// Folding the operators of module-level constants (`LIMIT = 2 ** 20`,
// `SEP = "-" * 40`) as Python computes them, for the declarer.

#include <optional>
#include <string>

#include "checker.h"

namespace ppy::frontend {

/// `op v` (`-`, `+`) of a folded constant; nullopt when Python's answer is not
/// a constant the subset keeps (a str operand, `not`, `-INT64_MIN`).
[[nodiscard]] std::optional<ConstInfo> fold_unary(const std::string& op, ConstInfo v);

/// `a op b` of two folded constants: int arithmetic with Python's floor
/// division and modulo, float arithmetic, str `+` and `*` (up to 4096
/// characters). nullopt when it does not fold; a ConstInfo of type Error when
/// an int result does not fit in 64 bits (the caller reports E1080).
[[nodiscard]] std::optional<ConstInfo> fold_binary(const std::string& op, const ConstInfo& a, const ConstInfo& b);

}  // namespace ppy::frontend
