#pragma once
/// What a native build needs beside LLVM: the system's C compiler and linker
/// (found on PATH), and the C texts it writes (the exports' header, the
/// pkg-config file, a CPython extension's wrappers).

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/ir/ir.h"

namespace ppy::llvm_backend {

/// A program on PATH by name, or nullopt.
std::optional<std::filesystem::path> find_program(const std::string& name);

/// The C compiler driver that links for `triple` (empty: this machine): `cc`,
/// `clang-19`, `clang` or `gcc` natively; `<triple>-gcc` (or `-cc`) for another
/// machine. Nullopt when there is none.
std::optional<std::filesystem::path> find_linker(const std::string& triple, const std::string& host_triple);

/// Runs `argv` (argv[0] a path) in `cwd`: what it printed, or an error with
/// its exit status and the tail of what it printed.
absl::StatusOr<std::string> run_tool(const std::vector<std::string>& argv, const std::filesystem::path& cwd);

/// An exported function as C sees it.
struct ExportedFunction {
  std::string symbol;    ///< `app_util_area`
  std::string qualname;  ///< `app.util.area`
  std::string c_result;  ///< `double`, `void`
  std::vector<std::string> c_params;  ///< `int64_t`, `ppy_list*`
  std::vector<std::string> param_names;
  std::vector<ir::Type> param_types;
  std::vector<ir::Type> result_types;
  std::optional<ir::Location> loc;
};

/// The functions marked `ppy.export = true` in `modules`, in order.
std::vector<ExportedFunction> exported_functions(std::span<const ir::Module* const> modules);

/// `ppy_<name>.h`: the runtime's list type and functions, and every export.
std::string c_header(const std::string& name, const std::vector<ExportedFunction>& exports);

/// `ppy_<name>.pc` for a library installed as `<prefix>/{lib,include}`,
/// relocatable (the prefix is found from the file's own folder); `collector`:
/// the library uses strings or lists, which live on Boehm's collector (-lgc).
std::string pkg_config(const std::string& name, const std::string& version, bool collector = false);

/// The C of a CPython extension module `name` wrapping `exports` (scalar
/// parameters only: the caller refuses others).
std::string python_extension_source(const std::string& name, const std::vector<ExportedFunction>& exports);

/// `name` as a C identifier and file stem: `ppy-sample` -> `ppy_sample`.
std::string c_identifier(const std::string& name);

}  // namespace ppy::llvm_backend
