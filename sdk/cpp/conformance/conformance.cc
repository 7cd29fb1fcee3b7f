#include "ppy/backend/conformance.h"

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "ppy/backend/client.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/str_cat.h"
#include "sample_program.h"

namespace ppy::conformance {
namespace {

namespace v1 = ::ppy::backend::v1;
using std::chrono::milliseconds;

/// A device kernel with a located `gpu` op: what a backend without device
/// kernels refuses in `validate`.
constexpr char kKernel[] = R"(ppyir 1
module @kern
dialect core 1
dialect gpu 1

func @kern(%n: i64) -> () attrs {gpu.kind = "kernel"} loc("kern.ppy":1:0) {
^entry:
    %tid = gpu.thread_id.x : index loc("kern.ppy":2:10)
    core.ret
}
)";

/// The program every emit and build is asked for (sample_program.h).
using samples::kApp;
using samples::kLib;

constexpr milliseconds kCallDeadline{60'000};
/// Sessions at once: what a spawned helper's thread pool (8 threads, pollers
/// included) serves; a driver runs its -j emits on one helper like this.
constexpr int kConcurrentCalls = 4;

std::string describe(const absl::Status& s) { return std::string(s.message()); }

std::string describe(const v1::BackendError& e) {
  return str_cat(v1::BackendError::Code_Name(e.code()), " '", e.message(), "'");
}

/// What a session answered, in a line.
std::string describe(const absl::StatusOr<InvokeResult>& r) {
  if (!r.ok()) return str_cat("the call failed: ", describe(r.status()));
  if (r->error) return describe(*r->error);
  std::string out = str_cat(r->artifacts.size(), " artifact(s)");
  for (const auto& a : r->artifacts)
    str_append(out, " [", a.path.empty() ? "program" : a.path, ": ", a.binary ? "bytes" : "text", "]");
  if (!r->files.empty()) str_append(out, ", ", r->files.size(), " file(s)");
  return out;
}

/// Everything an answer says, for comparing two answers byte for byte.
std::string digest(const InvokeResult& r) {
  std::string out;
  for (const auto& a : r.artifacts) str_append(out, "A", a.path, '\0', a.binary, a.data.size(), '\0', a.data);
  for (const auto& f : r.files) str_append(out, "F", f.path, '\0', f.executable, f.data.size(), '\0', f.data);
  if (r.finished)
    for (const auto& o : r.finished->outputs()) str_append(out, "O", o, '\0');
  if (r.error) str_append(out, "E", describe(*r.error));
  return out;
}

class Runner {
 public:
  Runner(const Connect& connect, const Settings& settings) : connect_(connect), settings_(settings) {
    for (const char* text : {kApp, kLib}) {
      absl::StatusOr<std::unique_ptr<ir::Module>> m = ir::parse_module(text);
      modules_.push_back(m.ok() ? *std::move(m) : std::make_unique<ir::Module>("unparsed"));
    }
    for (auto& m : modules_) program_.push_back(m.get());
  }

  std::vector<Check> run() {
    absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = connect_();
    if (!channel.ok()) {
      add("handshake", false, "a connection", str_cat("none: ", describe(channel.status())));
      return std::move(checks_);
    }
    channel_ = *channel;
    stub_ = v1::Backend::NewStub(channel_);
    if (!handshake()) return std::move(checks_);
    fingerprint();
    emits();
    unknown_format();
    wrong_scope();
    validate_refusal();
    passes_keep_ir_valid();
    build();
    determinism();
    short_deadline();
    cancellation();
    concurrent_calls();
    missing_toolchain();
    return std::move(checks_);
  }

 private:
  void add(std::string name, bool pass, std::string expected, std::string got) {
    checks_.push_back(Check{std::move(name), pass ? Check::Outcome::Pass : Check::Outcome::Fail,
                            std::move(expected), std::move(got)});
  }
  void skip(std::string name, std::string expected, std::string why) {
    checks_.push_back(Check{std::move(name), Check::Outcome::Skip, std::move(expected), std::move(why)});
  }

  grpc::Status call_handshake(v1::Backend::Stub& stub, const Options& options, v1::HandshakeResponse& resp) {
    v1::HandshakeRequest req;
    req.add_api_versions(settings_.api_version);
    wire::to_proto(options, *req.mutable_options());
    req.set_driver_version("ppy conformance");
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
    return stub.Handshake(&ctx, req, &resp);
  }

  /// Whether the server still answers a handshake (after a refusal, a deadline
  /// or a cancellation).
  bool still_serving() {
    v1::HandshakeResponse resp;
    return call_handshake(*stub_, settings_.options, resp).ok();
  }

  v1::InvokeHeader header(v1::InvokeHeader::Action action, std::string_view format, ModuleList modules,
                          const Options& options) {
    v1::InvokeHeader h;
    h.set_action(action);
    h.set_format(std::string(format));
    h.set_run_passes(true);
    h.set_validate(true);
    wire::to_proto(options, *h.mutable_options());
    BackendContext context;
    context.backend_config = options;
    for (const ir::Module* m : modules) context.identity[m->name()] = std::string(64, '0');
    wire::to_proto(context, modules, h);
    return h;
  }

  absl::StatusOr<InvokeResult> invoke(v1::InvokeHeader h, ModuleList modules,
                                      milliseconds deadline = kCallDeadline) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadline);
    return ppy::invoke(*stub_, ctx, std::move(h), modules);
  }

