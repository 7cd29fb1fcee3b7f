#include "ppy/backend/plugin_conformance.h"

#include <chrono>

#include "ppy/backend/plugin_service.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/v1/plugin.grpc.pb.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/str_cat.h"
#include "sample_program.h"

namespace ppy::conformance {
namespace {

namespace v1 = ::ppy::backend::v1;
using IrProto = ::ppy::ir::v1::Module;
using std::chrono::milliseconds;

/// The sample program each pass runs over: `app` calls `lib`'s function
/// through a declaration, as the frontend lowers `from lib import f`
/// (sample_program.h, the program a backend's checks build too).
constexpr const char* kSample[] = {samples::kApp, samples::kLib};

constexpr milliseconds kCallDeadline{60'000};

class PluginRunner {
 public:
  PluginRunner(const Connect& connect, const Settings& settings) : connect_(connect), settings_(settings) {
    wire::to_proto(settings.options, options_);
  }

  std::vector<Check> run() {
    absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = connect_();
    if (!channel.ok()) {
      fail("handshake", "a plugin that starts and answers", std::string(channel.status().message()));
      return std::move(checks_);
    }
    stub_ = v1::Plugin::NewStub(*channel);
    v1::PluginHandshakeResponse hello;
    if (!handshake(*stub_, hello)) return std::move(checks_);
    fingerprint(hello);
    for (const v1::PassInfo& p : hello.passes()) pass(p);
    unknown_pass();
    short_deadline();
    return std::move(checks_);
  }

 private:
  void add(std::string name, bool ok, std::string expected, std::string got) {
    checks_.push_back(
        {std::move(name), ok ? Check::Outcome::Pass : Check::Outcome::Fail, std::move(expected), std::move(got)});
  }
  void fail(std::string name, std::string expected, std::string got) {
    add(std::move(name), false, std::move(expected), std::move(got));
  }

  bool call_handshake(v1::Plugin::Stub& stub, v1::PluginHandshakeResponse& out, std::string& why) {
    v1::PluginHandshakeRequest req;
    req.add_api_versions(settings_.api_version);
    *req.mutable_options() = options_;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
    grpc::Status s = stub.Handshake(&ctx, req, &out);
    if (!s.ok()) why = str_cat("status ", static_cast<int>(s.error_code()), ": ", s.error_message());
    return s.ok();
  }

  bool handshake(v1::Plugin::Stub& stub, v1::PluginHandshakeResponse& hello) {
    const std::string expected =
        str_cat(settings_.name.empty() ? "a name" : str_cat("name '", settings_.name, "'"), ", api_version ",
                settings_.api_version, ", a distribution, passes at plugin stages");
    std::string why;
    if (!call_handshake(stub, hello, why)) {
      fail("handshake", expected, why);
      return false;
    }
    std::string got = str_cat("name '", hello.name(), "', api_version ",
                              hello.has_api_version() ? std::to_string(hello.api_version()) : std::string("none"),
                              ", distribution '", hello.distribution(), " ", hello.distribution_version(), "'");
    bool ok = !hello.name().empty() && (settings_.name.empty() || hello.name() == settings_.name) &&
              hello.has_api_version() && hello.api_version() == settings_.api_version &&
              !hello.distribution().empty() && !hello.distribution_version().empty();
    for (const v1::PassInfo& p : hello.passes()) {
      std::optional<ir::Stage> stage = ir::parse_stage(p.stage());
      str_append(got, ", pass '", p.name(), "' at '", p.stage(), "'");
      ok = ok && stage && *stage != ir::Stage::Backend && !p.name().empty();
    }
    add("handshake", ok, expected, got);
    return ok;
  }

  void fingerprint(const v1::PluginHandshakeResponse& first) {
    absl::StatusOr<std::shared_ptr<grpc::Channel>> other = connect_();
    v1::PluginHandshakeResponse again;
    std::string why = other.ok() ? "" : std::string(other.status().message());
    if (other.ok()) {
      auto stub = v1::Plugin::NewStub(*other);
      call_handshake(*stub, again, why);
    }
    if (!why.empty()) return fail("fingerprint", "the same fingerprint from a second process", why);
    add("fingerprint", again.fingerprint() == first.fingerprint(),
        str_cat("'", first.fingerprint(), "' from a second process"), str_cat("'", again.fingerprint(), "'"));
  }

  /// One RunPass; `bytes` gets the answered module's bytes (empty: unchanged).
  grpc::Status run_pass(const v1::PassInfo& p, const IrProto& module, v1::RunPassResponse& out,
                        milliseconds deadline = kCallDeadline) {
    v1::RunPassRequest req;
    req.set_pass(p.name());
    req.set_stage(p.stage());
    req.set_opt_level(2);
    *req.mutable_options() = options_;
    *req.mutable_module() = module;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadline);
    return stub_->RunPass(&ctx, req, &out);
  }

  void pass(const v1::PassInfo& p) {
    const std::string name = str_cat("pass ", p.name());
    const std::string expected = "each sample module answered, decoding and verifying";
    std::vector<std::string> first_answers;
    bool same = true;
    for (const char* text : kSample) {
      absl::StatusOr<std::unique_ptr<ir::Module>> m = ir::parse_module(text);
      if (!m.ok())
        return fail(name, expected, str_cat("the sample did not parse: ", std::string(m.status().message())));
      IrProto proto;
      ir::to_proto(**m, proto);
      v1::RunPassResponse resp;
      grpc::Status s = run_pass(p, proto, resp);
      if (!s.ok())
        return fail(name, expected, str_cat("status ", static_cast<int>(s.error_code()), ": ", s.error_message()));
      if (resp.has_error()) return fail(name, expected, str_cat("the pass failed: ", resp.error().message()));
      if (resp.changed()) {
        absl::StatusOr<std::unique_ptr<ir::Module>> back = ir::from_proto(resp.module());
        if (!back.ok())
          return fail(name, expected, str_cat("a module that does not decode: ", std::string(back.status().message())));
        if (absl::Status v = ir::verify_status(**back); !v.ok())
          return fail(name, expected,
                      str_cat("module '", (*m)->name(), "' no longer verifies: ", std::string(v.message())));
      }
      first_answers.push_back(resp.SerializeAsString());
      v1::RunPassResponse again;
      if (run_pass(p, proto, again).ok() && again.SerializeAsString() != first_answers.back()) same = false;
    }
    add(name, true, expected, str_cat(first_answers.size(), " modules answered"));
    add(str_cat("determinism ", p.name()), same, "the same answer to the same module",
        same ? "the same" : "different bytes");
  }

  void unknown_pass() {
    v1::PassInfo p;
    p.set_name("ppy-conformance-no-such-pass");
    p.set_stage("after-optimization");
    v1::RunPassResponse resp;
    grpc::Status s = run_pass(p, IrProto(), resp);
    v1::PluginHandshakeResponse hello;
    std::string why;
    bool serving = call_handshake(*stub_, hello, why);
    add("unknown pass", s.error_code() == grpc::StatusCode::INVALID_ARGUMENT && serving,
        "INVALID_ARGUMENT, then a handshake answered",
        str_cat("status ", static_cast<int>(s.error_code()), serving ? ", serving" : str_cat(", then ", why)));
  }

  void short_deadline() {
    v1::PluginHandshakeRequest req;
    v1::PluginHandshakeResponse resp;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + milliseconds(1));
    grpc::Status s = stub_->Handshake(&ctx, req, &resp);
    v1::PluginHandshakeResponse hello;
    std::string why;
    bool serving = call_handshake(*stub_, hello, why);
    add("short deadline", serving, "the call ends (answered or DEADLINE_EXCEEDED) and the plugin serves on",
        str_cat("status ", static_cast<int>(s.error_code()), serving ? ", serving" : str_cat(", then ", why)));
  }

