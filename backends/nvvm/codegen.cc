// Code generation through LLVM's NVPTX target: libdevice linked in for the
// math it provides, LLVM's optimisation pipeline at the build's level, then
// the PTX assembly printer.
#include <algorithm>
#include <cstdlib>

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "nvvm.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace ppy::nvvm {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

/// Only NVPTX: the driver links other LLVM targets for other backends, and
/// registering them is theirs.
const llvm::Target* nvptx() {
  static const llvm::Target* target = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    std::string error;
    return llvm::TargetRegistry::lookupTarget(kTriple, error);
  }();
  return target;
}

llvm::CodeGenOptLevel codegen_level(int opt_level) {
  switch (opt_level) {
    case 0: return llvm::CodeGenOptLevel::None;
    case 1: return llvm::CodeGenOptLevel::Less;
    case 3: return llvm::CodeGenOptLevel::Aggressive;
    default: return llvm::CodeGenOptLevel::Default;
  }
}

std::unique_ptr<llvm::TargetMachine> machine(const std::string& arch, int opt_level) {
  const llvm::Target* t = nvptx();
  if (!t) return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(t->createTargetMachine(
      kTriple, arch, "", llvm::TargetOptions(), std::nullopt, std::nullopt, codegen_level(opt_level)));
}

absl::Status link_libdevice(llvm::Module& module, const std::filesystem::path& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path.string());
  if (!buffer) return coded_error("E1801", str_cat("cannot read libdevice ", path.string(), ": ", buffer.getError().message()));
  auto lib = llvm::parseBitcodeFile(**buffer, module.getContext());
  if (!lib) {
    std::string msg = llvm::toString(lib.takeError());
    return coded_error("E1801", str_cat("cannot read libdevice ", path.string(), ": ", msg));
  }
  (*lib)->setTargetTriple(module.getTargetTriple());
  (*lib)->setDataLayout(module.getDataLayout());
  // Only what the module calls, internalised: unused libdevice functions go.
  bool failed = llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::LinkOnlyNeeded,
                                          [](llvm::Module& m, const llvm::StringSet<>& names) {
                                            llvm::internalizeModule(m, [&](const llvm::GlobalValue& g) {
                                              return !names.count(g.getName());
                                            });
                                          });
  if (failed) return coded_error("E1801", str_cat("cannot link libdevice ", path.string()));
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"): no flush to zero, as CPython.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
  return absl::OkStatus();
}

}  // namespace

bool known_arch(const std::string& arch) {
  auto tm = machine("sm_80", 2);
  return tm && tm->getMCSubtargetInfo()->isCPUStringValid(arch);
}

std::string ptx_version(const std::string& arch) {
  auto tm = machine(arch, 2);
  if (!tm) return "";
  // The processor's definition in LLVM implies the oldest PTX ISA that has it
  // (sm_75: ptx63, sm_90: ptx78); the printer writes that version.
  const llvm::MCSubtargetInfo& sti = *tm->getMCSubtargetInfo();
  int best = 0;
  for (const llvm::SubtargetFeatureKV& f : sti.getAllProcessorFeatures()) {
    std::string_view key = f.Key;
    if (key.starts_with("ptx") && sti.checkFeatures(str_cat("+", key))) best = std::max(best, std::atoi(f.Key + 3));
  }
  return best ? str_cat(best / 10, ".", best % 10) : "";
}

absl::Status prepare(llvm::Module& module, const std::string& arch, int opt_level,
                     const std::optional<std::filesystem::path>& libdevice) {
  auto tm = machine(arch, opt_level);
  if (!tm) return coded_error("E1801", "this LLVM has no NVPTX target");
  module.setTargetTriple(kTriple);
  module.setDataLayout(tm->createDataLayout());
  bool calls_libdevice = false;
  for (const llvm::Function& f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) calls_libdevice = true;
  if (calls_libdevice) {
    if (!libdevice) return coded_error("E1801", "libdevice is not installed (CUDA's nvvm/libdevice/libdevice.10.bc)");
    PPY_RETURN_IF_ERROR(link_libdevice(module, *libdevice));
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(module, &os))
    return coded_error("E1802", str_cat("backend 'nvvm' made invalid LLVM IR (a bug): ", problems));
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = opt_level <= 0 ? llvm::OptimizationLevel::O0
                                  : opt_level == 1 ? llvm::OptimizationLevel::O1
                                  : opt_level == 2 ? llvm::OptimizationLevel::O2
                                                   : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = opt_level <= 0 ? pb.buildO0DefaultPipeline(level) : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
  return absl::OkStatus();
}

absl::StatusOr<std::string> emit_ptx(llvm::Module& module, const std::string& arch, int opt_level) {
  auto tm = machine(arch, opt_level);
  if (!tm) return coded_error("E1801", "this LLVM has no NVPTX target");
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return coded_error("E1801", "the NVPTX target cannot write PTX");
  pm.run(module);
  return std::string(ptx.str());
}

}  // namespace ppy::nvvm
