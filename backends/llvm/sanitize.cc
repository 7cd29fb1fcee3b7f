// --sanitize on the LLVM road: the names, the instrumentation, the runtime's
// compile and the link.
#include "sanitize.h"

#include <unistd.h>

#include "flags.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"
#include "native.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::llvm_backend {
namespace {

/// Why this road refuses a sanitizer clang knows.
std::optional<std::string> refused_because(std::string_view name) {
  if (name == "thread")
    return "a ppy program runs on one thread, so ThreadSanitizer has nothing to check; use address,undefined";
  if (name == "memory")
    return "MemorySanitizer needs every library the program links (libc, libm, libgc) built with it; "
           "use address,undefined";
  if (name == "hwaddress" || name == "kernel-address")
    return "this road builds user programs for x86-64 and AArch64 with ASan; use address";
  if (name == "leak")
    return "a program's strings, lists and dicts are the collector's, never freed by hand, so every one would "
           "be a leak; use address";
  if (name == "dataflow" || name == "cfi" || name == "safe-stack" || name == "fuzzer")
    return "it is not a checking sanitizer this road offers; use address,undefined";
  return std::nullopt;
}

/// The folder of LLVM 19's compiler-rt archives (libclang-rt-19-dev), or nullopt.
std::optional<fs::path> clang_rt_dir() {
  const std::string major = std::to_string(LLVM_VERSION_MAJOR);
  for (const std::string& dir :
       {str_cat("/usr/lib/llvm-", major, "/lib/clang/", major, "/lib/linux"),
        str_cat("/usr/lib/clang/", major, "/lib/linux"), str_cat("/usr/local/lib/clang/", major, "/lib/linux")})
    if (fs::exists(fs::path(dir) / "libclang_rt.asan-x86_64.a") ||
        fs::exists(fs::path(dir) / "libclang_rt.ubsan_standalone-x86_64.a") ||
        fs::exists(fs::path(dir) / "libclang_rt.asan-aarch64.a"))
      return fs::path(dir);
  return std::nullopt;
}

std::string machine_arch() {
#if defined(__aarch64__)
  return "aarch64";
#else
  return "x86_64";
#endif
}

}  // namespace

std::string Sanitizers::spelled() const {
  std::string out;
  if (address) out = "address";
  if (undefined) str_append(out, out.empty() ? "" : ",", "undefined");
  return out;
}

absl::StatusOr<Sanitizers> sanitizers_of(const BackendContext& context) {
  Sanitizers s;
  if (!has_flag(context, "sanitize")) return s;
  std::string list = flag_value(context, "sanitize");
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(start, end - start);
    start = end + 1;
    if (name == "address") {
      s.address = true;
    } else if (name == "undefined") {
      s.undefined = true;
    } else if (name.empty()) {
      continue;
    } else if (auto why = refused_because(name)) {
      return coded_error("E1002", str_cat("--sanitize ", name, " is refused on the LLVM road: ", *why),
                         absl::StatusCode::kInvalidArgument);
    } else {
      return coded_error("E1002",
                         str_cat("--sanitize: unknown sanitizer '", name,
                                 "' (the LLVM road has address and undefined, alone or as address,undefined)"),
                         absl::StatusCode::kInvalidArgument);
    }
  }
  if (!s.any())
    return coded_error("E1002", "--sanitize needs a sanitizer: address, undefined, or address,undefined",
                       absl::StatusCode::kInvalidArgument);
  return s;
}

void mark_for_sanitizers(llvm::Module& module, const Sanitizers& sanitizers) {
  if (!sanitizers.address) return;
  for (llvm::Function& f : module)
    if (!f.isDeclaration()) f.addFnAttr(llvm::Attribute::SanitizeAddress);
}

void run_sanitizer_passes(llvm::Module& module, llvm::TargetMachine& machine, const Sanitizers& sanitizers) {
  // UBSan has no IR pass: clang emits its checks from C's types. The generated
  // code's own guards (overflow, shifts, division, bounds) are those checks.
  if (!sanitizers.address) return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::AddressSanitizerOptions options;
  options.UseAfterScope = true;  // as clang's default
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::AddressSanitizerPass(options));
  mpm.run(module, mam);
}

absl::StatusOr<fs::path> sanitizer_c_compiler() {
  for (const char* name : {"clang-19", "clang"})
    if (auto p = find_program(name)) return *p;
  return coded_error("E1801",
                     "backend 'llvm' is unavailable for --sanitize: no clang-19 or clang to compile the runtime with "
                     "the sanitizers (install clang)");
}

std::vector<std::string> sanitizer_compile_flags(const Sanitizers& sanitizers) {
  return {"-fsanitize=" + sanitizers.spelled(), "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"};
}

std::string sanitizer_runtime_prelude(const Sanitizers& sanitizers) {
  std::string out = "/* --sanitize " + sanitizers.spelled() + " (backends/llvm/sanitize.cc) */\n";
  if (sanitizers.address)
    // The collector's blocks are one arena to ASan: with malloc each string,
    // list and dict has its redzones, and a freed block its quarantine.
    // Nothing is collected; a sanitized run is a test, not a long service.
    out +=
        "#include <gc.h>\n#include <stdlib.h>\n"
        "#undef GC_MALLOC\n#undef GC_MALLOC_ATOMIC\n#undef GC_REALLOC\n"
        "#define GC_MALLOC(n) calloc(1, (n))\n#define GC_MALLOC_ATOMIC(n) malloc(n)\n"
        "#define GC_REALLOC(p, n) realloc((p), (n))\n"
        "const char* __asan_default_options(void);\n"
        "const char* __asan_default_options(void) { return \"detect_leaks=0\"; }\n";
  if (sanitizers.undefined)
    out +=
        "const char* __ubsan_default_options(void);\n"
        "const char* __ubsan_default_options(void) { return \"print_stacktrace=1\"; }\n";
  return out;
}

absl::StatusOr<std::vector<std::string>> sanitizer_link_args(const Sanitizers& sanitizers) {
  std::optional<fs::path> dir = clang_rt_dir();
  std::string arch = machine_arch();
  std::vector<std::string> archives =
      sanitizers.address
          ? std::vector<std::string>{"libclang_rt.asan_static-" + arch + ".a", "libclang_rt.asan-" + arch + ".a"}
          : std::vector<std::string>{"libclang_rt.ubsan_standalone-" + arch + ".a"};
  for (auto& a : archives)
    if (!dir || !fs::exists(*dir / a))
      return coded_error("E1801", str_cat("backend 'llvm' is unavailable for --sanitize: no ", a, " of LLVM ",
                                          LLVM_VERSION_MAJOR, " (install libclang-rt-", LLVM_VERSION_MAJOR, "-dev)"));
  // As clang links them: the whole runtime, its symbols exported for the
  // interceptors, and what the runtime itself calls.
  std::vector<std::string> args;
  for (auto& a : archives) {
    args.push_back("-Wl,--whole-archive");
    args.push_back((*dir / a).string());
    args.push_back("-Wl,--no-whole-archive");
  }
  fs::path syms = *dir / (archives.back() + ".syms");
  if (fs::exists(syms)) args.push_back("-Wl,--dynamic-list=" + syms.string());
  for (const char* lib : {"-lpthread", "-lrt", "-lm", "-ldl", "-lresolv"}) args.push_back(lib);
  return args;
}

}  // namespace ppy::llvm_backend