  absl::StatusOr<InvokeResult> emit(const EmitFormat& f, const Options& options) {
    bool program = f.scope == EmitScope::Program;
    return invoke(header(program ? v1::InvokeHeader::EMIT_PROGRAM : v1::InvokeHeader::EMIT, f.name, program_,
                         options),
                  program_);
  }

  /// Whether `f` cannot be asked for here: its toolchain is missing.
  bool blocked(const EmitFormat& f) const { return f.requires_toolchain && !toolchain_.available; }

  bool handshake() {
    v1::HandshakeResponse resp;
    grpc::Status s = call_handshake(*stub_, settings_.options, resp);
    std::string expected = str_cat(settings_.name.empty() ? "a name" : str_cat("name '", settings_.name, "'"),
                                   ", API version ", settings_.api_version,
                                   ", formats with a name and a scope, passes at the backend stage");
    if (!s.ok()) {
      add("handshake", false, expected, str_cat("the call failed: ", s.error_message()));
      return false;
    }
    name_ = resp.name();
    toolchain_ = wire::toolchain_from_proto(resp.toolchain());
    fingerprint_ = resp.fingerprint();
    std::string problems;
    for (const auto& pf : resp.formats()) {
      absl::StatusOr<EmitFormat> f = wire::emit_format_from_proto(pf);
      if (f.ok()) formats_.push_back(*f);
      else str_append(problems, "; ", describe(f.status()));
    }
    for (const auto& p : resp.passes())
      if (p.stage() != "backend") str_append(problems, "; pass '", p.name(), "' at stage '", p.stage(), "'");
    std::string got = str_cat("name '", resp.name(), "', API version ",
                              resp.has_api_version() ? std::to_string(resp.api_version()) : "none", ", ",
                              resp.formats_size(), " format(s), ", resp.passes_size(), " pass(es)", problems);
    bool pass = !resp.name().empty() && (settings_.name.empty() || resp.name() == settings_.name) &&
                resp.has_api_version() && resp.api_version() == settings_.api_version && problems.empty();
    add("handshake", pass, expected, got);
    return true;
  }

  void fingerprint() {
    std::vector<std::string> seen{fingerprint_};
    std::string got = str_cat("handshake '", fingerprint_, "'");
    for (int i = 0; i < 2; ++i) {
      v1::FingerprintRequest req;
      wire::to_proto(settings_.options, *req.mutable_options());
      v1::FingerprintResponse resp;
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
      grpc::Status s = stub_->Fingerprint(&ctx, req, &resp);
      seen.push_back(s.ok() ? resp.fingerprint() : str_cat("<failed: ", s.error_message(), ">"));
      str_append(got, ", call '", seen.back(), "'");
    }
    absl::StatusOr<std::shared_ptr<grpc::Channel>> other = connect_();
    if (other.ok()) {
      auto stub = v1::Backend::NewStub(*other);
      v1::HandshakeResponse resp;
      grpc::Status s = call_handshake(*stub, settings_.options, resp);
      seen.push_back(s.ok() ? resp.fingerprint() : str_cat("<failed: ", s.error_message(), ">"));
    } else {
      seen.push_back(str_cat("<no second process: ", describe(other.status()), ">"));
    }
    str_append(got, ", another process '", seen.back(), "'");
    bool same = std::all_of(seen.begin(), seen.end(), [&](const std::string& f) { return f == seen[0]; });
    add("fingerprint", same, "the same value from every call and process", got);
  }

