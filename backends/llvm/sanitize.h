#pragma once
/// `--sanitize address,undefined` on the LLVM road: which sanitizers a build
/// asked for, the instrumentation of the generated code (LLVM's
/// AddressSanitizer pass), and what the runtime's C and the link need
/// (clang's -fsanitize, the sanitizer runtimes of libclang-rt-19-dev).
/// docs/llvm.md, "Sanitizers", says what each one checks where.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "ppy/backend/backend.h"

namespace ppy::llvm_backend {

/// The sanitizers of one build; none when `--sanitize` was not given.
struct Sanitizers {
  bool address = false;    ///< ASan: the generated code and the runtime
  bool undefined = false;  ///< UBSan: the runtime's C (the IR's guards already check the generated code)

  [[nodiscard]] bool any() const { return address || undefined; }
  /// `address,undefined`: the -fsanitize spelling.
  [[nodiscard]] std::string spelled() const;
};

/// The `sanitize` flag of the context, checked: E1002 for an unknown name, an
/// empty list, or one this road refuses (`thread`, `memory`, ...), naming why.
[[nodiscard]] absl::StatusOr<Sanitizers> sanitizers_of(const BackendContext& context);

/// Marks every function defined in `module` for instrumentation; called before
/// the optimization pipeline so that it keeps to what ASan allows.
void mark_for_sanitizers(llvm::Module& module, const Sanitizers& sanitizers);

/// Runs the instrumentation passes over an optimized module (where clang puts
/// them: after the pipeline).
void run_sanitizer_passes(llvm::Module& module, llvm::TargetMachine& machine, const Sanitizers& sanitizers);

/// The C compiler that instruments the runtime as the sanitizer runtimes
/// expect: `clang-19`, else `clang`. E1801 when there is none.
[[nodiscard]] absl::StatusOr<std::filesystem::path> sanitizer_c_compiler();

/// The flags the runtime's C is compiled with (-fsanitize=..., no recovery).
[[nodiscard]] std::vector<std::string> sanitizer_compile_flags(const Sanitizers& sanitizers);

/// C text put before the runtime: under ASan the runtime allocates with
/// malloc (so ASan sees every string, list and dict) instead of on the
/// collector, and the runtimes' default options.
[[nodiscard]] std::string sanitizer_runtime_prelude(const Sanitizers& sanitizers);

/// What an executable's link adds: the static sanitizer runtime of LLVM 19
/// (libclang-rt-19-dev) and the system libraries it needs. E1801 naming the
/// package when the runtime is not installed.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> sanitizer_link_args(const Sanitizers& sanitizers);

}  // namespace ppy::llvm_backend
