// The stablehlo backend on hand-written IR: what it refuses, and what its text
// computes, run by the evaluator in testing/ (and parsed by mlir-opt-19 where
// installed).
#include "ppy/backends/stablehlo_backend.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "evaluator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/backend/api_version.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"
#include "stablehlo.h"

namespace ppy::backends {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using stablehlo::testing::Program;
using stablehlo::testing::Scalar;

constexpr const char* kMarked = R"(ppyir 1
module @m
dialect core 1
dialect math 1

func @m_sumsq(%n: i64) -> i64 attrs {xla.jit = true} loc("m.ppy":3:5) {
^entry:
    %acc = core.alloca : ptr<i64, stack>
    %z = core.const 0 : i64
    core.store %z, %acc
    core.br ^head(%z)
^head(%i: i64):
    %c = core.cmp.lt %i, %n : bool
    core.cond_br %c, ^body, ^done
^body:
    %sq = core.mul %i, %i {overflow = "python"} : i64 loc("m.ppy":5:14)
    %old = core.load %acc : i64
    %new = core.add %old, %sq {overflow = "python"} : i64
    core.store %new, %acc
    %one = core.const 1 : i64
    %i2 = core.add %i, %one {overflow = "proven"} : i64
    core.br ^head(%i2)
^done:
    %r = core.load %acc : i64
    core.ret %r
}

func @m_fdiv(%a: i64, %b: i64) -> i64 attrs {xla.jit = true} loc("m.ppy":9:5) {
^entry:
    %z = core.const 0 : i64
    %ok = core.cmp.ne %b, %z : bool
    core.guard %ok {kind = "zero_division", message = "integer division or modulo by zero"}
    %q = core.div %a, %b {overflow = "python", rounding = "floor"} : i64
    %m = core.mod %a, %b {overflow = "python", rounding = "floor"} : i64
    %k = core.const 1000 : i64
    %s = core.mul %q, %k {overflow = "python"} : i64
    %r = core.add %s, %m {overflow = "python"} : i64
    core.ret %r
}

func @m_hyp(%a: f64, %b: f64) -> f64 attrs {xla.jit = true} loc("m.ppy":12:5) {
^entry:
    %a2 = core.call %a {callee = @m_sq} : f64
    %b2 = core.call %b {callee = @m_sq} : f64
    %s = core.add %a2, %b2 : f64
    %r = math.sqrt %s : f64
    %t = core.cmp.gt %r, %a : bool
    %half = core.const 0.5 : f64
    %x = core.mul %r, %half : f64
    %y = core.select %t, %x, %r : f64
    core.ret %y
}

func @m_sq(%x: f64) -> f64 attrs {xla.jit = true} loc("m.ppy":15:5) {
^entry:
    %r = core.mul %x, %x : f64
    %f = core.div %r, %x {rounding = "floor"} : f64
    %g = core.mod %r, %x {rounding = "floor"} : f64
    %h = core.add %f, %g : f64
    %l = math.log2 %h : f64
    %e = math.exp2 %l : f64
    %t = math.trunc %e : f64
    %d = core.sub %e, %t : f64
    %u = core.add %r, %d : f64
    core.ret %u
}

func @m_host() -> () loc("m.ppy":20:5) {
^entry:
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)";

std::unique_ptr<ir::Module> parse(const std::string& text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

std::string emit(const ir::Module& m) {
  auto b = create_stablehlo_backend({});
  BackendContext ctx;
  EXPECT_TRUE(b->validate(m, ctx).ok());
  auto a = b->emit(m, b->emit_formats()[0], ctx);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? std::get<std::string>(*a) : "";
}

TEST(Stablehlo, DescribesItself) {
  auto b = create_stablehlo_backend({});
  EXPECT_EQ(b->name(), "stablehlo");
  EXPECT_EQ(b->api_version(), kBackendApiVersion);
  EXPECT_EQ(b->fingerprint(), "stablehlo:printer-1");
  EXPECT_TRUE(b->toolchain_status().available);
  ASSERT_EQ(b->emit_formats().size(), 1u);
  EXPECT_EQ(b->emit_formats()[0].name, "stablehlo");
  EXPECT_EQ(b->emit_formats()[0].suffix, ".mlir");
  EXPECT_FALSE(b->emit_formats()[0].requires_toolchain);
}

TEST(Stablehlo, PrintsOnlyMarkedFunctionsWithLoopsAsWhileAndBlocksAsCase) {
  std::string text = emit(*parse(kMarked));
  EXPECT_THAT(text, HasSubstr("func.func @m_sumsq(%arg0: tensor<i64>) -> (tensor<i64>, tensor<i32>)"));
  EXPECT_THAT(text, HasSubstr("func.func @m_hyp(%arg0: tensor<f64>, %arg1: tensor<f64>) -> (tensor<f64>) {"));
  EXPECT_THAT(text, HasSubstr("\"stablehlo.while\""));
  EXPECT_THAT(text, HasSubstr("\"stablehlo.case\""));
  EXPECT_THAT(text, Not(HasSubstr("m_host")));
}

TEST(Stablehlo, TheTextComputesWhatTheIrMeans) {
  auto program = Program::parse(emit(*parse(kMarked)));
  ASSERT_TRUE(program.ok()) << program.status();
  auto call = [&](const std::string& f, std::vector<Scalar> args) {
    auto r = program->call(f, args);
    EXPECT_TRUE(r.ok()) << f << ": " << r.status();
    return r.ok() ? *r : std::vector<Scalar>{};
  };
  auto sumsq = call("m_sumsq", {Scalar::of_int(10)});
  ASSERT_EQ(sumsq.size(), 2u);
  EXPECT_EQ(sumsq[0].i, 285);
  EXPECT_EQ(sumsq[1].i, 0);
  // (MAX // 1) * 1000 overflows i64: status 1 (OverflowError).
  EXPECT_EQ(call("m_fdiv", {Scalar::of_int(INT64_MAX), Scalar::of_int(1)})[1].i, stablehlo::status_code("overflow"));
  for (auto [a, b] : std::vector<std::pair<int64_t, int64_t>>{{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {0, 5}}) {
    int64_t q = a / b - ((a % b != 0) && ((a % b < 0) != (b < 0)));
    int64_t m = a - q * b;
    auto r = call("m_fdiv", {Scalar::of_int(a), Scalar::of_int(b)});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].i, q * 1000 + m) << a << " // " << b;
    EXPECT_EQ(r[1].i, 0);
  }
  EXPECT_EQ(call("m_fdiv", {Scalar::of_int(1), Scalar::of_int(0)})[1].i, stablehlo::status_code("zero_division"));
  EXPECT_EQ(call("m_fdiv", {Scalar::of_int(INT64_MIN), Scalar::of_int(-1)})[1].i, stablehlo::status_code("overflow"));
  auto hyp = call("m_hyp", {Scalar::of_float(3.0), Scalar::of_float(4.0)});
  ASSERT_EQ(hyp.size(), 1u);
  EXPECT_NEAR(hyp[0].f, 2.5, 1e-12);
}

TEST(Stablehlo, RefusesWhatItCannotExpressByNameAndLocation) {
  struct Case {
    std::string from, to, says;
  };
  std::vector<Case> cases = {
      {"func @m_host() -> () loc", "func @m_host() -> () attrs {xla.jit = true} loc",
       "cannot take core.call_extern of ppy_print_newline in @m_host at m.ppy:20:5"},
      {"%b2 = core.call %b {callee = @m_sq} : f64", "%b2 = core.call %b {callee = @m_hyp2} : f64 loc(\"m.ppy\":13:9)",
       "a call to @m_hyp2, which is not @xla.jit in @m_hyp at m.ppy:13:9"},
      {"%r = core.mul %x, %x : f64", "%r = core.call %x, %x {callee = @m_hyp} : f64 loc(\"m.ppy\":16:9)",
       "a recursive call to @m_"},
      {"func @m_fdiv(%a: i64,", "func @m_fdiv(%a: buffer<i64>,", "parameter 'a' of type buffer<i64> of @m_fdiv"},
  };
  for (const Case& c : cases) {
    std::string text = kMarked;
    text.replace(text.find(c.from), c.from.size(), c.to);
    text += "\nfunc @m_hyp2(%x: f64) -> f64 {\n^entry:\n    core.ret %x\n}\n";
    auto m = ir::parse_module(text);
    ASSERT_TRUE(m.ok()) << m.status() << c.says;
    absl::Status s = create_stablehlo_backend({})->validate(**m, BackendContext{});
    EXPECT_EQ(error_code(s), "E1802") << c.says;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.says));
  }
}

TEST(Stablehlo, MlirOptParsesTheText) {
  if (!std::filesystem::exists("/usr/bin/mlir-opt-19")) GTEST_SKIP() << "mlir-opt-19 is not installed (mlir-19-tools)";
  auto file = std::filesystem::temp_directory_path() / str_cat("ppy-stablehlo-", getpid(), ".mlir");
  std::ofstream(file) << emit(*parse(kMarked));
  auto log = file.string() + ".log";
  int rc = std::system(str_cat("/usr/bin/mlir-opt-19 --allow-unregistered-dialect ", file.string(), " >", log, " 2>&1").c_str());
  std::ifstream in(log);
  std::string out((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(rc, 0) << out;
}

}  // namespace
}  // namespace ppy::backends