  void emits() {
    for (const EmitFormat& f : formats_) {
      bool program = f.scope == EmitScope::Program;
      std::string name = str_cat(program ? "emit_program " : "emit ", f.name);
      std::string kind = f.binary ? "bytes" : "text";
      std::string expected = program ? str_cat("1 artifact(s) [program: ", kind, "]")
                                     : str_cat("2 artifact(s) [app: ", kind, "] [lib: ", kind, "]");
      if (blocked(f)) {
        skip(name, expected, str_cat("its toolchain is missing here: ", toolchain_.detail));
        continue;
      }
      absl::StatusOr<InvokeResult> r = emit(f, settings_.options);
      std::string got = describe(r);
      bool pass = r.ok() && !r->error && got == expected && r->finished;
      add(name, pass, expected, got);
      if (r.ok()) answers_[name] = digest(*r);
      if (pass) emitted_.insert(f.name);
    }
  }

  void unknown_format() {
    const std::string expected = "UNSUPPORTED, and it serves on";
    absl::StatusOr<InvokeResult> r =
        invoke(header(v1::InvokeHeader::EMIT, "ppy-conformance-no-such-format", program_, settings_.options),
               program_);
    bool refused = r.ok() && r->error && r->error->code() == v1::BackendError::UNSUPPORTED;
    bool serving = still_serving();
    add("unknown format", refused && serving, expected,
        str_cat(describe(r), serving ? ", and it serves on" : ", and it no longer serves"));
  }

  void wrong_scope() {
    const std::string expected = "UNSUPPORTED for a format asked through the other scope";
    std::string got;
    bool pass = true, any = false;
    for (const EmitFormat& f : formats_) {
      bool program = f.scope == EmitScope::Program;
      absl::StatusOr<InvokeResult> r = invoke(
          header(program ? v1::InvokeHeader::EMIT : v1::InvokeHeader::EMIT_PROGRAM, f.name, program_,
                 settings_.options),
          program_);
      any = true;
      pass = pass && r.ok() && r->error && r->error->code() == v1::BackendError::UNSUPPORTED;
      str_append(got, got.empty() ? "" : "; ", f.name, " through ", program ? "emit" : "emit_program", ": ",
                 describe(r));
    }
    if (!any) return skip("wrong scope", expected, "it declares no format");
    add("wrong scope", pass, expected, got);
  }

  void validate_refusal() {
    const std::string expected = "a VALIDATION refusal naming backend, what, capability and a location (or acceptance)";
    absl::StatusOr<std::unique_ptr<ir::Module>> kernel = ir::parse_module(kKernel);
    if (!kernel.ok()) return add("validate refusal", false, expected, describe(kernel.status()));
    std::vector<const ir::Module*> one{kernel->get()};
    absl::StatusOr<InvokeResult> r = invoke(header(v1::InvokeHeader::VALIDATE, "", one, settings_.options), one);
    if (r.ok() && !r->error && r->finished) return add("validate refusal", true, expected, "accepted the kernel");
    if (!r.ok() || !r->error || r->error->code() != v1::BackendError::VALIDATION)
      return add("validate refusal", false, expected, describe(r));
    const v1::BackendError& e = *r->error;
    bool located = e.has_location() && !e.location().file().empty() && e.location().line() > 0;
    std::string got = str_cat("backend '", e.backend(), "', what '", e.what(), "', capability '", e.capability(),
                              "', location ",
                              located ? str_cat(e.location().file(), ":", e.location().line(), ":",
                                                e.location().col())
                                      : "none");
    add("validate refusal", e.backend() == name_ && !e.what().empty() && !e.capability().empty() && located,
        expected, got);
  }

  void passes_keep_ir_valid() {
    const std::string expected = "2 module(s) back, each verifying";
    v1::InvokeHeader h = header(v1::InvokeHeader::VALIDATE, "", program_, settings_.options);
    h.set_validate(false);
    h.set_return_modules(true);
    absl::StatusOr<InvokeResult> r = invoke(std::move(h), program_);
    if (!r.ok() || r->error) return add("passes keep IR valid", false, expected, describe(r));
    std::string got = str_cat(r->modules.size(), " module(s) back");
    bool pass = r->modules.size() == 2;
    for (const auto& m : r->modules)
      if (absl::Status v = ir::verify_status(*m); !v.ok()) {
        pass = false;
        str_append(got, "; ", m->name(), ": ", describe(v));
      }
    add("passes keep IR valid", pass, expected, pass ? str_cat(got, ", each verifying") : got);
  }

