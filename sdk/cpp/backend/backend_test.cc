// Unit tests of the Backend API (backend.cc) and its wire conversions (wire.cc).
#include "ppy/ir/testing.h"
#include "ppy/backend/backend.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backend/wire.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"

namespace ppy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace v1 = ::ppy::backend::v1;

/// A backend that overrides only its name: every default shows.
class Bare : public Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "bare"; }
};

using ir::testing::small_module;

class MarkPass final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "mark"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    f.attributes().set("marked", true);
    return true;
  }
};

/// Drops the terminator of every entry block: the IR no longer verifies.
class BreakPass final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "break-it"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext&) override {
    ir::Block* b = f.body().entry();
    b->remove(b->operations().size() - 1);
    return true;
  }
};

class FailPass final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "fail-it"; }
  absl::StatusOr<bool> run_on_function(ir::Function&, const ir::PassContext&) override {
    return absl::InternalError("out of paper");
  }
};

template <class... Passes>
class WithPasses : public Bare {
 public:
  void register_passes(BackendPassRegistrar& r) const override { (r.add<Passes>(), ...); }
};

TEST(Backend, BaseClassDeclaresNoApiVersionAndHasDefaults) {
  Bare b;
  EXPECT_EQ(b.api_version(), std::nullopt);
  EXPECT_EQ(b.fingerprint(), "");
  EXPECT_TRUE(b.emit_formats().empty());
  EXPECT_TRUE(b.distribution().name.empty());
  ToolchainStatus t = b.toolchain_status();
  EXPECT_TRUE(t.available);
  EXPECT_TRUE(describe_passes(b).empty());

  auto m = small_module();
  BackendContext ctx;
  EXPECT_TRUE(b.validate(*m, ctx).ok());
  EmitFormat fmt{.name = "x", .suffix = ".x"};
  absl::StatusOr<Artifact> a = b.emit(*m, fmt, ctx);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(a.status().message()), HasSubstr("backend 'bare' does not emit 'x'"));
  const ir::Module* mods[] = {m.get()};
  EXPECT_EQ(b.emit_program(mods, fmt, ctx).status().code(), absl::StatusCode::kUnimplemented);
  absl::StatusOr<BuildResult> r = b.build(mods, "/nonexistent", ctx);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(std::string(r.status().message()), "backend 'bare' does not build");
  EXPECT_EQ(ctx.opt_level, 2);
  EXPECT_EQ(ctx.registry, &ir::DialectRegistry::builtin());
}

TEST(EmitFormat, DefaultsAreModuleScopeTextNeedingTheToolchain) {
  EmitFormat f{.name = "toy", .suffix = ".toy"};
  EXPECT_EQ(f.scope, EmitScope::Module);
  EXPECT_FALSE(f.binary);
  EXPECT_TRUE(f.requires_toolchain);
  EXPECT_EQ(f.description, "");
}

TEST(Options, LookupRendersEveryTypeAsText) {
  Options o{{"sdk-version", "1.4"},
            {"jobs", 4},
            {"fast", true},
            {"scale", 2.5},
            {"list", ConfigValue::List{1, "a"}},
            {"t", ConfigValue::Table{{"k", 1}, {"odd key", "v"}}}};
  EXPECT_EQ(option(o, "sdk-version", "0"), "1.4");
  EXPECT_EQ(option(o, "missing", "0"), "0");
  EXPECT_EQ(option(o, "jobs"), "4");
  EXPECT_EQ(option(o, "fast"), "true");
  EXPECT_EQ(option(o, "scale"), "2.5");
  EXPECT_EQ(option(o, "list"), "[1, \"a\"]");
  EXPECT_EQ(option(o, "t"), "{k = 1, \"odd key\" = \"v\"}");
  Bare b(o);
  EXPECT_EQ(b.option("sdk-version", "0"), "1.4");
}

TEST(Options, WireRoundTripAndKeysTellTablesApart) {
  Options o{{"a", "1"}, {"b", 1}, {"c", ConfigValue::List{true, 2.0}}, {"d", ConfigValue::Table{{"e", "f"}}}};
  v1::ConfigTable t;
  wire::to_proto(o, t);
  EXPECT_EQ(wire::options_from_proto(t), o);
  EXPECT_EQ(wire::options_key(o), wire::options_key(wire::options_from_proto(t)));
  EXPECT_NE(wire::options_key(Options{{"a", "1"}}), wire::options_key(Options{{"a", 1}}));
  EXPECT_NE(wire::options_key(Options{{"a", "1"}}), wire::options_key(Options{}));
}

