#pragma once
/// What a program reads of its environment and of a caught SystemExit or OSError
/// (issue 33), written in ppy: `e.code`, `os.environ.get(k)` without a default and
/// `e.errno` / `e.strerror` / `e.filename` give a union or a value the runtime
/// keeps as text (the exception's message and the repr of its args tuple,
/// ppy_exc_args), so the checker rewrites them into calls of these helpers
/// (check_environ.cc) and every road runs them as it runs the program's own code.

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// `e.code` of a SystemExit: `__ppy_exit_code(str(e), <its args' repr>)`, an `int | str | None`.
inline constexpr const char* kExitCode = "__ppy_exit_code";
/// `os.environ.get(k)`: `__ppy_str_or_none(k in os.environ, os.environ.get(k, ""))`, a `str | None`.
inline constexpr const char* kStrOrNone = "__ppy_str_or_none";
/// `e.errno`, `e.strerror`, `e.filename` of an OSError, read from its message `[Errno 2] text: 'path'`.
inline constexpr const char* kOsErrno = "__ppy_os_errno";
inline constexpr const char* kOsStrerror = "__ppy_os_strerror";
inline constexpr const char* kOsFilename = "__ppy_os_filename";

/// `print(e.args)` / `str(e.args)` / `f"{e.args}"` of a caught builtin exception:
/// `__ppy_exc_args_text(type(e).__name__, str(e), <its args' repr>)`, python3's tuple repr.
inline constexpr const char* kExcArgsText = "__ppy_exc_args_text";
/// `e.args` of one as a value: `__ppy_exc_arg_values(type(e).__name__, str(e), <its args' repr>)`,
/// its arguments as a `list[int | float | bool | str]`.
inline constexpr const char* kExcArgValues = "__ppy_exc_arg_values";
/// One of those arguments (`e.args[i]`, a local given one) where a str, an int or a float is
/// needed (a str method's receiver, len(), an operand, an argument): `__ppy_exc_arg_str(v, what)`,
/// the value when it holds one (a bool or int as an int or float too), else python3's error:
/// `what` is `A` (AttributeError) or `T` (TypeError), then the message, `{}` the type it holds.
inline constexpr const char* kExcArgStr = "__ppy_exc_arg_str";
inline constexpr const char* kExcArgInt = "__ppy_exc_arg_int";
inline constexpr const char* kExcArgFloat = "__ppy_exc_arg_float";
/// `a, b = e.args`: `__ppy_exc_args_n(..., 2)[i]`, that list when it has 2 arguments, else
/// python3's ValueError `too many values to unpack (expected 2)` / `not enough values ...`.
inline constexpr const char* kExcArgsN = "__ppy_exc_args_n";

/// Adds the helpers to `ast` when `text` (the module's source) may need them (it names
/// `environ`, or reads `.args`, `.code`, `.errno`, `.strerror` or `.filename`).
void add_io_helpers(ModuleAst& ast, const std::string& file, const std::string& text);

}  // namespace ppy::frontend
