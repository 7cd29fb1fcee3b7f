#include "ppy/backends/nvvm_backend.h"

#include <cstdlib>
#include <fstream>

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "nvvm.h"
#include "ppy/backend/api_version.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace {

/// The architecture: the table's `target`, else PPY_CUDA_ARCH, else sm_80.
std::string choose_arch(const Options& options) {
  std::string arch = option(options, "target");
  if (arch.empty())
    if (const char* env = std::getenv("PPY_CUDA_ARCH")) arch = env;
  return arch.empty() ? "sm_80" : arch;
}

bool has_kernel(const ir::Module& m) {
  for (const auto& f : m.functions())
    if (!f->is_declaration() && nvvm::is_device_function(*f)) {
      const ir::Attribute* k = f->attributes().get("gpu.kind");
      if (k->as_string() == "kernel") return true;
    }
  return false;
}

class NvvmBackend : public Backend {
 public:
  explicit NvvmBackend(const Options& options) : Backend(options), arch_(choose_arch(options)) {}

  std::string_view name() const override { return "nvvm"; }
  std::optional<int> api_version() const override { return kBackendApiVersion; }

  /// The code generator (LLVM's version), the architecture, and the CUDA
  /// pieces that shape the output (libdevice's path, ptxas's release).
  std::string fingerprint() const override {
    const nvvm::Toolchain& t = nvvm::toolchain();
    return str_cat("nvvm:llvm-" LLVM_VERSION_STRING ":", arch_, ":libdevice=",
                   t.libdevice ? t.libdevice->string() : "none", ":ptxas=",
                   t.ptxas_version.empty() ? "none" : t.ptxas_version);
  }

  ToolchainStatus toolchain_status() const override {
    if (!nvvm::known_arch(arch_))
      return {false, str_cat("'", arch_, "' is not an architecture LLVM " LLVM_VERSION_STRING
                             "'s NVPTX target knows (set `target = \"sm_80\"` or PPY_CUDA_ARCH)")};
    const nvvm::Toolchain& t = nvvm::toolchain();
    std::string detail = str_cat("LLVM " LLVM_VERSION_STRING " NVPTX, ", arch_, " (PTX ", nvvm::ptx_version(arch_), "); ");
    if (t.ptxas)
      str_append(detail, "ptxas ", t.ptxas->string(), t.ptxas_version.empty() ? "" : str_cat(" (", t.ptxas_version, ")"));
    else
      str_append(detail, "no ptxas (PTX only, no .cubin)");
    str_append(detail, "; libdevice ", t.libdevice ? t.libdevice->string() : "none (math.sin and kin are refused)");
    return {true, detail};
  }

  std::vector<EmitFormat> emit_formats() const override {
    return {
        {"nvvm-ir", ".ll", false, "device functions as LLVM IR for NVPTX (libdevice linked, optimised)",
         EmitScope::Module, true},
        {"ptx", ".ptx", false, "device functions as PTX assembly for the target architecture", EmitScope::Module,
         true},
    };
  }

  absl::Status validate(const ir::Module& module, const BackendContext&) const override {
    if (auto r = nvvm::check_module(module, nvvm::toolchain().libdevice.has_value()))
      return validation_error(BackendValidationError{"nvvm", r->what, r->capability, r->location});
    return absl::OkStatus();
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat& format,
                                BackendContext& context) const override {
    llvm::LLVMContext llvm_context;
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> m, compile(module, llvm_context, context.opt_level));
    if (format.name == "ptx") {
      PPY_ASSIGN_OR_RETURN(std::string ptx, nvvm::emit_ptx(*m, arch_, context.opt_level));
      return Artifact(std::move(ptx));
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    m->print(os, nullptr);
    return Artifact(text);
  }

  absl::StatusOr<BuildResult> build(ModuleList modules, const std::filesystem::path& output_dir,
                                    BackendContext& context) const override {
    BuildResult result;
    const nvvm::Toolchain& t = nvvm::toolchain();
    for (const ir::Module* module : modules) {
      if (!has_kernel(*module)) continue;
      llvm::LLVMContext llvm_context;
      PPY_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> m, compile(*module, llvm_context, context.opt_level));
      PPY_ASSIGN_OR_RETURN(std::string ptx, nvvm::emit_ptx(*m, arch_, context.opt_level));
      auto ptx_path = output_dir / (module->name() + ".ptx");
      std::ofstream(ptx_path, std::ios::binary) << ptx;
      result.outputs.push_back(ptx_path.filename());
      if (!t.ptxas) continue;
      auto cubin = output_dir / (module->name() + ".cubin");
      PPY_RETURN_IF_ERROR(nvvm::run_ptxas(*t.ptxas, arch_, ptx_path, cubin));
      result.outputs.push_back(cubin.filename());
    }
    if (!t.ptxas) context.note("nvvm: no ptxas found (CUDA's bin/ptxas or PATH): wrote PTX only, no .cubin");
    return result;
  }

 private:
  absl::StatusOr<std::unique_ptr<llvm::Module>> compile(const ir::Module& module, llvm::LLVMContext& c,
                                                        int opt_level) const {
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> m, nvvm::lower_module(module, c));
    PPY_RETURN_IF_ERROR(nvvm::prepare(*m, arch_, opt_level, nvvm::toolchain().libdevice));
    return m;
  }

  std::string arch_;
};

}  // namespace

std::unique_ptr<Backend> create_nvvm_backend(const Options& options) {
  return std::make_unique<NvvmBackend>(options);
}

}  // namespace ppy::backends
