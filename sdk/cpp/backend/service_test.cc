// The Backend service hosted in-process (service.cc, serve.cc's serve_in_process,
// client.cc): the protocol end to end, without a process in between.
#include "ppy/ir/testing.h"
#include "ppy/backend/service.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backend/api_version.h"
#include "ppy/backend/client.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/core_ops.h"
#include "ppy/ir/proto.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace v1 = ::ppy::backend::v1;

/// How many functions MarkPass has run over, in this process.
std::atomic<int> mark_runs{0};

class MarkPass final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "echo-mark"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    ++mark_runs;
    f.attributes().set("echo.mark", true);
    return true;
  }
};

class BreakPass final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "echo-break"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    ir::Block* b = f.body().entry();
    b->remove(b->operations().size() - 1);
    return true;
  }
};

/// A backend whose behaviour the options choose, to reach every path of a session.
class Echo : public Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "echo"; }
  std::optional<int> api_version() const override { return 1; }
  Distribution distribution() const override { return {"ppy-echo", "2.0"}; }
  std::string fingerprint() const override { return str_cat("echo:", option("v", "0")); }
  std::vector<EmitFormat> emit_formats() const override {
    return {EmitFormat{.name = "text", .suffix = ".txt", .description = "names"},
            EmitFormat{.name = "blob", .suffix = ".bin", .binary = true, .scope = EmitScope::Program},
            EmitFormat{.name = "liar", .suffix = ".l"},
            EmitFormat{.name = "src", .suffix = ".src", .requires_toolchain = false}};
  }
  void register_passes(BackendPassRegistrar& r) const override {
    r.add<MarkPass>();
    if (option("break") == "true") r.add<BreakPass>();
  }
  absl::Status validate(const ir::Module& m, const BackendContext&) const override {
    if (option("no-mul") != "true") return absl::OkStatus();
    for (const auto& f : m.functions())
      for (const auto& op : f->body().entry()->operations())
        if (ir::core_op(*op) == ir::CoreOp::Mul)
          return validation_error({"echo", str_cat("core.mul in ", f->name()), "multiplication", op->loc()});
    return absl::OkStatus();
  }
  absl::StatusOr<Artifact> emit(const ir::Module& m, const EmitFormat& format,
                                BackendContext& ctx) const override {
    ctx.note(str_cat("emitted ", m.name()));
    if (format.name == "liar") return Artifact(Bytes{"oops"});
    // An E-code is the status's payload; words that look like one are only words.
    if (option("fail") == "coded") return coded_error("E1801", "echo-sdk vanished mid-emit");
    if (option("fail") == "forged") return absl::InternalError("E1801: echo-sdk vanished mid-emit");
    std::string out = str_cat(m.name(), " (", ctx.identity[m.name()], ") O", ctx.opt_level, " ",
                              ctx.target, ":");
    for (const auto& f : m.functions()) {
      str_append(out, " ", f->name());
      if (f->attributes().has("echo.mark")) out += "*";
    }
    return Artifact(out);
  }
  absl::StatusOr<Artifact> emit_program(ModuleList mods, const EmitFormat&,
                                        BackendContext&) const override {
    Bytes b;
    for (const ir::Module* m : mods) str_append(b.data, m->name(), '\0');
    return Artifact(b);
  }
  absl::StatusOr<BuildResult> build(ModuleList mods, const std::filesystem::path& out,
                                    BackendContext& ctx) const override {
    BuildResult r;
    std::filesystem::create_directories(out / "sub");
    std::string all;
    for (const ir::Module* m : mods) {
      std::ofstream(out / (m->name() + ".txt")) << "module " << m->name();
      r.outputs.push_back(out / (m->name() + ".txt"));
      all += m->name();
    }
    std::ofstream(out / "sub" / "all.txt") << all;
    r.outputs.push_back("sub/all.txt");  // relative works too
    ctx.note("built");
    return r;
  }
  ToolchainStatus toolchain_status() const override {
    if (option("toolchain") == "missing") return {false, "missing echo-sdk"};
    return {true, "echo sdk"};
  }
};

