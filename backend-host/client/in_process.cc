// The in-process handle: a ppy::Backend linked into the driver, behind the same
// interface (and the same checks) as a helper.

#include <exception>
#include <fstream>

#include "internal.h"
#include "ppy/host/handle.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::host {
namespace {

class InProcessHandle final : public BackendHandle {
 public:
  InProcessHandle(std::shared_ptr<const Backend> backend, BackendInfo info)
      : backend_(std::move(backend)), info_(std::move(info)) {}

  const BackendInfo& info() const override { return info_; }
  absl::StatusOr<std::string> fingerprint() override {
    return guarded("fingerprint", [&]() -> absl::StatusOr<std::string> { return backend_->fingerprint(); });
  }
  absl::StatusOr<ToolchainStatus> toolchain_status() override {
    return guarded("toolchain_status",
                   [&]() -> absl::StatusOr<ToolchainStatus> { return backend_->toolchain_status(); });
  }
  absl::StatusOr<InvocationResult> invoke(const Invocation& r) override {
    return guarded(action_name(r), [&] { return run(r); });
  }

 private:
  static std::string_view action_name(const Invocation& r) {
    switch (r.action) {
      case Invocation::Action::Validate: return "validate";
      case Invocation::Action::Emit: return "emit";
      case Invocation::Action::EmitProgram: return "emit_program";
      case Invocation::Action::Build: return "build";
    }
    return "invoke";
  }
  /// A backend that throws fails the call (E1905), as a crashing helper does.
  template <class F>
  auto guarded(std::string_view call, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const std::exception& e) {
      return internal::call_failure(info_, call, str_cat("it threw: ", std::string_view(e.what())), {});
    } catch (...) {
      return internal::call_failure(info_, call, "it threw", {});
    }
  }
  /// A status from the backend's own code: kept when it carries an E-code.
  absl::Status own(const absl::Status& s, std::string_view call) {
    if (!error_code(s).empty()) return s;
    if (s.code() == absl::StatusCode::kUnimplemented)
      return coded_error("E1802", str_cat("backend '", info_.name, "' does not ", call, ": ", std::string(s.message())));
    return internal::call_failure(info_, call, std::string(s.message()), {});
  }

  absl::StatusOr<InvocationResult> run(const Invocation& r) {
    InvocationResult out;
    BackendContext ctx = r.context ? *r.context : BackendContext{};
    const EmitFormat* format = nullptr;
    if (r.action == Invocation::Action::Emit || r.action == Invocation::Action::EmitProgram) {
      auto f = internal::format_for(info_, r);
      if (!f.ok()) return f.status();
      format = *f;
    }
    if (r.action == Invocation::Action::Build || format) {
      absl::Status t = require_toolchain(info_, format);
      if (!t.ok()) return t;
    }
    // The backend acts on its own copy, as a helper does on what it received.
    std::vector<std::unique_ptr<ir::Module>> copies;
    std::vector<const ir::Module*> modules = r.modules;
    if (r.run_passes && !info_.passes.empty()) {
      for (size_t i = 0; i < modules.size(); ++i) {
        copies.push_back(ir::clone(*modules[i]));
        auto runs = run_backend_passes(*backend_, *copies.back(), ctx);
        if (!runs.ok()) return runs.status();
        if (i == 0) out.passes = *runs;
        modules[i] = copies.back().get();
      }
    }
    if (r.return_modules)
      for (const ir::Module* m : modules) out.modules.push_back(ir::clone(*m));
    if (r.validate || r.action == Invocation::Action::Validate)
      for (const ir::Module* m : modules) {
        absl::Status v = backend_->validate(*m, ctx);
        if (!v.ok()) return own(v, "validate");
      }
    switch (r.action) {
      case Invocation::Action::Validate: break;
      case Invocation::Action::Emit:
        for (const ir::Module* m : modules) {
          auto a = backend_->emit(*m, *format, ctx);
          if (!a.ok()) return own(a.status(), "emit");
          if (auto s = take(std::move(*a), *format, m->name(), out); !s.ok()) return s;
        }
        break;
      case Invocation::Action::EmitProgram: {
        auto a = backend_->emit_program(modules, *format, ctx);
        if (!a.ok()) return own(a.status(), "emit_program");
        if (auto s = take(std::move(*a), *format, "", out); !s.ok()) return s;
        break;
      }
      case Invocation::Action::Build: {
        std::error_code ec;
        fs::create_directories(r.output_dir, ec);
        auto b = backend_->build(modules, r.output_dir, ctx);
        if (!b.ok()) return own(b.status(), "build");
        for (const fs::path& p : b->outputs) {
          fs::path abs = p.is_absolute() ? p : r.output_dir / p;
          out.outputs.push_back(abs.lexically_normal());
        }
        out.written = out.outputs;
        break;
      }
    }
    out.notes = ctx.notes();
    return out;
  }

  absl::Status take(Artifact a, const EmitFormat& format, const std::string& module, InvocationResult& out) {
    const bool binary = std::holds_alternative<Bytes>(a);
    if (auto s = internal::check_artifact_type(info_, format, binary); !s.ok()) return s;
    out.artifacts.push_back({module, binary ? std::move(std::get<Bytes>(a).data) : std::move(std::get<std::string>(a)),
                             binary});
    return absl::OkStatus();
  }

  std::shared_ptr<const Backend> backend_;
  BackendInfo info_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<BackendHandle>> in_process_backend(std::shared_ptr<const Backend> backend,
                                                                 InProcessOptions options) {
  BackendInfo info;
  try {
    info.name = std::string(backend->name());
    info.api_version = backend->api_version();
    info.distribution = options.distribution;
    info.version = options.version;
    info.origin = !options.origin.empty() ? options.origin
                  : options.builtin       ? std::string("builtin")
                                          : str_cat(options.distribution, " ", options.version);
    info.formats = backend->emit_formats();
    info.passes = describe_passes(*backend);
    info.fingerprint = backend->fingerprint();
    info.toolchain = backend->toolchain_status();
    info.sdk = std::string(kSdkVersion);
  } catch (const std::exception& e) {
    return coded_error("E1903", str_cat("backend '", info.name, "' could not be created by ", info.origin, ": ",
                                        std::string_view(e.what())));
  }
  if (auto s = internal::check_info(info, {}, options.builtin); !s.ok()) return s;
  return std::unique_ptr<BackendHandle>(new InProcessHandle(std::move(backend), std::move(info)));
}

}  // namespace ppy::host