  void build() {
    const std::string expected = "files with relative paths inside the folder, every listed output among them";
    if (!toolchain_.available) return skip("build", expected, str_cat("its toolchain is missing here: ", toolchain_.detail));
    absl::StatusOr<InvokeResult> r =
        invoke(header(v1::InvokeHeader::BUILD, "", program_, settings_.options), program_);
    if (r.ok() && r->error && r->error->code() == v1::BackendError::UNSUPPORTED)
      return skip("build", expected, str_cat("it does not build: ", describe(*r->error)));
    if (!r.ok() || r->error || !r->finished) return add("build", false, expected, describe(r));
    answers_["build"] = digest(*r);
    std::set<std::string> sent;
    std::string problems;
    for (const auto& f : r->files) {
      sent.insert(f.path);
      std::filesystem::path p(f.path);
      bool inside = !f.path.empty() && p.is_relative();
      for (const auto& part : p) inside = inside && part != "..";
      if (!inside) str_append(problems, "; '", f.path, "' is not inside the folder");
    }
    for (const auto& o : r->finished->outputs())
      if (!sent.count(o)) str_append(problems, "; output '", o, "' was not sent");
    add("build", problems.empty(), expected,
        str_cat(r->files.size(), " file(s), ", r->finished->outputs_size(), " output(s)", problems));
  }

  void determinism() {
    const std::string expected = "the same bytes for the same request, every format and build";
    if (answers_.empty()) return skip("determinism", expected, "nothing was emitted or built");
    std::string differs;
    for (const EmitFormat& f : formats_) {
      std::string name = str_cat(f.scope == EmitScope::Program ? "emit_program " : "emit ", f.name);
      auto it = answers_.find(name);
      if (it == answers_.end()) continue;
      absl::StatusOr<InvokeResult> again = emit(f, settings_.options);
      if (!again.ok() || digest(*again) != it->second) {
        str_append(differs, differs.empty() ? "" : ", ", name);
        emitted_.erase(f.name);
      }
    }
    if (auto it = answers_.find("build"); it != answers_.end()) {
      absl::StatusOr<InvokeResult> again =
          invoke(header(v1::InvokeHeader::BUILD, "", program_, settings_.options), program_);
      if (!again.ok() || digest(*again) != it->second) str_append(differs, differs.empty() ? "" : ", ", "build");
    }
    add("determinism", differs.empty(), expected,
        differs.empty() ? str_cat("the same, ", answers_.size(), " request(s) asked twice")
                        : str_cat("different bytes from ", differs));
  }

  /// A request the backend answers, the same each time: the first format it
  /// emitted well and deterministically, or validation.
  v1::InvokeHeader any_request() {
    for (const EmitFormat& f : formats_)
      if (emitted_.count(f.name))
        return header(f.scope == EmitScope::Program ? v1::InvokeHeader::EMIT_PROGRAM : v1::InvokeHeader::EMIT,
                      f.name, program_, settings_.options);
    return header(v1::InvokeHeader::VALIDATE, "", program_, settings_.options);
  }