class Undeclared : public Backend {
 public:
  std::string_view name() const override { return "undeclared"; }
};

std::unique_ptr<ir::Module> module_named(std::string name, bool with_mul = false) {
  auto m = std::make_unique<ir::Module>(name);
  ir::Function* f = m->add_function(std::make_unique<ir::Function>(
      "f", std::vector<ir::Param>{{ir::Type::i64(), {}, "x"}}, std::vector<ir::Type>{ir::Type::i64()}));
  ir::Block* entry = f->create_entry_block();
  ir::Value* v = entry->append(ir::Operation::create("core.add", {entry->argument(0), entry->argument(0)},
                                                     {ir::Type::i64()}, {{"overflow", "wrap"}},
                                                     ir::Location("m.ppy", 1, 1)))
                     ->result();
  if (with_mul)
    v = entry->append(ir::Operation::create("core.mul", {v, v}, {ir::Type::i64()}, {{"overflow", "wrap"}},
                                            ir::Location("m.ppy", 7, 9)))
            ->result();
  entry->append(ir::Operation::create("core.ret", {v}, {}));
  return m;
}

class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_ = serve_in_process([](const Options& o) { return std::make_unique<Echo>(o); });
    ASSERT_TRUE(host_->server);
    stub_ = v1::Backend::NewStub(host_->channel);
  }

  v1::InvokeHeader header(v1::InvokeHeader::Action action, std::string format = {},
                          Options options = {}) {
    v1::InvokeHeader h;
    h.set_action(action);
    h.set_format(std::move(format));
    h.set_run_passes(true);
    h.set_validate(true);
    wire::to_proto(options, *h.mutable_options());
    h.mutable_context()->set_opt_level(3);
    h.mutable_context()->set_target("rngd");
    return h;
  }

  absl::StatusOr<InvokeResult> run(const v1::InvokeHeader& h,
                                   const std::vector<std::unique_ptr<ir::Module>>& mods) {
    std::vector<const ir::Module*> ptrs;
    for (const auto& m : mods) ptrs.push_back(m.get());
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    return invoke(*stub_, ctx, h, ptrs);
  }

  std::vector<std::unique_ptr<ir::Module>> two_modules(bool with_mul = false) {
    std::vector<std::unique_ptr<ir::Module>> mods;
    mods.push_back(module_named("a"));
    mods.push_back(module_named("b", with_mul));
    return mods;
  }

  std::unique_ptr<InProcessBackend> host_;
  std::unique_ptr<v1::Backend::Stub> stub_;
};

TEST_F(ServiceTest, HandshakeSaysWhoTheBackendIs) {
  v1::HandshakeRequest req;
  req.add_api_versions(kBackendApiVersion);
  wire::to_proto(Options{{"v", "7"}}, *req.mutable_options());
  v1::HandshakeResponse resp;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(stub_->Handshake(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.name(), "echo");
  ASSERT_TRUE(resp.has_api_version());
  EXPECT_EQ(resp.api_version(), 1);
  EXPECT_EQ(resp.distribution(), "ppy-echo");
  EXPECT_EQ(resp.distribution_version(), "2.0");
  ASSERT_EQ(resp.formats_size(), 4);
  EXPECT_EQ(resp.formats(0).name(), "text");
  EXPECT_EQ(resp.formats(0).suffix(), ".txt");
  EXPECT_EQ(resp.formats(0).scope(), v1::EmitFormat::SCOPE_MODULE);
  EXPECT_FALSE(resp.formats(0).binary());
  EXPECT_TRUE(resp.formats(0).requires_toolchain());
  EXPECT_EQ(resp.formats(1).scope(), v1::EmitFormat::SCOPE_PROGRAM);
  EXPECT_TRUE(resp.formats(1).binary());
  EXPECT_FALSE(resp.formats(3).requires_toolchain());
  ASSERT_EQ(resp.passes_size(), 1);
  EXPECT_EQ(resp.passes(0).name(), "echo-mark");
  EXPECT_EQ(resp.passes(0).stage(), "backend");
  EXPECT_EQ(resp.fingerprint(), "echo:7");
  EXPECT_TRUE(resp.toolchain().available());
  EXPECT_EQ(resp.toolchain().detail(), "echo sdk");
  EXPECT_EQ(resp.sdk(), kSdkVersion);
  EXPECT_TRUE(resp.awaits_steps());
}

TEST_F(ServiceTest, FingerprintAndToolchainFollowTheOptions) {
  for (std::string v : {"1", "2"}) {
    v1::FingerprintRequest req;
    wire::to_proto(Options{{"v", v}}, *req.mutable_options());
    v1::FingerprintResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->Fingerprint(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.fingerprint(), "echo:" + v);
  }
  v1::ToolchainStatusRequest req;
  wire::to_proto(Options{{"toolchain", "missing"}}, *req.mutable_options());
  v1::ToolchainStatusResponse resp;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->ToolchainStatus(&ctx, req, &resp).ok());
  EXPECT_FALSE(resp.toolchain().available());
  EXPECT_EQ(resp.toolchain().detail(), "missing echo-sdk");
}

