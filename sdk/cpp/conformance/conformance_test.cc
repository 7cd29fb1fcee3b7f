// The conformance checks against backends served in this process: a correct one
// passes every check, and each fault of a broken one fails the check meant for it.
#include "ppy/backend/conformance.h"

#include <atomic>
#include <fstream>
#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backend/conformance_gtest.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::conformance {
namespace {

using ::testing::HasSubstr;

/// A small backend that keeps the contract: a text format per module, a bytes
/// format per program, a build, a refusal of device kernels, and a toolchain
/// that option `sdk = "missing"` takes away.
class Good : public Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "good"; }
  std::optional<int> api_version() const override { return 1; }
  std::string fingerprint() const override { return "good:1"; }
  std::vector<EmitFormat> emit_formats() const override {
    return {{.name = "names", .suffix = ".txt"},
            {.name = "image", .suffix = ".img", .binary = true, .scope = EmitScope::Program}};
  }
  absl::Status validate(const ir::Module& m, const BackendContext&) const override {
    for (const auto& f : m.functions()) {
      const ir::Operation* gpu = nullptr;
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (!gpu && op.dialect() == "gpu") gpu = &op;
      });
      if (gpu) return validation_error({std::string(name()), gpu->name(), "device kernels", gpu->loc()});
    }
    return absl::OkStatus();
  }
  absl::StatusOr<Artifact> emit(const ir::Module& m, const EmitFormat& f, BackendContext& c) const override {
    if (f.name != "names") return Backend::emit(m, f, c);
    std::string out;
    for (const auto& fn : m.functions()) str_append(out, fn->name(), "\n");
    return Artifact(out);
  }
  absl::StatusOr<Artifact> emit_program(ModuleList ms, const EmitFormat& f, BackendContext& c) const override {
    if (f.name != "image") return Backend::emit_program(ms, f, c);
    std::string out = "IMG";
    for (const ir::Module* m : ms) str_append(out, m->name(), '\0');
    return Artifact(Bytes{out});
  }
  absl::StatusOr<BuildResult> build(ModuleList ms, const std::filesystem::path& dir,
                                    BackendContext&) const override {
    BuildResult r;
    for (const ir::Module* m : ms) {
      std::ofstream(dir / (m->name() + ".out")) << m->name();
      r.outputs.push_back(dir / (m->name() + ".out"));
    }
    return r;
  }
  ToolchainStatus toolchain_status() const override {
    if (option("sdk") == "missing") return {false, "missing good-sdk"};
    return {true, "good sdk"};
  }
};

std::atomic<int> counter{0};

/// Each fault meant for one check.
class Broken : public Good {
 public:
  using Good::Good;
  std::string_view name() const override { return "broken"; }
  /// Differs at every call.
  std::string fingerprint() const override { return str_cat("broken:", counter++); }
  /// `names` declared bytes, answered as text.
  std::vector<EmitFormat> emit_formats() const override {
    return {{.name = "names", .suffix = ".txt", .binary = true},
            {.name = "image", .suffix = ".img", .binary = true, .scope = EmitScope::Program}};
  }
  /// The image differs at every call.
  absl::StatusOr<Artifact> emit_program(ModuleList ms, const EmitFormat& f, BackendContext& c) const override {
    return Artifact(Bytes{str_cat("IMG", counter++)});
  }
  /// A refusal without capability or location.
  absl::Status validate(const ir::Module& m, const BackendContext& c) const override {
    absl::Status s = Good::validate(m, c);
    if (s.ok()) return s;
    return validation_error({"broken", "something", "", std::nullopt});
  }
  /// Lists an output it never wrote.
  absl::StatusOr<BuildResult> build(ModuleList ms, const std::filesystem::path& dir,
                                    BackendContext& c) const override {
    absl::StatusOr<BuildResult> r = Good::build(ms, dir, c);
    if (r.ok()) r->outputs.push_back(dir / "missing.out");
    return r;
  }
  /// Never says its toolchain is missing.
  ToolchainStatus toolchain_status() const override { return {true, "always"}; }
};

std::map<std::string, Check> by_name(const std::vector<Check>& checks) {
  std::map<std::string, Check> out;
  for (const Check& c : checks) out[c.name] = c;
  return out;
}

