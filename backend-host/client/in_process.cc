// The in-process handle: a ppy::Backend linked into the driver, behind the same
// interface as a helper, running the same session engine a helper's service does.

#include <exception>
#include <optional>
#include <variant>

#include "internal.h"
#include "ppy/host/handle.h"
#include "ppy/backend/session.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::host {
namespace {

/// What a session answers, kept for the InvocationResult.
class CollectingSink final : public SessionSink {
 public:
  explicit CollectingSink(InvocationResult& out) : out_(out) {}

  void step(SessionStep step) override { step_ = step; }
  absl::Status module(size_t index, const ir::Module& module) override {
    out_.modules.push_back(ir::clone(module));
    return absl::OkStatus();
  }
  absl::Status artifact(std::string_view module, Artifact a) override {
    const bool binary = std::holds_alternative<Bytes>(a);
    out_.artifacts.push_back(
        {std::string(module), binary ? std::move(std::get<Bytes>(a).data) : std::move(std::get<std::string>(a)), binary});
    return absl::OkStatus();
  }
  absl::Status file(BuildFile f) override {
    files_.push_back(std::move(f));
    return absl::OkStatus();
  }

  /// The step running now, if one has begun.
  std::optional<SessionStep> step() const { return step_; }
  std::vector<BuildFile>& files() { return files_; }

 private:
  InvocationResult& out_;
  std::optional<SessionStep> step_;
  std::vector<BuildFile> files_;
};

class InProcessHandle final : public BackendHandle {
 public:
  InProcessHandle(std::shared_ptr<const Backend> backend, BackendInfo info)
      : backend_(std::move(backend)), info_(std::move(info)) {}

  const BackendInfo& info() const override { return info_; }
  absl::StatusOr<std::string> fingerprint() override {
    return guarded([] { return "fingerprint"; },
                   [&]() -> absl::StatusOr<std::string> { return backend_->fingerprint(); });
  }
  absl::StatusOr<ToolchainStatus> toolchain_status() override {
    return guarded([] { return "toolchain_status"; },
                   [&]() -> absl::StatusOr<ToolchainStatus> { return backend_->toolchain_status(); });
  }
  /// The session engine, called directly: what a helper's service runs.
  absl::StatusOr<InvocationResult> invoke(const Invocation& r) override {
    InvocationResult out;
    CollectingSink sink(out);
    // The step that threw is the call that failed, as a helper's crash is.
    auto call = [&] { return sink.step() ? step_name(*sink.step()) : internal::action_call(r); };
    absl::StatusOr<SessionResult> done = guarded(call, [&]() -> absl::StatusOr<SessionResult> {
      BackendContext ctx = r.context ? *r.context : BackendContext{};
      SessionModules modules{r.modules, {}};
      absl::StatusOr<SessionResult> res = run_session(*backend_, r, ctx, modules, nullptr, sink);
      out.notes = ctx.notes();
      return res;
    });
    if (!done.ok()) return internal::from_session(info_, call(), done.status());
    out.passes = std::move(done->passes);
    if (r.action == Invocation::Action::Build)
      PPY_RETURN_IF_ERROR(internal::take_build_files(info_, std::move(sink.files()), std::move(done->outputs), out));
    return out;
  }

 private:
  /// A backend that throws fails the call (E1905), as a crashing helper does;
  /// `call()` names the call (the step it was in).
  template <class Call, class F>
  auto guarded(Call call, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const std::exception& e) {
      return internal::call_failure(info_, call(), str_cat("it threw: ", std::string_view(e.what())), {});
    } catch (...) {
      return internal::call_failure(info_, call(), "it threw", {});
    }
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
  PPY_RETURN_IF_ERROR(internal::check_info(info, {}, options.builtin));
  return std::unique_ptr<BackendHandle>(new InProcessHandle(std::move(backend), std::move(info)));
}

}  // namespace ppy::host