TEST(Service, ABackendDeclaringNoVersionSaysSo) {
  auto host = serve_in_process([](const Options&) { return std::make_unique<Undeclared>(); });
  auto stub = v1::Backend::NewStub(host->channel);
  v1::HandshakeResponse resp;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub->Handshake(&ctx, v1::HandshakeRequest(), &resp).ok());
  EXPECT_EQ(resp.name(), "undeclared");
  EXPECT_FALSE(resp.has_api_version());
}

TEST(Service, AFactoryThatThrowsIsTheError) {
  auto host = serve_in_process([](const Options&) -> std::unique_ptr<Backend> {
    throw std::runtime_error("boom");
  });
  auto stub = v1::Backend::NewStub(host->channel);
  v1::HandshakeResponse resp;
  grpc::ClientContext ctx;
  grpc::Status s = stub->Handshake(&ctx, v1::HandshakeRequest(), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(s.error_message(), "the backend could not be created: boom");
}

TEST_F(ServiceTest, EmitRunsPassesThenValidatesThenEmitsEachModule) {
  v1::InvokeHeader h = header(v1::InvokeHeader::EMIT, "text");
  auto mods = two_modules();
  h.add_modules()->set_name("a");
  h.mutable_modules(0)->set_identity("id-a");
  h.add_modules()->set_name("b");
  h.mutable_modules(1)->set_identity("id-b");
  absl::StatusOr<InvokeResult> r = run(h, mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->error) << r->error->DebugString();
  ASSERT_EQ(r->artifacts.size(), 2u);
  EXPECT_EQ(r->artifacts[0].path, "a");
  EXPECT_EQ(r->artifacts[0].data, "a (id-a) O3 rngd: f*");  // the pass ran first
  EXPECT_FALSE(r->artifacts[0].binary);
  EXPECT_EQ(r->artifacts[1].data, "b (id-b) O3 rngd: f*");
  EXPECT_THAT(r->notes, ElementsAre("emitted a", "emitted b"));
  ASSERT_TRUE(r->finished);
  ASSERT_EQ(r->finished->passes_size(), 1);
  EXPECT_EQ(r->finished->passes(0).name(), "echo-mark");
  EXPECT_TRUE(r->finished->passes(0).changed());
}

// Asked to await its steps, a session begins each only once the driver has
// answered its Step: a driver holds the step before the backend can die in it.
TEST_F(ServiceTest, AnAwaitedStepBeginsOnlyOnceTheDriverHasSeenIt) {
  v1::InvokeHeader h = header(v1::InvokeHeader::EMIT, "text");
  h.set_report_steps(true);
  h.set_await_steps(true);
  h.add_modules()->set_name("a");
  auto m = module_named("a");
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub_->Invoke(&ctx);
  v1::InvokeRequest req;
  *req.mutable_header() = h;
  ASSERT_TRUE(stream->Write(req));
  ASSERT_TRUE(wire::send_module_chunks(*m, [&](std::string data, bool last) {
    v1::InvokeRequest chunk;
    chunk.mutable_module()->set_data(std::move(data));
    chunk.mutable_module()->set_last(last);
    return stream->Write(chunk);
  }));
  v1::InvokeResponse resp;
  const int runs = mark_runs;
  for (std::string step : {"passes", "validate", "emit"}) {
    SCOPED_TRACE(step);
    ASSERT_TRUE(stream->Read(&resp));
    ASSERT_TRUE(resp.has_step()) << resp.ShortDebugString();
    EXPECT_EQ(resp.step().name(), step);
    if (step == "passes") {
      // Unanswered, the passes wait.
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      EXPECT_EQ(mark_runs, runs);
    }
    if (step == "validate") EXPECT_GT(mark_runs, runs);
    v1::InvokeRequest seen;
    seen.mutable_step_seen()->set_name(step);
    ASSERT_TRUE(stream->Write(seen));
  }
  std::vector<v1::InvokeResponse::MsgCase> after;
  while (stream->Read(&resp)) after.push_back(resp.msg_case());
  EXPECT_THAT(after,
              ElementsAre(v1::InvokeResponse::kNote, v1::InvokeResponse::kArtifact, v1::InvokeResponse::kFinished));
  EXPECT_TRUE(stream->Finish().ok());

  // The SDK's client answers each Step itself, and keeps the last.
  std::vector<std::unique_ptr<ir::Module>> mods;
  mods.push_back(module_named("a"));
  absl::StatusOr<InvokeResult> r = run(h, mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished);
  EXPECT_EQ(r->step, "emit");
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(r->artifacts[0].data, "a () O3 rngd: f*");
}

// A spawned helper records its sessions' steps in the step file the driver
// made (records_steps): each in the slot its header names, under its token,
// and no Step travels. Without the file, the handshake offers nothing.
TEST(StepFile, ASessionStoresItsStepInItsSlotAndSendsNoStep) {
  const std::filesystem::path file =
      std::filesystem::path(::testing::TempDir()) / str_cat("ppy-steps-", ::getpid());
  std::ofstream(file) << std::string(wire::kStepSlots * sizeof(uint64_t), '\0');
  auto handshake = [](InProcessBackend& host) {
    grpc::ClientContext ctx;
    v1::HandshakeResponse resp;
    EXPECT_TRUE(v1::Backend::NewStub(host.channel)->Handshake(&ctx, v1::HandshakeRequest(), &resp).ok());
    return resp.records_steps();
  };
  ServiceOptions without;
  without.step_file = file.string() + ".absent";
  auto plain = serve_in_process([](const Options& o) { return std::make_unique<Echo>(o); }, without);
  EXPECT_FALSE(handshake(*plain));

  ServiceOptions with;
  with.step_file = file;
  auto host = serve_in_process([](const Options& o) { return std::make_unique<Echo>(o); }, with);
  ASSERT_TRUE(handshake(*host));
  v1::InvokeHeader h;
  h.set_action(v1::InvokeHeader::EMIT);
  h.set_format("text");
  h.set_validate(true);
  h.set_step_slot(3);
  h.set_step_token(77);
  auto m = module_named("a");
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stub = v1::Backend::NewStub(host->channel);
  std::vector<const ir::Module*> ptrs = {m.get()};
  absl::StatusOr<InvokeResult> r = invoke(*stub, ctx, h, ptrs);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->step, "");  // no Step was sent
  std::ifstream in(file, std::ios::binary);
  std::vector<uint64_t> words(wire::kStepSlots);
  in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * sizeof(uint64_t)));
  EXPECT_EQ(wire::step_of_word(words[2], 77), SessionStep::Emit);
  EXPECT_EQ(wire::step_of_word(words[2], 78), std::nullopt);  // another call's token reads nothing
  for (size_t i = 0; i < words.size(); ++i)
    if (i != 2) EXPECT_EQ(words[i], 0u) << "slot " << i + 1;
  host.reset();
  std::filesystem::remove(file);
}

