#include "ppy/backends/c_backend.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "ppy/backend/api_version.h"
#include "ppy/ir/core_ops.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::backends {
namespace {

/// `name` on PATH, or empty.
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    fs::path p = fs::path(dir) / name;
    std::error_code ec;
    if (fs::exists(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

/// Runs clang-format over `text` as if it were `root/<file>`: the project's
/// .clang-format when there is one, LLVM style otherwise.
absl::StatusOr<std::string> clang_format(const std::string& text, const fs::path& root, const std::string& file) {
  std::string exe = on_path("clang-format");
  if (exe.empty())
    return validation_error({"c", "--format", "clang-format on PATH (install it, or emit without --format)", std::nullopt});
  int in[2], out[2];
  if (pipe(in) != 0) return absl::InternalError("pipe failed");
  if (pipe(out) != 0) {
    close(in[0]);
    close(in[1]);
    return absl::InternalError("pipe failed");
  }
  std::string assume = (root.empty() ? fs::current_path() : fs::absolute(root)) / file;
  pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execl(exe.c_str(), "clang-format", "--style=file", "--fallback-style=LLVM",
          ("--assume-filename=" + assume).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  // The formatter reads everything before it writes, so write then read.
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = write(in[1], text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
  close(in[1]);
  std::string result;
  char buf[65536];
  for (;;) {
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.append(buf, static_cast<size_t>(n));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return validation_error({"c", "--format", str_cat("clang-format to succeed (", exe, " failed)"), std::nullopt});
  return result;
}

class CBackend : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "c"; }
  std::optional<int> api_version() const override { return kBackendApiVersion; }
  // 2: device float ops round as written; the runtime it pastes is part of every file it writes.
  std::string fingerprint() const override { return str_cat("c:2; runtime ", runtime::digest()); }

  std::vector<EmitFormat> emit_formats() const override {
    auto f = [](const char* name, const char* suffix, const char* what) {
      return EmitFormat{name, suffix, false, what, EmitScope::Module, false};
    };
    return {
        f("c", ".c", "C11 per module, the runtime included (--standalone: a whole program with main)"),
        f("cpp", ".cpp", "C++17 per module, exports behind extern \"C\""),
        f("header", ".h", "the C declarations of a module's @export functions"),
        f("cuda", ".cu", "CUDA C++: kernels, device functions and the host code launching them"),
        f("hip", ".hip", "HIP: kernels, device functions and the host code launching them"),
    };
  }

  ToolchainStatus toolchain_status() const override {
    std::string cc = on_path("cc");
    // Writing C needs nothing; `cc` is what builds it.
    return {true, cc.empty() ? "writes C; no cc on PATH to build it" : "cc at " + cc};
  }

  /// A try body's call: its status comes back as a second result (docs/runtime.md, "Exceptions").
  static bool capture(const ir::Operation& op) {
    return ir::core_op(op) == ir::CoreOp::Call && ir::captures_status(op);
  }

  absl::Status validate(const ir::Module& module, const BackendContext&) const override {
    for (auto& f : module.functions()) {
      absl::Status status;
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (!status.ok()) return;
        const std::string& n = op.name();
        bool known = op.dialect() == "core" || op.dialect() == "math" || n == "gpu.thread_id" ||
                     n == "gpu.block_id" || n == "gpu.block_dim" || n == "gpu.grid_dim" || n == "gpu.barrier" ||
                     n == "gpu.launch";
        // Shifts are i64 helpers of the host runtime, not device code.
        ir::CoreOp k = ir::core_op(op);
        bool device_shift = (k == ir::CoreOp::Shl || k == ir::CoreOp::Shr) &&
                            (f->attributes().get("gpu.kind") || op.result(0)->type() != ir::Type::i64());
        if (!known || device_shift || k == ir::CoreOp::CallIntrinsic || (op.num_results() > 1 && !capture(op)) ||
            !op.regions().empty())
          status = validation_error({"c", str_cat(n, " in ", f->name()), "", op.loc() ? op.loc() : f->loc()});
      });
      PPY_RETURN_IF_ERROR(status);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat& format,
                                BackendContext& context) const override {
    COptions o;
    const std::string& n = format.name;
    o.dialect = n == "cpp" ? COptions::Dialect::Cpp
                : n == "header" ? COptions::Dialect::Header
                : n == "cuda" ? COptions::Dialect::Cuda
                : n == "hip" ? COptions::Dialect::Hip
                              : COptions::Dialect::C;
    o.standalone = context.backend_config.count("--standalone") != 0;
    o.header_only = context.backend_config.count("--header-only") != 0;
    o.unsafe = context.backend_config.count("--unsafe") != 0;
    PPY_ASSIGN_OR_RETURN(std::string text, c_source(module, o));
    if (context.backend_config.count("--format")) {
      PPY_ASSIGN_OR_RETURN(std::string formatted, clang_format(text, context.root, module.name() + format.suffix));
      return Artifact(std::move(formatted));
    }
    return Artifact(std::move(text));
  }

  /// The contract's table: a builtin that only emits.
  absl::StatusOr<BuildResult> build(ModuleList, const fs::path&, BackendContext&) const override {
    return coded_error("E1802", "backend 'c' does not build: it only emits source (ppy emit c|cpp|header|cuda|hip "
                                "TARGET); `ppy run --backend c TARGET` compiles and runs it, or build the C of "
                                "`ppy emit c TARGET --standalone` with `cc prog.c $(pkg-config --libs bdw-gc) -lm`");
  }
};

}  // namespace

std::unique_ptr<Backend> create_c_backend(const Options& options) { return std::make_unique<CBackend>(options); }

}  // namespace ppy::backends
