#pragma once
/// The builtin exception classes the subset raises and catches, with their
/// bases as Python has them: the one place the frontend, and so the whole
/// compiler, knows the hierarchy. Lowering names the classes an `except`
/// clause catches (the class and its builtin subclasses), so the runtime and
/// the backends match by name alone.

#include <string>
#include <string_view>

namespace ppy::frontend {

/// Whether `name` is a builtin exception class of the subset.
bool is_builtin_exception(std::string_view name);

/// Whether builtin exception `name` is `ancestor` or derives from it (`issubclass`).
bool builtin_exception_derives(std::string_view name, std::string_view ancestor);

/// The name the runtime raises and matches `name` by: a module's exception
/// with its module (`dataclasses.FrozenInstanceError`), a builtin as it is.
std::string runtime_exception_name(std::string_view name);

/// What `except name` catches, as ppy_exc_matches reads it: `name`, then each
/// builtin subclass of it, space-separated (docs/runtime.md, "Exceptions").
std::string caught_by(std::string_view name);

}  // namespace ppy::frontend