TEST_F(ServiceTest, EmitProgramAnswersOneBinaryArtifact) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT_PROGRAM, "blob"), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished);
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(r->artifacts[0].path, "");
  EXPECT_TRUE(r->artifacts[0].binary);
  EXPECT_EQ(r->artifacts[0].data, std::string("a\0b\0", 4));
}

TEST_F(ServiceTest, AnArtifactOfManyChunksSaysItsSizeOnTheFirst) {
  // emit_program answers the modules' names: a 3 MiB name makes 4 chunks.
  const std::string name(3u << 20, 'n');
  auto m = module_named(name);
  v1::InvokeRequest req;
  *req.mutable_header() = header(v1::InvokeHeader::EMIT_PROGRAM, "blob");
  req.mutable_header()->add_modules()->set_name(name);
  grpc::ClientContext ctx;
  auto stream = stub_->Invoke(&ctx);
  ASSERT_TRUE(stream->Write(req));
  ASSERT_TRUE(wire::send_module_chunks(*m, [&](std::string data, bool last) {
    v1::InvokeRequest chunk;
    chunk.mutable_module()->set_data(std::move(data));
    chunk.mutable_module()->set_last(last);
    return stream->Write(chunk);
  }));
  stream->WritesDone();
  std::vector<uint64_t> sizes;
  std::string data;
  for (v1::InvokeResponse resp; stream->Read(&resp);) {
    if (!resp.has_artifact()) continue;
    sizes.push_back(resp.artifact().size_bytes());
    data += resp.artifact().data();
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(data, name + '\0');
  EXPECT_THAT(sizes, ElementsAre(name.size() + 1, 0, 0, 0));

  std::vector<std::unique_ptr<ir::Module>> mods;
  mods.push_back(module_named(name));
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT_PROGRAM, "blob"), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(r->artifacts[0].data, name + '\0');
}