  const Connect& connect_;
  const Settings& settings_;
  v1::ConfigTable options_;
  std::unique_ptr<v1::Plugin::Stub> stub_;
  std::vector<Check> checks_;
};

}  // namespace

std::vector<Check> run_plugin_conformance(const Connect& connect, const Settings& settings) {
  return PluginRunner(connect, settings).run();
}

std::vector<Check> run_plugin_conformance_in_process(PluginFactory factory, const Settings& settings) {
  struct Served {
    std::unique_ptr<PluginService> service;
    std::unique_ptr<grpc::Server> server;
    ~Served() {
      if (server) {
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
        server->Wait();
      }
    }
  };
  std::vector<std::unique_ptr<Served>> servers;
  Connect connect = [&]() -> absl::StatusOr<std::shared_ptr<grpc::Channel>> {
    auto s = std::make_unique<Served>();
    s->service = std::make_unique<PluginService>(factory, nullptr);
    grpc::ServerBuilder builder;
    configure_server_builder(builder, 4);
    builder.RegisterService(s->service.get());
    s->server = builder.BuildAndStart();
    if (!s->server) return absl::UnavailableError("the in-process server did not start");
    std::shared_ptr<grpc::Channel> channel = s->server->InProcessChannel(backend_channel_arguments());
    servers.push_back(std::move(s));
    return channel;
  };
  return run_plugin_conformance(connect, settings);
}

}  // namespace ppy::conformance
