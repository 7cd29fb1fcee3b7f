#pragma once
/// Dataclass fields' options (docs/language.md, "Classes"):
/// `x: list[str] = field(default_factory=list)` (also dict and set), a new
/// empty container at each construction, and `field(default=<constant>)`.

#include <functional>
#include <optional>
#include <string>

#include "ast.h"
#include "checker.h"

namespace ppy::frontend {

/// The default a dataclass field's `field(...)` call gives, when `v` is one
/// (`callee` is the dotted name its callee resolves to). `fold` folds a
/// constant; `error` reports (code, position, message). nullopt with no error
/// when `v` is not a `field(...)` call; nullopt after an error when it is one
/// ppy does not take.
[[nodiscard]] std::optional<ConstInfo> dataclass_field_default(
    const Expr& v, const std::string& callee, const std::function<std::optional<ConstInfo>(const Expr&)>& fold,
    const std::function<void(const char*, Pos, std::string)>& error, bool* is_field_call);

/// What a call leaving out a field with a default factory passes: an empty
/// list or dict display, or `set()`, typed by the field.
[[nodiscard]] ExprPtr factory_default(const std::string& factory, Pos p);

}  // namespace ppy::frontend