  /// A call that ended by `cause` (its deadline, a cancellation) ended cleanly:
  /// a complete answer, or gRPC's `code`, and the server serves on.
  void ended_cleanly(std::string name, const absl::StatusOr<InvokeResult>& r, grpc::StatusCode code,
                     milliseconds took) {
    std::string expected = str_cat(grpc_code_name(code), " or a complete answer, within 10 s; it serves on");
    bool clean = false;
    std::string got;
    if (r.ok()) {
      clean = !r->error && r->finished;
      got = str_cat("answered: ", describe(r));
    } else {
      std::optional<InvokeFailure> f = invoke_failure_of(r.status());
      clean = f && f->kind == InvokeFailure::Kind::Transport && f->code == code;
      got = describe(r);
    }
    bool serving = still_serving();
    str_append(got, " after ", took.count(), " ms", serving ? "; it serves on" : "; it no longer serves");
    add(std::move(name), clean && serving && took < milliseconds(10'000), expected, got);
  }

  static std::string grpc_code_name(grpc::StatusCode code) {
    return code == grpc::StatusCode::DEADLINE_EXCEEDED ? "DEADLINE_EXCEEDED" : "CANCELLED";
  }

  void short_deadline() {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<InvokeResult> r = invoke(any_request(), program_, milliseconds(1));
    auto took = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
    ended_cleanly("short deadline", r, grpc::StatusCode::DEADLINE_EXCEEDED, took);
  }

  void cancellation() {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
    std::thread canceller([&] {
      std::this_thread::sleep_for(milliseconds(2));
      ctx.TryCancel();
    });
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<InvokeResult> r = ppy::invoke(*stub_, ctx, any_request(), program_);
    auto took = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
    canceller.join();
    ended_cleanly("cancellation", r, grpc::StatusCode::CANCELLED, took);
  }

  void concurrent_calls() {
    const std::string expected = str_cat(kConcurrentCalls, " sessions at once, each answering the same");
    std::vector<absl::StatusOr<InvokeResult>> results;
    results.reserve(kConcurrentCalls);
    for (int i = 0; i < kConcurrentCalls; ++i) results.emplace_back(absl::UnknownError("not run"));
    std::vector<std::thread> threads;
    for (int i = 0; i < kConcurrentCalls; ++i)
      threads.emplace_back([&, i] { results[i] = invoke(any_request(), program_); });
    for (auto& t : threads) t.join();
    int agreed = 0;
    std::string first, problem;
    for (auto& r : results) {
      if (!r.ok() || r->error || !r->finished) {
        if (problem.empty()) problem = describe(r);
        continue;
      }
      std::string d = digest(*r);
      if (first.empty()) first = d;
      if (d == first) ++agreed;
      else if (problem.empty()) problem = "two answers differ";
    }
    add("concurrent calls", agreed == kConcurrentCalls, expected,
        str_cat(agreed, " of ", kConcurrentCalls, " agreed", problem.empty() ? "" : "; ", problem));
  }

  void missing_toolchain() {
    const std::string expected = "toolchain unavailable, and a format needing it refused as TOOLCHAIN (E1801)";
    if (!settings_.missing_toolchain)
      return skip("missing toolchain", expected, "no table that makes it missing was given");
    const Options& options = *settings_.missing_toolchain;
    v1::HandshakeResponse resp;
    grpc::Status s = call_handshake(*stub_, options, resp);
    if (!s.ok()) return add("missing toolchain", false, expected, str_cat("the handshake failed: ", s.error_message()));
    std::string got = resp.toolchain().available() ? "toolchain available"
                                                   : str_cat("toolchain unavailable ('", resp.toolchain().detail(), "')");
    const EmitFormat* needs = nullptr;
    for (const EmitFormat& f : formats_)
      if (f.requires_toolchain) {
        needs = &f;
        break;
      }
    absl::StatusOr<InvokeResult> r =
        needs ? emit(*needs, options) : invoke(header(v1::InvokeHeader::BUILD, "", program_, options), program_);
    str_append(got, ", ", needs ? str_cat("emit ", needs->name) : std::string("build"), ": ", describe(r));
    bool refused = r.ok() && r->error && r->error->code() == v1::BackendError::TOOLCHAIN;
    add("missing toolchain", !resp.toolchain().available() && refused, expected, got);
  }

  const Connect& connect_;
  const Settings& settings_;
  std::vector<Check> checks_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Backend::Stub> stub_;
  std::vector<std::unique_ptr<ir::Module>> modules_;
  std::vector<const ir::Module*> program_;
  std::string name_, fingerprint_;
  ToolchainStatus toolchain_;
  std::vector<EmitFormat> formats_;
  std::map<std::string, std::string> answers_;  // request -> digest of its first answer
  std::set<std::string> emitted_;  // formats that emitted as declared, the same twice
};

}  // namespace

std::string Check::line() const {
  const char* tag = outcome == Outcome::Pass ? "ok  " : outcome == Outcome::Fail ? "FAIL" : "skip";
  return str_cat(tag, " ", name, ": expected ", expected, "; got ", got);
}

std::vector<Check> run_conformance(const Connect& connect, const Settings& settings) {
  return Runner(connect, settings).run();
}

std::vector<Check> run_conformance_in_process(BackendFactory factory, const Settings& settings) {
  std::vector<std::unique_ptr<InProcessBackend>> servers;
  Connect connect = [&]() -> absl::StatusOr<std::shared_ptr<grpc::Channel>> {
    servers.push_back(serve_in_process(factory));
    if (!servers.back()->channel) return absl::UnavailableError("the in-process server did not start");
    return servers.back()->channel;
  };
  return run_conformance(connect, settings);
}

bool all_passed(const std::vector<Check>& checks) {
  return std::none_of(checks.begin(), checks.end(), [](const Check& c) { return c.failed(); });
}

}  // namespace ppy::conformance
