// Optimization (new pass manager) and machine code for the LLVM backend.
#include "codegen.h"

#include <mutex>

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::llvm_backend {

void initialize_targets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

std::string host_triple() { return llvm::Triple::normalize(llvm::sys::getDefaultTargetTriple()); }

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> make_target_machine(const TargetOptions& options) {
  initialize_targets();
  std::string triple = options.triple.empty() ? host_triple() : llvm::Triple::normalize(options.triple);
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return coded_error("E1801",
                       str_cat("backend 'llvm' is unavailable: no LLVM target for '", triple, "' (", error, ")"));
  std::string cpu = "generic", features;
  llvm::Triple t(triple);
  if (options.host_cpu) {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> host_features = llvm::sys::getHostCPUFeatures();
    for (auto& f : host_features) str_append(features, features.empty() ? "" : ",", f.second ? "+" : "-", f.first().str());
  } else if (t.isX86()) {
    cpu = "x86-64";
  } else if (t.isRISCV64()) {
    cpu = "generic-rv64";
    features = "+m,+a,+f,+d,+c";
  }
  llvm::CodeGenOptLevel level = options.opt_level <= 0   ? llvm::CodeGenOptLevel::None
                                : options.opt_level == 1 ? llvm::CodeGenOptLevel::Less
                                : options.opt_level == 2 ? llvm::CodeGenOptLevel::Default
                                                         : llvm::CodeGenOptLevel::Aggressive;
  llvm::TargetOptions to;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, cpu, features, to, llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine) return coded_error("E1801", str_cat("backend 'llvm' is unavailable: no machine for '", triple, "'"));
  return machine;
}

namespace {

/// Keeps the remarks of the passes `--report-opt` reports, and what LLVM says
/// of a profile.
class RemarkCollector : public llvm::DiagnosticHandler {
 public:
  RemarkCollector(std::vector<Remark>* out, std::vector<std::string>* profile)
      : out_(out), profile_(profile) {}
  bool isAnyRemarkEnabled() const override { return out_ != nullptr; }
  bool isAnalysisRemarkEnabled(llvm::StringRef pass) const override { return out_ && wanted(pass); }
  bool isMissedOptRemarkEnabled(llvm::StringRef pass) const override { return out_ && wanted(pass); }
  bool isPassedOptRemarkEnabled(llvm::StringRef pass) const override { return out_ && wanted(pass); }
  bool handleDiagnostics(const llvm::DiagnosticInfo& di) override {
    if (di.getKind() == llvm::DK_PGOProfile) {
      // A stale function or an unreadable profile: warned about, never an error.
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::DiagnosticPrinterRawOStream printer(os);
      di.print(printer);
      if (profile_) profile_->push_back(os.str());
      return true;
    }
    if (!out_) return di.getSeverity() != llvm::DS_Error;
    auto* r = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(&di);
    if (!r) return false;
    Remark out;
    out.kind = r->getKind() == llvm::DK_OptimizationRemark         ? "passed"
               : r->getKind() == llvm::DK_OptimizationRemarkMissed ? "missed"
                                                                   : "analysis";
    out.pass = r->getPassName().str();
    out.name = r->getRemarkName().str();
    out.function = r->getFunction().getName().str();
    out.message = r->getMsg();
    out_->push_back(std::move(out));
    return true;
  }

 private:
  static bool wanted(llvm::StringRef pass) {
    return pass == "inline" || pass == "loop-vectorize" || pass == "slp-vectorizer" || pass == "licm" ||
           pass == "loop-unroll";
  }
  std::vector<Remark>* out_;
  std::vector<std::string>* profile_;
};

}  // namespace

void optimize(llvm::Module& module, llvm::TargetMachine& machine, int opt_level, std::vector<Remark>* remarks,
              const std::optional<llvm::PGOOptions>& pgo, std::vector<std::string>* profile_warnings) {
  std::unique_ptr<llvm::DiagnosticHandler> saved;
  const bool collect = remarks || pgo;
  if (collect) {
    saved = module.getContext().getDiagnosticHandler();
    module.getContext().setDiagnosticHandler(std::make_unique<RemarkCollector>(remarks, profile_warnings));
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = opt_level >= 2;
  tuning.SLPVectorization = opt_level >= 2;
  llvm::PassBuilder pb(&machine, tuning, pgo);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = opt_level <= 0   ? llvm::OptimizationLevel::O0
                                  : opt_level == 1 ? llvm::OptimizationLevel::O1
                                  : opt_level == 2 ? llvm::OptimizationLevel::O2
                                                   : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm =
      opt_level <= 0 ? pb.buildO0DefaultPipeline(level) : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
  if (collect) module.getContext().setDiagnosticHandler(std::move(saved));
}

absl::StatusOr<std::string> emit_object(llvm::Module& module, llvm::TargetMachine& machine, bool assembly) {
  module.setDataLayout(machine.createDataLayout());
  module.setTargetTriple(machine.getTargetTriple().str());
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr,
                                  assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile))
    return coded_error("E1801", "backend 'llvm' is unavailable: the target cannot emit this file type");
  pm.run(module);
  return std::string(buffer.data(), buffer.size());
}

std::string print_ir(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  os.flush();
  return text;
}

absl::Status verify(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::verifyModule(module, &os))
    return absl::InternalError(str_cat("backend 'llvm' made IR LLVM's verifier refuses: ", os.str()));
  return absl::OkStatus();
}

}  // namespace ppy::llvm_backend
