#pragma once
/// The reference interpreter of canonical IR: the oracle for everything below the
/// backend boundary (`ppy run`, `ppy run --interp`).
///
/// It executes a linked module (see `ppy::ir::link`) by first compiling each
/// function once into a compact register form (values numbered into a frame,
/// callees and runtime externs resolved, opcodes chosen from op names and
/// attributes), so nothing on the hot path compares strings.
///
/// Semantics are the shared runtime conventions: integer ops raise OverflowError
/// for `overflow = "python"|"checked"`, `rounding = "floor"` is Python's `//`/`%`,
/// a failing `core.guard` raises the Python exception of its kind, and a
/// `core.call_extern` calls the native runtime's function by its entry in the
/// runtime ABI table (ppy/runtime/abi.def), printing to `out`.
/// A Python exception ends the program with exit status 1 and the line
/// `<Exception>: <message>` on the error stream, as python3's last line reads.

#include <iosfwd>
#include <string>
#include <string_view>

#include "ppy/ir/ir.h"

namespace ppy::interp {

struct RunOptions {
  /// Calls deeper than this raise RecursionError (python3's default limit).
  int recursion_limit = 1000;
};

struct RunResult {
  /// 0 on success, 1 for a Python exception, 2 when the IR cannot be run (no
  /// such entry, an op or extern the interpreter does not know, a call to a
  /// function with no body); the reason is on the error stream.
  int exit_code = 0;
};

/// The error line (without its newline) for an entry that names nothing to
/// run, the same on every road that runs a program: a module with neither
/// module-level code nor a main() (a library, or GPU kernels alone).
std::string nothing_to_run(std::string_view entry);

/// Runs the entry function of `linked` and writes what it prints to `out`.
/// `entry` is a symbol (`@main_main` or `main_main`), a qualname (`main.main`),
/// or a module name (`main`, meaning the function whose qualname is `main.main`).
/// The entry takes no parameters.
RunResult run_main(const ir::Module& linked, std::string_view entry, std::ostream& out,
                   std::ostream& err, const RunOptions& options = {});

}  // namespace ppy::interp
