#pragma once
/// The nvvm backend's parts, one pass each: what it can take (`check.cc`),
/// the lowering of device functions to LLVM IR (`lower.cc`), code generation
/// through the NVPTX target (`codegen.cc`), and the CUDA tools it finds
/// (`toolchain.cc`).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "ppy/ir/ir.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace ppy::nvvm {

/// Whether a function is device code (`gpu.kind` kernel or device).
bool is_device_function(const ir::Function& f);

/// The math ops LLVM's NVPTX target cannot lower itself; they are calls into
/// libdevice (`__nv_sin`), or refused where libdevice is not installed.
bool needs_libdevice(std::string_view op_name);

/// What `validate` refuses: the op, type or function and where.
struct Refusal {
  std::string what;        ///< `core.guard in @k`
  std::string capability;  ///< `host-only op`
  std::optional<ir::Location> location;
};

/// The first thing in `module`'s device functions this backend cannot lower,
/// or nullopt. `have_libdevice` says whether math ops needing it can be taken.
std::optional<Refusal> check_module(const ir::Module& module, bool have_libdevice);

/// The device functions of `module` as an LLVM module for `nvptx64-nvidia-cuda`
/// (no data layout yet; `codegen` sets it). Kernels use the `ptx_kernel`
/// calling convention and are listed in `nvvm.annotations`; names are the
/// ppy symbols. Expects a module `check_module` accepts.
absl::StatusOr<std::unique_ptr<llvm::Module>> lower_module(const ir::Module& module, llvm::LLVMContext& context);

/// The CUDA tools this machine has.
struct Toolchain {
  std::optional<std::filesystem::path> ptxas;      ///< /usr/local/cuda/bin/ptxas, or on PATH
  std::string ptxas_version;                       ///< `release 13.0, V13.0.88`, or empty
  std::optional<std::filesystem::path> libdevice;  ///< .../nvvm/libdevice/libdevice.10.bc
};
/// Looks once per process (CUDA_HOME / CUDA_PATH, /usr/local/cuda, PATH).
const Toolchain& toolchain();

/// Whether LLVM's NVPTX target knows `arch` (`sm_90`).
bool known_arch(const std::string& arch);

/// Links what `module` calls of libdevice, sets the target's data layout and
/// optimises at `opt_level` (0-3): the module `nvvm-ir` prints and `ptx`
/// compiles.
absl::Status prepare(llvm::Module& module, const std::string& arch, int opt_level,
                     const std::optional<std::filesystem::path>& libdevice);

/// `module` (after `prepare`) as PTX text for `arch`.
absl::StatusOr<std::string> emit_ptx(llvm::Module& module, const std::string& arch, int opt_level);

/// The PTX ISA version LLVM writes for `arch` (`7.8` for sm_90).
std::string ptx_version(const std::string& arch);

/// Runs `ptxas -arch=<arch>` on `ptx_file` into `cubin_file`; the error names
/// ptxas's own message.
absl::Status run_ptxas(const std::filesystem::path& ptxas, const std::string& arch,
                       const std::filesystem::path& ptx_file, const std::filesystem::path& cubin_file);

}  // namespace ppy::nvvm