TEST_F(ServiceTest, AScopeMismatchIsRefused) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT, "blob"), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::UNSUPPORTED);
  EXPECT_THAT(r->error->message(), HasSubstr("is program-scoped: ask for it through emit_program"));
}

TEST_F(ServiceTest, BuildStreamsItsFilesBack) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::BUILD), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished) << r->error->DebugString();
  ASSERT_EQ(r->files.size(), 3u);
  EXPECT_EQ(r->files[0].path, "a.txt");
  EXPECT_EQ(r->files[0].data, "module a");
  EXPECT_EQ(r->files[1].path, "b.txt");
  EXPECT_EQ(r->files[2].path, "sub/all.txt");
  EXPECT_EQ(r->files[2].data, "ab");
  EXPECT_THAT(r->finished->outputs(), ElementsAre("a.txt", "b.txt", "sub/all.txt"));
  EXPECT_THAT(r->notes, ElementsAre("built"));
}

TEST_F(ServiceTest, AValidationRefusalCarriesWhatCapabilityAndLocation) {
  auto mods = two_modules(/*with_mul=*/true);
  absl::StatusOr<InvokeResult> r =
      run(header(v1::InvokeHeader::BUILD, {}, Options{{"no-mul", true}}), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_FALSE(r->finished);
  EXPECT_TRUE(r->files.empty());  // a refused build writes nothing
  const v1::BackendError& e = *r->error;
  EXPECT_EQ(e.code(), v1::BackendError::VALIDATION);
  EXPECT_EQ(e.backend(), "echo");
  EXPECT_EQ(e.what(), "core.mul in f");
  EXPECT_EQ(e.capability(), "multiplication");
  EXPECT_EQ(e.module(), "b");
  ASSERT_TRUE(e.has_location());
  EXPECT_EQ(e.location().file(), "m.ppy");
  EXPECT_EQ(e.location().line(), 7u);
  EXPECT_EQ(e.location().col(), 9u);
  EXPECT_EQ(error_code(wire::status_of(e)), "E1802");
  EXPECT_EQ(std::string(wire::status_of(e).message()),
            "backend 'echo' cannot take core.mul in f at m.ppy:7:9 (needs multiplication)");
}

TEST_F(ServiceTest, APassThatBreaksTheIrIsNamed) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r =
      run(header(v1::InvokeHeader::EMIT, "text", Options{{"break", true}}), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::PASS_BROKE_IR);
  EXPECT_EQ(r->error->pass(), "echo-break");
  EXPECT_EQ(r->error->module(), "a");
  EXPECT_TRUE(r->artifacts.empty());
  absl::Status s = wire::status_of(*r->error);
  EXPECT_EQ(error_code(s), "E1904");
  EXPECT_THAT(std::string(s.message()), HasSubstr("backend pass 'echo-break' left the IR invalid"));
}

