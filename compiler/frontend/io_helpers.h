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

/// `e.args` of a caught builtin exception: `(__ppy_exc_arg0(type(e).__name__, str(e)),)`.
inline constexpr const char* kExcArg0 = "__ppy_exc_arg0";
/// `print(e.args)` / `f"{e.args}"` of one: `__ppy_exc_args_text(type(e).__name__, str(e), <its args' repr>)`.
inline constexpr const char* kExcArgsText = "__ppy_exc_args_text";
/// `e.args[i]` of one: `__ppy_exc_arg_strs(type(e).__name__, str(e), <its args' repr>)[i]`, a `list[str]`.
inline constexpr const char* kExcArgStrs = "__ppy_exc_arg_strs";

/// Adds the helpers to `ast` when `text` (the module's source) may need them (it names
/// `environ`, or reads `.args`, `.code`, `.errno`, `.strerror` or `.filename`).
void add_io_helpers(ModuleAst& ast, const std::string& file, const std::string& text);

}  // namespace ppy::frontend