TEST(Registrar, ReachesOnlyTheBackendStage) {
  WithPasses<MarkPass> b;
  std::vector<PassInfo> passes = describe_passes(b);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].name, "mark");
  EXPECT_EQ(passes[0].stage, "backend");

  // The PassManager the SDK runs them through refuses a backend's pass anywhere else.
  ir::PassManager pm;
  absl::Status s = pm.add(ir::Stage::BeforeBackend, std::make_unique<MarkPass>(),
                          ir::PassOwner::Backend, "bare");
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_THAT(std::string(s.message()), HasSubstr("'before-backend' stage"));
}

TEST(RunBackendPasses, RunsAtTheBackendStageAndReportsWhatRan) {
  WithPasses<MarkPass> b;
  auto m = small_module();
  absl::StatusOr<std::vector<PassRun>> runs = run_backend_passes(b, *m, BackendContext{});
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].name, "mark");
  EXPECT_TRUE((*runs)[0].changed);
  EXPECT_TRUE(m->function("f")->attributes().get("marked")->as_bool());
}

TEST(RunBackendPasses, APassThatBreaksTheIrIsNamed) {
  WithPasses<MarkPass, BreakPass> b;
  auto m = small_module();
  PassFailure failure;
  absl::StatusOr<std::vector<PassRun>> runs = run_backend_passes(b, *m, BackendContext{}, &failure);
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(error_code(runs.status()), "E1904");
  EXPECT_THAT(std::string(runs.status().message()), HasSubstr("'break-it'"));
  EXPECT_EQ(failure.pass, "break-it");
  EXPECT_TRUE(failure.broke_ir);
}

TEST(RunBackendPasses, APassThatFailsIsNamed) {
  WithPasses<MarkPass, FailPass> b;
  auto m = small_module();
  PassFailure failure;
  absl::StatusOr<std::vector<PassRun>> runs = run_backend_passes(b, *m, BackendContext{}, &failure);
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(error_code(runs.status()), "E1904");
  EXPECT_THAT(std::string(runs.status().message()), HasSubstr("backend pass 'fail-it' of backend 'bare' failed: out of paper"));
  EXPECT_EQ(failure.pass, "fail-it");
  EXPECT_FALSE(failure.broke_ir);
}

TEST(ValidationError, MessageAndFieldsSurviveTheStatus) {
  BackendValidationError e{"toy", "gpu.thread_id in kern", "device kernels", ir::Location("k.ppy", 3, 5)};
  EXPECT_EQ(e.message(), "backend 'toy' cannot take gpu.thread_id in kern at k.ppy:3:5 (needs device kernels)");
  absl::Status s = validation_error(e);
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_EQ(error_text(s), e.message());
  std::optional<BackendValidationError> back = validation_error_of(s);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->backend, "toy");
  EXPECT_EQ(back->what, "gpu.thread_id in kern");
  EXPECT_EQ(back->capability, "device kernels");
  ASSERT_TRUE(back->location);
  EXPECT_EQ(back->location->str(), "k.ppy:3:5");
  EXPECT_FALSE(validation_error_of(absl::InternalError("x")));

  BackendValidationError no_loc{"toy", "f", "", std::nullopt};
  EXPECT_EQ(no_loc.message(), "backend 'toy' cannot take f");
  EXPECT_FALSE(validation_error_of(validation_error(no_loc))->location);
}

TEST(ValidationError, ABackendPhrasesWhatItLacks) {
  BackendValidationError e{"npu", "core.div of f64 in f", "f64", ir::Location("k.ppy", 3, 5), "(this card has no {} units)"};
  EXPECT_EQ(e.message(), "backend 'npu' cannot take core.div of f64 in f at k.ppy:3:5 (this card has no f64 units)");
  absl::Status s = validation_error(e);
  EXPECT_EQ(error_text(s), e.message());
  EXPECT_EQ(validation_error_of(s)->capability, "f64");
  // The words cross the protocol whole: the driver reads the backend's own message.
  absl::Status back = wire::status_of(wire::error_to_proto(s, "npu"));
  EXPECT_EQ(error_code(back), "E1802");
  EXPECT_EQ(std::string(back.message()), e.message());
  EXPECT_EQ(validation_error_of(back)->capability, "f64");
  BackendValidationError words_only{"npu", "f", "", std::nullopt, "(not on this target)"};
  EXPECT_EQ(words_only.message(), "backend 'npu' cannot take f (not on this target)");
}