TEST_F(ServiceTest, TextForABinaryFormatOrBackIsATypeMismatch) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT, "liar"), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::TYPE_MISMATCH);
  EXPECT_EQ(r->error->message(), "backend 'echo' answered bytes for 'liar', a text format");
}

TEST_F(ServiceTest, UnknownFormatAndMissingToolchainAreRefused) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT, "nothing"), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::UNSUPPORTED);
  EXPECT_EQ(r->error->message(), "backend 'echo' does not emit 'nothing'");

  Options missing{{"toolchain", "missing"}};
  r = run(header(v1::InvokeHeader::BUILD, {}, missing), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::TOOLCHAIN);
  EXPECT_EQ(error_code(wire::status_of(*r->error)), "E1801");
  EXPECT_EQ(std::string(wire::status_of(*r->error).message()),
            "backend 'echo' is unavailable here: missing echo-sdk");

  // A format that needs no toolchain still emits without one.
  r = run(header(v1::InvokeHeader::EMIT, "src", missing), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->artifacts.size(), 2u);
}

TEST_F(ServiceTest, AnErrorCodeCrossesTheWireAsAFieldNotInTheText) {
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(header(v1::InvokeHeader::EMIT, "text", Options{{"fail", "coded"}}), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::TOOLCHAIN);
  EXPECT_EQ(r->error->message(), "echo-sdk vanished mid-emit");
  absl::Status s = wire::status_of(*r->error);
  EXPECT_EQ(error_code(s), "E1801") << s;
  EXPECT_EQ(std::string(s.message()), "echo-sdk vanished mid-emit");

  // A message that merely starts like a code carries none: the backend's words
  // arrive whole, and the code is the one its kind of failure has (E1905).
  r = run(header(v1::InvokeHeader::EMIT, "text", Options{{"fail", "forged"}}), mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->error);
  EXPECT_EQ(r->error->code(), v1::BackendError::INTERNAL);
  EXPECT_EQ(r->error->message(), "E1801: echo-sdk vanished mid-emit");
  s = wire::status_of(*r->error);
  EXPECT_EQ(error_code(s), "E1905") << s;
  EXPECT_EQ(std::string(s.message()), "E1801: echo-sdk vanished mid-emit");
}

TEST_F(ServiceTest, ModulesComeBackAfterThePassesWhenAsked) {
  v1::InvokeHeader h = header(v1::InvokeHeader::VALIDATE);
  h.set_return_modules(true);
  auto mods = two_modules();
  absl::StatusOr<InvokeResult> r = run(h, mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished);
  ASSERT_EQ(r->modules.size(), 2u);
  EXPECT_EQ(r->modules[1]->name(), "b");
  EXPECT_TRUE(r->modules[1]->function("f")->attributes().get("echo.mark")->as_bool());
}

