#pragma once
/// The roads of the `ppy` command line, one function each. They print to the
/// streams given (so tests can capture them) and return the process exit status:
/// 0 success, 1 a program or input error, 2 a usage or backend error.

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppy::driver {

/// Readies this process to be the driver, once, before any road runs: a
/// Ctrl-C, SIGTERM or exit ends every helper it started and removes their
/// folders, and memory freed by a module is kept for the next. The command
/// line calls it; a road never needs to.
void prepare_driver_process();

/// Where a command writes: its normal output and its diagnostics.
struct Streams {
  std::ostream& out;
  std::ostream& err;
};

/// How the command line hosts a backend, above the project's table.
struct HostFlags {
  std::optional<std::string> sandbox;     ///< --sandbox off|default|strict
  std::optional<int> backend_timeout_ms;  ///< --backend-timeout: every call's deadline
};

struct EmitOptions {
  std::string format;                 ///< `ir`, `linked-ir`, or a backend's format
  std::string target;                 ///< a .ppy file, a .ppyir file or a project folder
  std::optional<std::string> output;  ///< -o FILE|DIR
  std::optional<int> opt_level;
  std::optional<std::string> legacy_format;  ///< `--format FORMAT`, refused with a pointer
  /// Flag-shaped options of the builtin source formats, without dashes:
  /// `standalone`, `header-only`, `unsafe`, `format` (each refused, E1002, for
  /// a format that does not take it).
  std::vector<std::string> flags;
  int jobs = 0;                       ///< -j N; 0: the number of cores
  HostFlags host;
  bool no_cache = false;              ///< --no-cache: the artifact cache is neither read nor written
};

/// `ppy emit FORMAT TARGET [-o FILE|DIR]`.
int emit(const EmitOptions& opts, Streams io);

struct RunOptions {
  std::string target;
  std::optional<int> opt_level;
  /// `--backend NAME`: build with that backend and run what it built (python:
  /// python3 runs the entry module); unset, the LLVM backend's JIT runs it.
  std::optional<std::string> backend;
  /// Run with the reference interpreter instead of the LLVM backend's JIT.
  bool interp = false;
  /// `--sanitize address,undefined`: build a sanitized executable and run it
  /// (the JIT cannot host ASan; docs/llvm.md, "Sanitizers").
  std::optional<std::string> sanitize;
  /// `--profile [--profile-out FILE]`: run an instrumented build and write its
  /// profile; `--pgo FILE`: build with a profile and run that (docs/llvm.md).
  bool profile = false;
  std::optional<std::string> profile_out;
  std::optional<std::string> pgo;
  /// `ppy run FILE -- ARGS...`: the program's `sys.argv[1:]` (its
  /// `sys.argv[0]` is `target` as given, as python3 shows the script's path).
  std::vector<std::string> args;
};

/// `ppy run --sanitize LIST`: `ppy build --standalone --sanitize LIST` into a
/// temporary folder, then the executable, whose exit status it returns.
int run_sanitized(const RunOptions& opts, Streams io);

/// `ppy run --profile` / `--pgo FILE`: an executable built into a temporary
/// folder (instrumented, or with the profile), run with the program's
/// arguments; its exit status is returned (compiler/driver/run_profiled.cc).
int run_profiled(const RunOptions& opts, Streams io);

struct BuildOptions {
  std::string target;
  std::string backend;
  std::optional<std::string> output;  ///< -o DIR; default `<cache>/backends/NAME`
  std::optional<int> opt_level;
  HostFlags host;
  int jobs = 0;                                ///< -j N; 0: the number of cores
  /// The LLVM road's options given on the command line (`--unsafe`, `--target`, ...):
  /// each is refused (E1002) for any other backend.
  std::vector<std::string> llvm_only;
  /// The values of those that take one (`--target` -> `aarch64-linux-gnu`).
  std::map<std::string, std::string> llvm_values;
  bool no_cache = false;  ///< --no-cache: the artifact cache is neither read nor written
  bool quiet = false;     ///< --quiet: only errors are printed
};

/// `ppy build TARGET --backend NAME [-o DIR]`.
int build(const BuildOptions& opts, Streams io);

struct CacheCommandOptions {
  std::string action;        ///< `stats` or `clean`
  std::string target = ".";  ///< the project (folder or file) whose cache it is
};

/// `ppy cache stats|clean [TARGET]`: the project's artifact cache, its size and
/// counts per backend, or emptied of every entry no build is reading; safe
/// while builds run.
int cache_command(const CacheCommandOptions& opts, Streams io);

/// `ppy doctor`: the toolchain, each backend's state, the sandbox this machine gives.
int doctor(Streams io);

/// `ppy backends`: what discovery finds, without starting anything.
int list_backends(Streams io);

struct ConformanceOptions {
  std::string name;                      ///< the backend; may be empty with --manifest of one
  std::optional<std::string> manifest;   ///< --manifest PATH: that distribution, not the search path
  std::vector<std::string> options;      ///< --option KEY=VALUE: its table
  std::vector<std::string> missing_toolchain;  ///< --missing-toolchain KEY=VALUE: a table without it
};
/// `ppy conformance NAME`: the contract's checks against an installed backend
/// through its real hosting, one line per check; 0 only when none fails.
int conformance(const ConformanceOptions& opts, Streams io);

/// `ppy run FILE|DIR`: compiles through the LLVM backend and runs `main()`
/// with ORC's LLJIT (objects cached by artifact identity); `--interp` keeps
/// the reference interpreter.
int run(const RunOptions& opts, Streams io);

/// `ppy check FILE|DIR`: diagnostics only.
int check(const std::string& target, Streams io);

/// `--diagnostics-format text|json|sarif` (check, build, emit, run): how every
/// command of this process writes a failed compile's source diagnostics on its
/// error stream. Set once by the CLI before the command runs; false for a name
/// that is none of the three. Other failures (a backend's, the command line's)
/// stay `error[CODE]: ...` lines.
[[nodiscard]] bool set_diagnostics_format(std::string_view name);

struct InspectOptions {
  std::string target;
  std::string stage;  ///< a stage name: after-ir-generation ... before-backend, or backend
  std::optional<int> opt_level;
  /// With `--stage backend`: the backend whose passes the IR goes through.
  std::optional<std::string> backend;
};

/// `ppy inspect --stage STAGE FILE`: the IR as it stands after that stage;
/// `--stage backend --backend NAME`: after that backend's own passes, as the
/// backend sends the modules back (`return_modules`), wherever it runs.
int inspect(const InspectOptions& opts, Streams io);

}  // namespace ppy::driver