TEST(Wire, EmitFormatRoundTripAndRefusals) {
  EmitFormat f{.name = "img", .suffix = ".img", .binary = true, .description = "d",
               .scope = EmitScope::Program, .requires_toolchain = false};
  v1::EmitFormat p = wire::to_proto(f);
  EXPECT_EQ(p.scope(), v1::EmitFormat::SCOPE_PROGRAM);
  EXPECT_TRUE(p.has_requires_toolchain());
  EXPECT_EQ(*wire::emit_format_from_proto(p), f);

  p.clear_requires_toolchain();  // absent means the contract's default: true
  EXPECT_TRUE(wire::emit_format_from_proto(p)->requires_toolchain);
  p.set_scope(v1::EmitFormat::SCOPE_UNSPECIFIED);
  EXPECT_THAT(std::string(wire::emit_format_from_proto(p).status().message()), HasSubstr("has no scope"));
  p.set_scope(v1::EmitFormat::SCOPE_MODULE);
  p.clear_name();
  EXPECT_FALSE(wire::emit_format_from_proto(p).ok());
}

TEST(Wire, ErrorsMapToTheContractsCodes) {
  EXPECT_EQ(wire::error_code_for(v1::BackendError::VALIDATION), "E1802");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::PASS_STAGE), "E1802");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::TYPE_MISMATCH), "E1802");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::UNSUPPORTED), "E1802");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::PASS_BROKE_IR), "E1904");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::TOOLCHAIN), "E1801");
  EXPECT_EQ(wire::error_code_for(v1::BackendError::INTERNAL), "E1905");

  v1::BackendError e;
  e.set_code(v1::BackendError::VALIDATION);
  e.set_backend("toy");
  e.set_what("gpu.barrier in k");
  e.set_capability("device kernels");
  e.mutable_location()->set_file("k.ppy");
  e.mutable_location()->set_line(2);
  e.mutable_location()->set_col(1);
  absl::Status s = wire::status_of(e);
  EXPECT_EQ(error_code(s), "E1802");
  EXPECT_EQ(std::string(s.message()),
            "backend 'toy' cannot take gpu.barrier in k at k.ppy:2:1 (needs device kernels)");
  EXPECT_EQ(validation_error_of(s)->location->str(), "k.ppy:2:1");

  v1::BackendError broke;
  broke.set_code(v1::BackendError::PASS_BROKE_IR);
  broke.set_message("backend pass 'x' left the IR invalid: ...");
  EXPECT_EQ(error_code(wire::status_of(broke)), "E1904");
  EXPECT_EQ(std::string(wire::status_of(broke).message()), "backend pass 'x' left the IR invalid: ...");
}

TEST(BackendContext, NotesAreKeptAndForwarded) {
  BackendContext ctx;
  std::vector<std::string> seen;
  ctx.on_note = [&](const std::string& s) { seen.push_back(s); };
  ctx.note("one");
  ctx.note("two");
  EXPECT_THAT(ctx.notes(), ElementsAre("one", "two"));
  EXPECT_THAT(seen, ElementsAre("one", "two"));
}

/// A distribution with a format whose name needs quoting in TOML.
class Shipped : public Bare {
 public:
  Distribution distribution() const override { return {"ppy-bare", "2.1"}; }
  std::vector<EmitFormat> emit_formats() const override {
    return {{.name = "bare"}, {.name = "bare+img", .binary = true, .scope = EmitScope::Program}};
  }
};

TEST(Manifest, DescribesTheClassAsOneDistribution) {
  absl::StatusOr<std::string> toml = manifest_toml(Shipped(), "ppy-backend-bare");
  ASSERT_TRUE(toml.ok()) << toml.status();
  EXPECT_THAT(*toml, HasSubstr("[distribution]\nname = \"ppy-bare\"\nversion = \"2.1\"\n\n"
                               "[backends.bare]\nexecutable = \"ppy-backend-bare\"\n\n"
                               "[backend-formats]\nbare = \"bare\"\n\"bare+img\" = \"bare\"\n"));
  EXPECT_EQ(toml->rfind("# ", 0), 0u);  // a comment says where it came from
}

TEST(Manifest, RefusesABackendWithoutDistribution) {
  absl::StatusOr<std::string> toml = manifest_toml(Bare(), "x");
  EXPECT_EQ(toml.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(toml.status().message(), HasSubstr("override distribution()"));
}

TEST(Manifest, RefusesANameTheDriverWouldNot) {
  class Spaced : public Shipped {
    std::string_view name() const override { return "two words"; }
  };
  EXPECT_THAT(manifest_toml(Spaced(), "x").status().message(), HasSubstr("is not a backend name"));
}

}  // namespace
}  // namespace ppy