TEST_F(ServiceTest, AModuleThatDoesNotDecodeIsBadModule) {
  grpc::ClientContext ctx;
  auto stream = stub_->Invoke(&ctx);
  v1::InvokeRequest req;
  *req.mutable_header() = header(v1::InvokeHeader::EMIT, "text");
  req.mutable_header()->add_modules()->set_name("junk");
  ASSERT_TRUE(stream->Write(req));
  v1::InvokeRequest chunk;
  chunk.mutable_module()->set_data("\xff\xff\xff not a module");
  chunk.mutable_module()->set_last(true);
  ASSERT_TRUE(stream->Write(chunk));
  stream->WritesDone();
  v1::InvokeResponse resp;
  ASSERT_TRUE(stream->Read(&resp));
  ASSERT_TRUE(resp.has_error());
  EXPECT_EQ(resp.error().code(), v1::BackendError::BAD_MODULE);
  EXPECT_THAT(resp.error().message(), HasSubstr("could not read module 'junk'"));
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(ServiceTest, AWholeModuleMustBeItsModulesOnlyChunk) {
  grpc::ClientContext ctx;
  auto stream = stub_->Invoke(&ctx);
  v1::InvokeRequest req;
  *req.mutable_header() = header(v1::InvokeHeader::EMIT, "text");
  req.mutable_header()->add_modules()->set_name("a");
  ASSERT_TRUE(stream->Write(req));
  v1::InvokeRequest bytes, whole;
  bytes.mutable_module()->set_data(ir::to_proto_bytes(*module_named("a")).substr(0, 3));
  whole.mutable_module()->set_last(true);
  ir::to_proto(*module_named("a"), *whole.mutable_module()->mutable_whole());
  ASSERT_TRUE(stream->Write(bytes));
  stream->Write(whole);
  stream->WritesDone();
  v1::InvokeResponse resp;
  EXPECT_FALSE(stream->Read(&resp));
  grpc::Status s = stream->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "a whole module must be the module's only chunk");
}

TEST_F(ServiceTest, ASessionMustStartWithItsHeader) {
  grpc::ClientContext ctx;
  auto stream = stub_->Invoke(&ctx);
  v1::InvokeRequest chunk;
  chunk.mutable_module()->set_last(true);
  ASSERT_TRUE(stream->Write(chunk));
  stream->WritesDone();
  v1::InvokeResponse resp;
  EXPECT_FALSE(stream->Read(&resp));
  grpc::Status s = stream->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "a session starts with its header");
}

TEST_F(ServiceTest, AModuleOver64MiBStreamsInChunks) {
  // Many ops, and one large string attribute to pass 64 MiB without building
  // millions of operations.
  auto big = std::make_unique<ir::Module>("big");
  for (int k = 0; k < 200; ++k) ir::testing::add_doubling_function(*big, str_cat("f", k), 500);
  std::string blob(65u << 20, 'z');
  blob[12345] = 'a';
  big->attributes().set("blob", blob);
  const size_t bytes = ir::to_proto_bytes(*big).size();
  ASSERT_GT(bytes, size_t{64} << 20);

  v1::InvokeHeader h = header(v1::InvokeHeader::EMIT, "text");
  h.set_return_modules(true);
  h.add_modules()->set_name("big");
  h.mutable_modules(0)->set_size_bytes(bytes);
  std::vector<std::unique_ptr<ir::Module>> mods;
  mods.push_back(std::move(big));
  absl::StatusOr<InvokeResult> r = run(h, mods);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->finished) << r->error->DebugString();
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_THAT(r->artifacts[0].data, HasSubstr(" f0* f1*"));
  EXPECT_THAT(r->artifacts[0].data, HasSubstr(" f199*"));
  ASSERT_EQ(r->modules.size(), 1u);
  EXPECT_EQ(r->modules[0]->attributes().get("blob")->as_string(), blob);
  EXPECT_EQ(r->modules[0]->function("f199")->body().entry()->operations().size(), 501u);
}

TEST_F(ServiceTest, ServesManySessionsAtOnce) {
  constexpr int kSessions = 8;
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kSessions; ++t)
    threads.emplace_back([&, t] {
      std::vector<std::unique_ptr<ir::Module>> mods;
      mods.push_back(module_named(str_cat("m", t)));
      // Three option tables: three instances serving side by side.
      absl::StatusOr<InvokeResult> r =
          run(header(v1::InvokeHeader::EMIT, "text", Options{{"v", str_cat(t % 3)}}), mods);
      if (r.ok() && r->finished && r->artifacts.size() == 1 &&
          r->artifacts[0].data == str_cat("m", t, " () O3 rngd: f*"))
        ++good;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), kSessions);
}

