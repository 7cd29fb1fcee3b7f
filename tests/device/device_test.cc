// The nvvm and stablehlo backends through the real `ppy`: every GPU program's
// kernels as PTX that ptxas accepts for sm_75 and sm_90 and NVVM IR that
// opt-19 verifies; refusals; `ppy build`; `ppy doctor`; and the @xla.jit
// functions as StableHLO that mlir-opt-19 parses and the evaluator runs to
// python3's answers.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "evaluator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ppy::stablehlo::testing::Program;
using ppy::stablehlo::testing::Scalar;

const std::string kSource = PPY_SOURCE_DIR;
const std::string kPpy = std::string(PPY_BINARY_DIR) + "/bin/ppy";
const std::string kPrograms = kSource + "/tests/device/programs";

struct Result {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class Device : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy-device-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Runs `command` in the test's folder (with a private cache) and returns what it wrote.
  Result sh(const std::string& command) {
    Result r;
    std::string line = "cd '" + dir_.string() + "' && PPY_CACHE_DIR='" + (dir_ / "cache").string() + "' " + command +
                       " >'" + (dir_ / ".stdout").string() + "' 2>'" + (dir_ / ".stderr").string() + "'";
    int rc = std::system(line.c_str());
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = slurp(dir_ / ".stdout");
    r.err = slurp(dir_ / ".stderr");
    return r;
  }

  fs::path dir_;
};

std::optional<std::string> tool(const std::vector<std::string>& candidates) {
  for (const auto& c : candidates)
    if (fs::exists(c)) return c;
  return std::nullopt;
}
std::optional<std::string> ptxas() {
  const char* home = std::getenv("CUDA_HOME");
  std::vector<std::string> c;
  if (home) c.push_back(std::string(home) + "/bin/ptxas");
  c.push_back("/usr/local/cuda/bin/ptxas");
  return tool(c);
}

/// Every GPU program: examples/gpu, the e2e fixture, and this folder's.
std::vector<fs::path> gpu_programs() {
  std::vector<fs::path> out;
  for (const auto& dir : {kSource + "/examples/gpu", kPrograms})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".ppy" && slurp(e.path()).find("@cuda.kernel") != std::string::npos)
        out.push_back(e.path());
  out.push_back(kSource + "/tests/e2e/fixtures/kernel.ppy");
  std::sort(out.begin(), out.end());
  return out;
}

/// The kernels a program defines: `@cuda.kernel` then `def NAME(`.
std::vector<std::string> kernels(const fs::path& program) {
  std::vector<std::string> names;
  std::istringstream in(slurp(program));
  bool marked = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("@cuda.kernel")) marked = true;
    else if (marked && line.starts_with("def ")) {
      names.push_back(line.substr(4, line.find('(') - 4));
      marked = false;
    }
  }
  return names;
}

TEST_F(Device, EveryKernelIsPtxThatPtxasAcceptsForSm75AndSm90) {
  auto assembler = ptxas();
  auto programs = gpu_programs();
  ASSERT_GE(programs.size(), 5u);
  for (const fs::path& p : programs) {
    std::string module = p.stem().string();
    for (std::string arch : {"sm_75", "sm_90"}) {
      fs::path ptx = dir_ / (module + "-" + arch + ".ptx");
      Result r = sh("PPY_CUDA_ARCH=" + arch + " " + kPpy + " emit ptx '" + p.string() + "' -o '" + ptx.string() + "'");
      ASSERT_EQ(r.status, 0) << p << " " << arch << ": " << r.err;
      std::string text = slurp(ptx);
      EXPECT_THAT(text, HasSubstr(".target " + arch)) << p;
      for (const std::string& k : kernels(p)) EXPECT_THAT(text, HasSubstr(".entry " + module + "_" + k + "(")) << p;
      if (!assembler) continue;
      Result a = sh(*assembler + " -arch=" + arch + " -o '" + ptx.string() + ".cubin' '" + ptx.string() + "'");
      EXPECT_EQ(a.status, 0) << p << " " << arch << ": " << a.out << a.err;
    }
  }
  if (!assembler) GTEST_SKIP() << "ptxas is not installed (no CUDA here): the PTX was written but not assembled";
}

