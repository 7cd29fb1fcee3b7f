// The session engine (session.cc) called directly, as the in-process host does:
// the order of its steps, what reaches the sink, and each refusal's kind.
#include "ppy/backend/session.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/testing.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class Mark final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "mark"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    f.attributes().set("mark", true);
    return true;
  }
};

class Break final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "break"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    ir::Block* b = f.body().entry();
    b->remove(b->operations().size() - 1);
    return true;
  }
};

/// A backend whose options choose which path a session takes.
class Probe : public Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "probe"; }
  std::optional<int> api_version() const override { return 1; }
  std::vector<EmitFormat> emit_formats() const override {
    return {EmitFormat{.name = "text", .suffix = ".txt"},
            EmitFormat{.name = "prog", .suffix = ".p", .binary = true, .scope = EmitScope::Program},
            EmitFormat{.name = "src", .suffix = ".s", .requires_toolchain = false}};
  }
  void register_passes(BackendPassRegistrar& r) const override {
    r.add<Mark>();
    if (option("break") == "true") r.add<Break>();
  }
  absl::Status validate(const ir::Module& m, const BackendContext&) const override {
    if (option("refuse") == m.name()) return validation_error({"probe", "everything", "patience", std::nullopt});
    if (option("throw") == "validate") throw std::runtime_error("validate threw");
    return absl::OkStatus();
  }
  absl::StatusOr<Artifact> emit(const ir::Module& m, const EmitFormat&, BackendContext& ctx) const override {
    ctx.note(str_cat("emit ", m.name()));
    if (option("lie") == "true") return Artifact(Bytes{"not text"});
    if (option("fail") == "true") return absl::InternalError("the vendor's compiler fell over");
    return Artifact(str_cat(m.name(), m.functions()[0]->attributes().has("mark") ? " marked" : ""));
  }
  absl::StatusOr<Artifact> emit_program(ModuleList mods, const EmitFormat&, BackendContext& ctx) const override {
    seen_scratch = ctx.scratch;
    scratch_was_empty = !ctx.scratch.empty() && fs::is_directory(ctx.scratch) && fs::is_empty(ctx.scratch);
    if (!ctx.scratch.empty()) std::ofstream(ctx.scratch / "linker-input.o") << "parts";
    return Artifact(Bytes{str_cat(mods.size())});
  }
  absl::StatusOr<BuildResult> build(ModuleList mods, const fs::path& out, BackendContext&) const override {
    seen_dir = out;
    fs::create_directories(out / "bin");
    std::ofstream(out / "z.txt") << "last";
    std::ofstream(out / "bin" / "run") << "#!/bin/sh\n";
    ::chmod((out / "bin" / "run").c_str(), 0755);
    if (option("escape") == "true") return BuildResult{{"../elsewhere"}};
    return BuildResult{{out / "bin" / "run", "z.txt"}};
  }
  ToolchainStatus toolchain_status() const override {
    return option("toolchain") == "missing" ? ToolchainStatus{false, "missing probe-sdk"} : ToolchainStatus{};
  }
  mutable fs::path seen_dir, seen_scratch;
  mutable bool scratch_was_empty = false;
};

/// Keeps everything a session answers, and the steps in order.
class Recorder final : public SessionSink {
 public:
  void step(SessionStep s) override { steps.push_back(std::string(step_name(s))); }
  absl::Status module(size_t index, const ir::Module& m) override {
    modules.push_back(ir::clone(m));
    return absl::OkStatus();
  }
  absl::Status artifact(std::string_view module, Artifact a) override {
    artifacts.emplace_back(std::string(module), std::move(a));
    return refuse_artifacts ? absl::CancelledError("gone") : absl::OkStatus();
  }
  absl::Status file(BuildFile f) override {
    files.push_back(std::move(f));
    return absl::OkStatus();
  }
  std::vector<std::string> steps;
  std::vector<std::unique_ptr<ir::Module>> modules;
  std::vector<std::pair<std::string, Artifact>> artifacts;
  std::vector<BuildFile> files;
  bool refuse_artifacts = false;
};