TEST_F(ServiceTest, AnInProcessHostRefusesShutdownByDefault) {
  grpc::ClientContext ctx;
  v1::ShutdownResponse resp;
  grpc::Status s = stub_->Shutdown(&ctx, v1::ShutdownRequest(), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

TEST(Service, ShutdownCallsTheHookWhenAllowed) {
  bool asked = false;
  ServiceOptions o;
  o.allow_shutdown = true;
  o.on_shutdown = [&] { asked = true; };
  auto host = serve_in_process([](const Options& opts) { return std::make_unique<Echo>(opts); }, o);
  auto stub = v1::Backend::NewStub(host->channel);
  grpc::ClientContext ctx;
  v1::ShutdownResponse resp;
  EXPECT_TRUE(stub->Shutdown(&ctx, v1::ShutdownRequest(), &resp).ok());
  EXPECT_TRUE(asked);
}

TEST(Service, InstancesAreKeptPerOptionsTable) {
  int made = 0;
  BackendService service([&](const Options& o) {
    ++made;
    return std::make_unique<Echo>(o);
  });
  auto a = service.instance(Options{{"v", "1"}});
  auto b = service.instance(Options{{"v", "1"}});
  auto c = service.instance(Options{{"v", "2"}});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_NE(a->get(), c->get());
  EXPECT_EQ(made, 2);
  EXPECT_EQ((*c)->fingerprint(), "echo:2");
}


// ---- The client against a backend that breaks the protocol -----------------------

/// Answers every session with the responses it was given, then ends the call.
class Scripted final : public v1::Backend::Service {
 public:
  explicit Scripted(std::vector<v1::InvokeResponse> script) : script_(std::move(script)) {}
  grpc::Status Invoke(grpc::ServerContext*,
                      grpc::ServerReaderWriter<v1::InvokeResponse, v1::InvokeRequest>* stream) override {
    v1::InvokeRequest req;
    while (stream->Read(&req)) {
    }
    for (const auto& r : script_) stream->Write(r);
    return grpc::Status::OK;
  }

 private:
  std::vector<v1::InvokeResponse> script_;
};

absl::Status invoke_scripted(std::vector<v1::InvokeResponse> script) {
  Scripted service(std::move(script));
  grpc::ServerBuilder builder;
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  auto stub = v1::Backend::NewStub(server->InProcessChannel(backend_channel_arguments()));
  auto m = module_named("a");
  const ir::Module* mods[] = {m.get()};
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::InvokeHeader h;
  h.set_action(v1::InvokeHeader::EMIT);
  absl::StatusOr<InvokeResult> r = invoke(*stub, ctx, h, mods);
  server->Shutdown();
  return r.status();
}

v1::InvokeResponse artifact(std::string module, bool last) {
  v1::InvokeResponse r;
  r.mutable_artifact()->set_module(std::move(module));
  r.mutable_artifact()->set_data("x");
  r.mutable_artifact()->set_last(last);
  return r;
}

v1::InvokeResponse finished() {
  v1::InvokeResponse r;
  r.mutable_finished();
  return r;
}

TEST(Client, RefusesABackendThatBreaksTheProtocol) {
  EXPECT_TRUE(invoke_scripted({artifact("a", true), finished()}).ok());
  EXPECT_EQ(std::string(invoke_scripted({artifact("a", true)}).message()),
            "the backend ended the session without a final message");
  EXPECT_EQ(std::string(invoke_scripted({artifact("a", false), artifact("b", true), finished()}).message()),
            "the backend interleaved two artifacts");
  EXPECT_EQ(std::string(invoke_scripted({artifact("a", false), finished()}).message()),
            "the backend ended a piece without its last chunk");
  EXPECT_EQ(std::string(invoke_scripted({finished(), artifact("a", true)}).message()),
            "the backend answered after its final message");
  EXPECT_EQ(std::string(invoke_scripted({v1::InvokeResponse()}).message()),
            "the backend sent an empty answer");
  v1::InvokeResponse whole_not_last;
  whole_not_last.mutable_module()->mutable_whole();
  EXPECT_EQ(std::string(invoke_scripted({whole_not_last, finished()}).message()),
            "a whole module must be the module's only chunk");
  v1::InvokeResponse cut;
  cut.mutable_module()->set_data("\x08");
  EXPECT_EQ(std::string(invoke_scripted({cut, finished()}).message()),
            "the backend ended a piece without its last chunk");
}

}  // namespace
}  // namespace ppy