TEST_F(Device, EveryKernelIsNvvmIrThatOpt19Verifies) {
  auto opt = tool({"/usr/bin/opt-19", "/usr/lib/llvm-19/bin/opt"});
  for (const fs::path& p : gpu_programs()) {
    fs::path ll = dir_ / (p.stem().string() + ".ll");
    Result r = sh(kPpy + " emit nvvm-ir '" + p.string() + "' -o '" + ll.string() + "'");
    ASSERT_EQ(r.status, 0) << p << ": " << r.err;
    std::string text = slurp(ll);
    for (const std::string& k : kernels(p))
      EXPECT_THAT(text, HasSubstr("define ptx_kernel void @" + p.stem().string() + "_" + k + "(")) << p;
    if (!opt) continue;
    Result v = sh(*opt + " -passes=verify -disable-output '" + ll.string() + "'");
    EXPECT_EQ(v.status, 0) << p << ": " << v.err;
  }
  if (!opt) GTEST_SKIP() << "opt-19 is not installed: the NVVM IR was not re-verified";
}

TEST_F(Device, ADeviceOpTheBackendCannotLowerIsE1802NamingItAndWhere) {
  Result r = sh(kPpy + " emit ptx '" + kPrograms + "/unlowerable.ppyir'");
  EXPECT_NE(r.status, 0);
  EXPECT_THAT(r.err, HasSubstr("E1802"));
  EXPECT_THAT(r.err, HasSubstr("gpu.subgroup_shuffle in @unlowerable_shuffle"));
  EXPECT_THAT(r.err, HasSubstr("unlowerable.ppy:7:9"));
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Device, BuildWritesPtxAndWherePtxasIsACubin) {
  Result r = sh(kPpy + " build '" + kSource + "/examples/gpu/saxpy.ppy' --backend nvvm -o out");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(slurp(dir_ / "out" / "saxpy.ptx"), HasSubstr(".entry saxpy_saxpy("));
  if (ptxas()) EXPECT_GT(fs::file_size(dir_ / "out" / "saxpy.cubin"), 0u);
  else EXPECT_FALSE(fs::exists(dir_ / "out" / "saxpy.cubin"));
}

TEST_F(Device, DoctorListsNvvmAndStablehloWithTheirToolchains) {
  Result r = sh(kPpy + " doctor");
  EXPECT_THAT(r.out, HasSubstr("nvvm       available, LLVM 19"));
  EXPECT_THAT(r.out, HasSubstr(ptxas() ? "ptxas " + *ptxas() : std::string("no ptxas")));
  EXPECT_THAT(r.out, HasSubstr("stablehlo  available, StableHLO text printer"));
  EXPECT_THAT(r.out, HasSubstr("emits nvvm-ir, ptx"));
  EXPECT_THAT(r.out, HasSubstr("emits stablehlo"));
}

// ---- stablehlo ------------------------------------------------------------

/// The calls python3 and the evaluator both make: function and arguments.
struct Call {
  std::string function;
  std::vector<Scalar> args;
};

std::string python_literal(const Scalar& s) {
  if (s.type == "i1") return s.i ? "True" : "False";
  if (s.is_float()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "float.fromhex('%a')", s.f);
    return buf;
  }
  return std::to_string(s.i);
}