class SessionTest : public ::testing::Test {
 protected:
  absl::StatusOr<SessionResult> run(const SessionRequest& r, Options options = {}) {
    backend_ = std::make_unique<Probe>(std::move(options));
    SessionModules modules;
    read_ = false;
    return run_session(
        *backend_, r, context_, modules,
        [&](SessionModules& out) {
          read_ = true;
          for (auto& m : mods_) out.modules.push_back(m.get());  // borrowed: the passes work on copies
          return absl::OkStatus();
        },
        sink_);
  }
  static SessionRequest emit(std::string format = "text") {
    SessionRequest r;
    r.action = SessionAction::Emit;
    r.format = std::move(format);
    return r;
  }

  std::vector<std::unique_ptr<ir::Module>> mods_ = [] {
    std::vector<std::unique_ptr<ir::Module>> v;
    v.push_back(ir::testing::small_module("a"));
    v.push_back(ir::testing::small_module("b"));
    return v;
  }();
  std::unique_ptr<Probe> backend_;
  BackendContext context_;
  Recorder sink_;
  bool read_ = false;
};

TEST_F(SessionTest, EmitRunsThePassesOnCopiesThenValidatesThenEmitsEachModule) {
  auto r = run(emit());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(sink_.steps, ElementsAre("passes", "validate", "emit"));
  ASSERT_EQ(sink_.artifacts.size(), 2u);
  EXPECT_EQ(sink_.artifacts[0].first, "a");
  EXPECT_EQ(std::get<std::string>(sink_.artifacts[1].second), "b marked");
  ASSERT_EQ(r->passes.size(), 1u);
  EXPECT_EQ(r->passes[0].name, "mark");
  EXPECT_TRUE(r->passes[0].changed);
  EXPECT_FALSE(mods_[0]->functions()[0]->attributes().has("mark"));  // the caller's module is untouched
  EXPECT_THAT(context_.notes(), ElementsAre("emit a", "emit b"));
}

TEST_F(SessionTest, ModulesComeBackAfterThePassesWhenAsked) {
  SessionRequest r;
  r.return_modules = true;
  ASSERT_TRUE(run(r).ok());
  ASSERT_EQ(sink_.modules.size(), 2u);
  EXPECT_TRUE(sink_.modules[1]->functions()[0]->attributes().has("mark"));
  EXPECT_THAT(sink_.steps, ElementsAre("passes", "validate"));
  EXPECT_TRUE(sink_.artifacts.empty());
}

TEST_F(SessionTest, AnUnknownFormatOrTheWrongScopeIsRefusedBeforeAnyModuleIsRead) {
  auto r = run(emit("nope"));
  EXPECT_EQ(error_code(r.status()), "E1802");
  EXPECT_EQ(error_text(r.status()), "backend 'probe' does not emit 'nope'");
  EXPECT_EQ(session_error_of(r.status())->kind, SessionFailure::Unsupported);
  EXPECT_FALSE(read_);
  auto s = run(emit("prog"));
  EXPECT_EQ(session_error_of(s.status())->kind, SessionFailure::Unsupported);
  EXPECT_THAT(error_text(s.status()), HasSubstr("is program-scoped: ask for it through emit_program"));
  EXPECT_FALSE(read_);
}

TEST_F(SessionTest, AMissingToolchainIsRefusedUnlessTheFormatNeedsNone) {
  auto r = run(emit(), {{"toolchain", "missing"}});
  EXPECT_EQ(error_code(r.status()), "E1801");
  EXPECT_EQ(error_text(r.status()), "backend 'probe' is unavailable here: missing probe-sdk");
  EXPECT_FALSE(read_);
  EXPECT_TRUE(run(emit("src"), {{"toolchain", "missing"}}).ok());
  SessionRequest b;
  b.action = SessionAction::Build;
  EXPECT_EQ(session_error_of(run(b, {{"toolchain", "missing"}}).status())->kind, SessionFailure::Toolchain);
}

