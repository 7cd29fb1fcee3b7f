#pragma once
/// LLVM modules to optimized modules and machine code: the target machine,
/// the new pass manager's default pipelines (-O0..-O3) and object emission.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/PGOOptions.h"
#include "llvm/Target/TargetMachine.h"

namespace ppy::llvm_backend {

struct TargetOptions {
  std::string triple;  ///< empty: this machine's
  bool host_cpu = false;  ///< tune for this machine's processor (--host-cpu)
  int opt_level = 2;
};

/// Registers LLVM's targets once per process (X86, AArch64, RISC-V, ...).
void initialize_targets();

/// This machine's triple, normalized.
std::string host_triple();

/// A machine for `options.triple` (position-independent code, so one object
/// serves the executable, the static and the shared library). Unknown triple:
/// E1801 naming it.
absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> make_target_machine(const TargetOptions& options);

/// Optimization remarks kept while optimizing (--report-opt).
struct Remark {
  std::string kind;      ///< passed, missed, analysis
  std::string pass;      ///< inline, loop-vectorize, ...
  std::string name;      ///< the remark's identifier
  std::string function;  ///< where
  std::string message;
};

/// Runs the default pipeline of `opt_level` over `module` (O0 keeps only what
/// must run). Remarks of inlining and vectorization go to `remarks` if given.
/// With `pgo`, the pipeline instruments or reads a profile (backends/llvm/pgo.h);
/// what LLVM says of the profile (a function whose code changed since) goes to
/// `profile_warnings`.
void optimize(llvm::Module& module, llvm::TargetMachine& machine, int opt_level,
              std::vector<Remark>* remarks = nullptr, const std::optional<llvm::PGOOptions>& pgo = std::nullopt,
              std::vector<std::string>* profile_warnings = nullptr);

/// The module as an ELF object, or as assembly text.
absl::StatusOr<std::string> emit_object(llvm::Module& module, llvm::TargetMachine& machine, bool assembly = false);

/// The module as LLVM IR text.
std::string print_ir(const llvm::Module& module);

/// An error naming what LLVM's verifier says, or OK.
absl::Status verify(const llvm::Module& module);

}  // namespace ppy::llvm_backend