std::vector<Call> calls() {
  auto i = [](int64_t v) { return Scalar::of_int(v); };
  auto f = [](double v) { return Scalar::of_float(v); };
  return {
      {"wave", {f(0.5), f(2.0)}},        {"wave", {f(-1.25), f(3.0)}},       {"wave", {f(2.0), f(-0.5)}},
      {"sum_squares", {i(0)}},           {"sum_squares", {i(10)}},           {"sum_squares", {i(1000)}},
      {"collatz_steps", {i(1)}},         {"collatz_steps", {i(27)}},         {"collatz_steps", {i(97)}},
      {"gcd", {i(48), i(18)}},           {"gcd", {i(17), i(5)}},             {"gcd", {i(0), i(9)}},
      {"piecewise", {f(-5.0)}},          {"piecewise", {f(0.5)}},            {"piecewise", {f(3.0)}},
      {"piecewise", {f(-1.0)}},          {"floor_ops", {i(7), i(2)}},        {"floor_ops", {i(-7), i(2)}},
      {"floor_ops", {i(7), i(-2)}},      {"floor_ops", {i(-7), i(-2)}},      {"floor_ops", {i(5), i(0)}},
      {"float_floor_ops", {f(7.5), f(2.0)}},  {"float_floor_ops", {f(-7.5), f(2.0)}},
      {"float_floor_ops", {f(7.5), f(-2.0)}}, {"float_floor_ops", {f(-0.0), f(3.0)}},
      {"float_floor_ops", {f(1.0), f(0.0)}},  {"is_prime", {i(1)}},       {"is_prime", {i(2)}},
      {"is_prime", {i(97)}},             {"is_prime", {i(91)}},              {"hypot2", {f(3.0), f(4.0)}},
      {"hypot2", {f(-1.5), f(2.5)}},     {"mixed_math", {f(0.5)}},           {"mixed_math", {f(2.0)}},
      {"mixed_math", {f(7.25)}},         {"floors", {f(2.5)}},               {"floors", {f(-2.5)}},
      {"floors", {f(0.999)}},            {"pair_count", {i(10)}},            {"pair_count", {i(30)}},
      {"product", {i(3), i(4)}},         {"product", {i(4294967296), i(4294967296)}},
      {"product", {i(-3037000499), i(3037000499)}},
  };
}