TEST(Conformance, ACorrectBackendPassesEveryCheck) {
  Settings settings;
  settings.name = "good";
  settings.missing_toolchain = Options{{"sdk", "missing"}};
  std::vector<Check> checks =
      run_conformance_in_process([](const Options& o) { return std::make_unique<Good>(o); }, settings);
  for (const Check& c : checks) EXPECT_EQ(c.outcome, Check::Outcome::Pass) << c.line();
  auto named = by_name(checks);
  for (const char* name : {"handshake", "fingerprint", "emit names", "emit_program image", "unknown format",
                           "wrong scope", "validate refusal", "passes keep IR valid", "build", "determinism",
                           "short deadline", "cancellation", "concurrent calls", "missing toolchain"})
    EXPECT_TRUE(named.count(name)) << name;
  EXPECT_TRUE(all_passed(checks));
}

/// A program-scoped backend: `build` links the modules it is given into one
/// program (what a backend writing a single artifact does) and writes it.
class Linking : public Good {
 public:
  using Good::Good;
  std::string_view name() const override { return "linking"; }
  absl::StatusOr<BuildResult> build(ModuleList ms, const std::filesystem::path& dir,
                                    BackendContext&) const override {
    PPY_ASSIGN_OR_RETURN(ir::LinkResult linked, ir::link_with_report(ms, "program"));
    if (!linked.unresolved.empty())
      return absl::FailedPreconditionError(str_cat("unresolved: @", linked.unresolved[0]));
    std::ofstream(dir / "program.ppyir") << ir::print_module(*linked.module);
    return BuildResult{{dir / "program.ppyir"}};
  }
};

TEST(Conformance, ABackendThatLinksItsModulesInBuildPasses) {
  Settings settings;
  settings.name = "linking";
  std::vector<Check> checks =
      run_conformance_in_process([](const Options& o) { return std::make_unique<Linking>(o); }, settings);
  for (const Check& c : checks) EXPECT_NE(c.outcome, Check::Outcome::Fail) << c.line();
  EXPECT_EQ(by_name(checks)["build"].outcome, Check::Outcome::Pass) << by_name(checks)["build"].line();
}

TEST(Conformance, GoogleTestAssertionPassesForACorrectBackend) {
  expect_conformance([](const Options& o) { return std::make_unique<Good>(o); });
}

TEST(Conformance, EachFaultFailsItsCheck) {
  Settings settings;
  settings.missing_toolchain = Options{{"sdk", "missing"}};
  std::vector<Check> checks =
      run_conformance_in_process([](const Options& o) { return std::make_unique<Broken>(o); }, settings);
  EXPECT_FALSE(all_passed(checks));
  auto named = by_name(checks);
  std::set<std::string> failed;
  for (const Check& c : checks)
    if (c.failed()) failed.insert(c.name);
  EXPECT_EQ(failed, (std::set<std::string>{"fingerprint", "emit names", "validate refusal", "build", "determinism",
                                           "missing toolchain"}));
  EXPECT_THAT(named["emit names"].got, HasSubstr("TYPE_MISMATCH"));
  EXPECT_THAT(named["validate refusal"].got, HasSubstr("location none"));
  EXPECT_THAT(named["build"].got, HasSubstr("output 'missing.out' was not sent"));
  EXPECT_THAT(named["determinism"].got, HasSubstr("emit_program image"));
  EXPECT_THAT(named["missing toolchain"].got, HasSubstr("toolchain available"));
  EXPECT_EQ(named["fingerprint"].line().rfind("FAIL fingerprint: expected ", 0), 0u);
}

TEST(Conformance, AWrongApiVersionFailsTheHandshake) {
  class Old : public Good {
    std::optional<int> api_version() const override { return 0; }
  };
  auto named = by_name(run_conformance_in_process([](const Options&) { return std::make_unique<Old>(); }));
  EXPECT_TRUE(named["handshake"].failed());
  EXPECT_THAT(named["handshake"].got, HasSubstr("API version 0"));
}

TEST(Conformance, NoConnectionFailsTheHandshakeAndStops) {
  std::vector<Check> checks = run_conformance(
      []() -> absl::StatusOr<std::shared_ptr<grpc::Channel>> { return absl::UnavailableError("gone"); }, {});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].line(), "FAIL handshake: expected a connection; got none: gone");
}

TEST(Conformance, WithoutAMissingToolchainTableThatCheckIsSkipped) {
  auto named = by_name(run_conformance_in_process([](const Options& o) { return std::make_unique<Good>(o); }));
  EXPECT_EQ(named["missing toolchain"].outcome, Check::Outcome::Skip);
}

}  // namespace
}  // namespace ppy::conformance