TEST_F(SessionTest, EachRefusalSaysItsKindAndModule) {
  auto v = run(emit(), {{"refuse", "b"}});
  EXPECT_EQ(error_code(v.status()), "E1802");
  EXPECT_EQ(session_error_of(v.status())->kind, SessionFailure::Validation);
  EXPECT_EQ(session_error_of(v.status())->module, "b");
  ASSERT_TRUE(validation_error_of(v.status()));  // the refusal's fields travel with it
  EXPECT_EQ(validation_error_of(v.status())->capability, "patience");
  EXPECT_TRUE(sink_.artifacts.empty());

  auto t = run(emit(), {{"lie", "true"}});
  EXPECT_EQ(session_error_of(t.status())->kind, SessionFailure::TypeMismatch);
  EXPECT_EQ(error_text(t.status()), "backend 'probe' answered bytes for 'text', a text format");

  auto p = run(emit(), {{"break", "true"}});
  EXPECT_EQ(error_code(p.status()), "E1904");
  EXPECT_EQ(session_error_of(p.status())->kind, SessionFailure::PassBrokeIr);
  EXPECT_EQ(session_error_of(p.status())->pass, "break");
  EXPECT_EQ(session_error_of(p.status())->module, "a");

  auto f = run(emit(), {{"fail", "true"}});
  EXPECT_EQ(error_code(f.status()), "E1905");
  EXPECT_EQ(session_error_of(f.status())->kind, SessionFailure::Internal);
  EXPECT_EQ(error_text(f.status()), "the vendor's compiler fell over");
}

TEST_F(SessionTest, ASinkThatFailsEndsTheSessionWithItsStatus) {
  sink_.refuse_artifacts = true;
  auto r = run(emit());
  EXPECT_TRUE(absl::IsCancelled(r.status())) << r.status();
  EXPECT_EQ(sink_.artifacts.size(), 1u);  // nothing after the refusal
  EXPECT_FALSE(session_error_of(r.status()));
}

TEST_F(SessionTest, BuildFilesComeBackAsBytesInPathOrderAndTheFolderGoes) {
  SessionRequest b;
  b.action = SessionAction::Build;
  auto r = run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(sink_.steps, ElementsAre("passes", "validate", "build"));
  ASSERT_EQ(sink_.files.size(), 2u);
  EXPECT_EQ(sink_.files[0].path, "bin/run");
  EXPECT_TRUE(sink_.files[0].executable);
  EXPECT_EQ(sink_.files[1].path, "z.txt");
  EXPECT_EQ(sink_.files[1].data, "last");
  EXPECT_FALSE(sink_.files[1].executable);
  EXPECT_THAT(r->outputs, ElementsAre("bin/run", "z.txt"));
  EXPECT_FALSE(fs::exists(backend_->seen_dir));

  auto escape = run(b, {{"escape", "true"}});
  EXPECT_EQ(session_error_of(escape.status())->kind, SessionFailure::Internal);
  EXPECT_THAT(error_text(escape.status()), HasSubstr("outside the folder it was given"));
}

TEST_F(SessionTest, EmitProgramGetsAFreshScratchFolderThatGoesAfterIt) {
  SessionRequest p = emit("prog");
  p.action = SessionAction::EmitProgram;
  auto r = run(p);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(backend_->seen_scratch.empty());
  EXPECT_TRUE(backend_->scratch_was_empty);
  EXPECT_FALSE(fs::exists(backend_->seen_scratch));  // removed, with what the emit left there
  EXPECT_TRUE(context_.scratch.empty());
  ASSERT_EQ(sink_.artifacts.size(), 1u);
  EXPECT_EQ(std::get<Bytes>(sink_.artifacts[0].second).data, "2");
}

