// The CUDA tools the nvvm backend uses when they are installed: ptxas (for
// `.cubin` files and its version) and libdevice (math functions).
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "nvvm.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::nvvm {
namespace {

/// Runs `program args...`; its exit status and what it wrote to stdout and stderr.
struct RunResult {
  int status = -1;
  std::string output;
  std::string error;  ///< why it could not be started
};

RunResult run(const std::filesystem::path& program, const std::vector<std::string>& args) {
  RunResult result;
  llvm::SmallString<128> out_file;
  if (llvm::sys::fs::createTemporaryFile("ppy-nvvm", "txt", out_file)) {
    result.error = "cannot make a temporary file";
    return result;
  }
  const std::string prog = program.string();
  std::vector<llvm::StringRef> argv{prog};
  for (auto& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), out_file.str(), out_file.str()};
  result.status = llvm::sys::ExecuteAndWait(prog, argv, std::nullopt, redirects, /*timeout s*/ 300, 0,
                                            &result.error);
  std::ifstream in(out_file.c_str());
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  llvm::sys::fs::remove(out_file);
  return result;
}

std::vector<std::filesystem::path> cuda_roots() {
  std::vector<std::filesystem::path> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) roots.emplace_back(v);
  roots.emplace_back("/usr/local/cuda");
  return roots;
}

Toolchain find() {
  Toolchain t;
  std::error_code ec;
  for (const auto& root : cuda_roots()) {
    if (!t.ptxas && std::filesystem::is_regular_file(root / "bin" / "ptxas", ec)) t.ptxas = root / "bin" / "ptxas";
    auto lib = root / "nvvm" / "libdevice" / "libdevice.10.bc";
    if (!t.libdevice && std::filesystem::is_regular_file(lib, ec)) t.libdevice = lib;
  }
  if (!t.ptxas)
    if (auto p = llvm::sys::findProgramByName("ptxas")) t.ptxas = std::filesystem::path(*p);
  if (t.ptxas && !t.libdevice) {  // beside a ptxas found on PATH: <cuda>/bin/ptxas
    auto lib = t.ptxas->parent_path().parent_path() / "nvvm" / "libdevice" / "libdevice.10.bc";
    if (std::filesystem::is_regular_file(lib, ec)) t.libdevice = lib;
  }
  if (t.ptxas) {
    RunResult r = run(*t.ptxas, {"--version"});
    // "Cuda compilation tools, release 13.0, V13.0.88"
    if (auto at = r.output.find("release "); r.status == 0 && at != std::string::npos)
      t.ptxas_version = r.output.substr(at, r.output.find('\n', at) - at);
  }
  return t;
}

}  // namespace

const Toolchain& toolchain() {
  static const Toolchain* t = new Toolchain(find());
  return *t;
}

absl::Status run_ptxas(const std::filesystem::path& ptxas, const std::string& arch,
                       const std::filesystem::path& ptx_file, const std::filesystem::path& cubin_file) {
  RunResult r = run(ptxas, {str_cat("-arch=", arch), "-o", cubin_file.string(), ptx_file.string()});
  if (r.status == 0) return absl::OkStatus();
  if (r.status < 0)
    return coded_error("E1801", str_cat("cannot run ", ptxas.string(), ": ", r.error.empty() ? "it did not finish" : r.error));
  return coded_error("E1802", str_cat(ptxas.string(), " -arch=", arch, " refused ", ptx_file.filename().string(),
                                      " (exit ", r.status, "): ", r.output));
}

}  // namespace ppy::nvvm