/// python3's answer per call, one line each: `int N`, `float HEX`, `bool B` or `raise NAME`.
std::vector<std::string> python_answers(const std::string& program, const std::vector<Call>& cs, const fs::path& dir) {
  std::string script =
      "import importlib.machinery, importlib.util, sys\n"
      "sys.path.insert(0, " + std::string("'") + kSource + "/tests/programs')\n"
      "loader = importlib.machinery.SourceFileLoader('xla_functions', '" + program + "')\n"
      "m = importlib.util.module_from_spec(importlib.util.spec_from_loader('xla_functions', loader))\n"
      "loader.exec_module(m)\n"
      "def show(f, *args):\n"
      "    try:\n"
      "        r = getattr(m, f)(*args)\n"
      "    except Exception as e:\n"
      "        return 'raise ' + type(e).__name__\n"
      "    if isinstance(r, bool): return 'bool ' + str(r)\n"
      "    if isinstance(r, int): return 'int ' + str(r) if -2**63 <= r < 2**63 else 'raise OverflowError'\n"
      "    return 'float ' + r.hex()\n";
  for (const Call& c : cs) {
    script += "print(show('" + c.function + "'";
    for (const Scalar& a : c.args) script += ", " + python_literal(a);
    script += "))\n";
  }
  std::ofstream(dir / "answers.py") << script;
  std::string cmd = "python3 '" + (dir / "answers.py").string() + "' > '" + (dir / "answers.txt").string() + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << slurp(dir / "answers.txt");
  std::vector<std::string> lines;
  std::istringstream in(slurp(dir / "answers.txt"));
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// The status codes of docs/backends.md, by the exception python3 raised.
int64_t status_of(const std::string& exception) {
  if (exception == "OverflowError") return 1;
  if (exception == "IndexError") return 2;
  if (exception == "ZeroDivisionError") return 3;
  if (exception == "ValueError") return 4;
  return -1;
}

TEST_F(Device, MarkedFunctionsAsStablehloComputePython3sAnswers) {
  std::string program = kPrograms + "/xla_functions.ppy";
  std::vector<Call> cs = calls();
  std::vector<std::string> expected = python_answers(program, cs, dir_);
  ASSERT_EQ(expected.size(), cs.size());
  auto mlir_opt = tool({"/usr/bin/mlir-opt-19", "/usr/lib/llvm-19/bin/mlir-opt"});
  // -O0 keeps the calls between marked functions and the locals' slots; -O2 inlines and promotes.
  for (std::string level : {"0", "2"}) {
    std::string out = "xla-O" + level + ".mlir";
    Result r = sh(kPpy + " emit stablehlo -O" + level + " '" + program + "' -o " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    std::string text = slurp(dir_ / out);
    EXPECT_THAT(text, Not(HasSubstr("not_marked")));
    EXPECT_THAT(text, Not(HasSubstr("@xla_functions_main")));
    EXPECT_THAT(text, HasSubstr("\"stablehlo.while\""));
    if (level == "0") EXPECT_THAT(text, HasSubstr("func.call @xla_functions_square"));
    auto parsed = Program::parse(text);
    ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
    std::set<std::string> functions;
    for (size_t k = 0; k < cs.size(); ++k) {
      const Call& c = cs[k];
      functions.insert(c.function);
      std::string what = "-O" + level + " " + c.function + " call #" + std::to_string(k) + " (python3: " + expected[k] + ")";
      auto got = parsed->call("xla_functions_" + c.function, c.args);
      ASSERT_TRUE(got.ok()) << what << ": " << got.status();
      ASSERT_FALSE(got->empty()) << what;
      int64_t status = got->size() == 2 ? got->back().i : 0;
      const Scalar& v = got->front();
      std::string kind = expected[k].substr(0, expected[k].find(' ')), value = expected[k].substr(kind.size() + 1);
      if (kind == "raise") {
        EXPECT_EQ(status, status_of(value)) << what;
        continue;
      }
      EXPECT_EQ(status, 0) << what;
      if (kind == "int") EXPECT_EQ(v.i, std::stoll(value)) << what;
      else if (kind == "bool") EXPECT_EQ(v.i != 0, value == "True") << what;
      else {
        double want = std::strtod(value.c_str(), nullptr);
        // log2/log10 are log(x)/log(b) in StableHLO: the last bits may differ.
        EXPECT_NEAR(v.f, want, 1e-12 * std::max(1.0, std::fabs(want))) << what;
        EXPECT_EQ(std::signbit(v.f), std::signbit(want)) << what;
      }
    }
    EXPECT_GE(functions.size(), 10u);
    if (!mlir_opt) continue;
    Result p = sh(*mlir_opt + " --allow-unregistered-dialect " + out);
    EXPECT_EQ(p.status, 0) << p.err;
  }
  if (!mlir_opt) GTEST_SKIP() << "mlir-opt-19 is not installed (Debian's mlir-19-tools): the text was not parsed by MLIR";
}

TEST_F(Device, AMarkedFunctionIsStillAnOrdinaryFunctionForTheInterpreter) {
  std::string program = kPrograms + "/xla_functions.ppy";
  Result interp = sh(kPpy + " run --interp '" + program + "'");
  ASSERT_EQ(interp.status, 0) << interp.err;
  Result python = sh("PYTHONPATH='" + kSource + "/tests/programs' python3 '" + program + "'");
  ASSERT_EQ(python.status, 0) << python.err;
  EXPECT_EQ(interp.out, python.out);
}

TEST_F(Device, WhatStablehloCannotExpressIsE1802WithTheLocation) {
  std::ofstream(dir_ / "bad.ppy") << "from ppy import xla\n\n\n@xla.jit\ndef f(x: int) -> int:\n    print(x)\n    return x\n";
  Result r = sh(kPpy + " emit stablehlo bad.ppy");
  EXPECT_NE(r.status, 0);
  EXPECT_THAT(r.err, HasSubstr("E1802"));
  EXPECT_THAT(r.err, HasSubstr("core.call_extern of ppy_print_i64 in @bad_f"));
  EXPECT_THAT(r.err, HasSubstr("bad.ppy:6:"));
}

}  // namespace