TEST_F(SessionTest, AnExceptionLeavesTheStepItWasThrownInTold) {
  EXPECT_THROW(run(emit(), {{"throw", "validate"}}), std::runtime_error);
  EXPECT_THAT(sink_.steps, ElementsAre("passes", "validate"));
}

TEST(SessionWire, ARefusalCrossesTheWireWithItsKindModuleAndPass) {
  absl::Status s = session_error({SessionFailure::PassFailed, "m", "p"}, "backend pass 'p' failed");
  backend::v1::BackendError e = wire::error_to_proto(s, "probe");
  EXPECT_EQ(e.code(), backend::v1::BackendError::PASS_FAILED);
  EXPECT_EQ(e.module(), "m");
  EXPECT_EQ(e.pass(), "p");
  absl::Status back = wire::status_of(e);
  EXPECT_EQ(error_code(back), "E1904");
  EXPECT_EQ(error_text(back), "backend pass 'p' failed");
  ASSERT_TRUE(session_error_of(back));
  EXPECT_EQ(session_error_of(back)->kind, SessionFailure::PassFailed);
  EXPECT_EQ(session_error_of(back)->module, "m");
  EXPECT_EQ(session_error_of(back)->pass, "p");

  // A validation refusal straight from a backend: its fields and location cross too.
  absl::Status v = validation_error({"probe", "x", "y", ir::Location("f.ppy", 3, 4)});
  backend::v1::BackendError ve = wire::error_to_proto(v, "probe");
  EXPECT_EQ(ve.code(), backend::v1::BackendError::VALIDATION);
  absl::Status vb = wire::status_of(ve);
  EXPECT_EQ(session_error_of(vb)->kind, SessionFailure::Validation);
  EXPECT_EQ(error_text(vb), error_text(v));
  EXPECT_EQ(validation_error_of(vb)->location->str(), "f.ppy:3:4");
}

TEST(SessionWire, TheRequestAndContextCrossTheWireAsTheyWere) {
  SessionRequest r;
  r.action = SessionAction::EmitProgram;
  r.format = "prog";
  r.run_passes = false;
  r.return_modules = true;
  backend::v1::InvokeHeader h;
  wire::to_proto(r, h);
  SessionRequest back = wire::request_from_proto(h);
  EXPECT_EQ(back.action, SessionAction::EmitProgram);
  EXPECT_EQ(back.format, "prog");
  EXPECT_FALSE(back.run_passes);
  EXPECT_TRUE(back.validate);
  EXPECT_TRUE(back.return_modules);

  BackendContext ctx;
  ctx.root = "/p";
  ctx.config = "cfg";
  ctx.backend_config = {{"k", 1}};
  ctx.opt_level = 1;
  ctx.target = "t";
  ctx.plugin_fingerprints = {{"pl", "f"}};
  ctx.entry = "/p/a.ppy";
  ctx.entry_module = "a";
  ctx.entry_symbol = "a___main__";
  ctx.identity = {{"a", "id-a"}};
  auto a = ir::testing::small_module("a");
  std::vector<const ir::Module*> mods = {a.get()};
  wire::to_proto(ctx, mods, h);
  BackendContext got = wire::context_from_proto(h);
  EXPECT_EQ(got.root, ctx.root);
  EXPECT_EQ(got.config, ctx.config);
  EXPECT_EQ(got.backend_config, ctx.backend_config);
  EXPECT_EQ(got.opt_level, 1);
  EXPECT_EQ(got.target, "t");
  EXPECT_EQ(got.plugin_fingerprints, ctx.plugin_fingerprints);
  EXPECT_EQ(got.entry, ctx.entry);
  EXPECT_EQ(got.entry_module, "a");
  EXPECT_EQ(got.entry_symbol, "a___main__");
  EXPECT_EQ(got.identity, ctx.identity);
  ASSERT_EQ(h.modules_size(), 1);
  EXPECT_EQ(h.modules(0).name(), "a");
}

}  // namespace
}  // namespace ppy
