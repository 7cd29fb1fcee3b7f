// The nvvm backend on hand-written device IR: what it refuses, the LLVM IR it
// writes (checked by LLVM's verifier and by opt-19 where installed) and the
// PTX (checked by ptxas for sm_75 and sm_90 where CUDA is installed).
#include "ppy/backends/nvvm_backend.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "llvm/Config/llvm-config.h"
#include "nvvm.h"
#include "ppy/backend/api_version.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kDevice = R"(ppyir 1
module @k
dialect core 1
dialect gpu 1
dialect math 1

func @k_scale(%x: f64) -> f64 attrs {gpu.kind = "device"} loc("k.ppy":3:5) {
^entry:
    %0 = math.sqrt %x : f64
    %1 = math.sin %0 : f64
    %2 = core.const 2.0 : f64
    %3 = core.div %1, %2 {rounding = "floor"} : f64
    %4 = core.mod %1, %2 {rounding = "floor"} : f64
    %5 = core.add %3, %4 : f64
    %6 = math.pow %5, %2 : f64
    %7 = math.floor %6 : f64
    core.ret %7
}

func @k_kern(%n: i64, %p: ptr<f64>, %q: ptr<i64>) -> () attrs {gpu.kind = "kernel"} loc("k.ppy":8:5) {
^entry:
    %t = gpu.thread_id.y : index
    %ti = core.cast %t : i64
    %b = gpu.block_id.z : index
    %bi = core.cast %b : i64
    %d = gpu.block_dim.x : index
    %di = core.cast %d : i64
    %g = gpu.grid_dim.z : index
    %gi = core.cast %g : i64
    %s = core.mul %bi, %di {overflow = "wrap"} : i64
    %i = core.add %s, %ti {overflow = "wrap"} : i64
    %three = core.const 3 : i64
    %fd = core.div %i, %three {overflow = "wrap", rounding = "floor"} : i64
    %fm = core.mod %i, %gi {overflow = "wrap", rounding = "floor"} : i64
    gpu.barrier
    %c = core.cmp.lt %i, %n : bool
    core.cond_br %c, ^body, ^exit
^body:
    %pp = core.ptr_offset %p, %i : ptr<f64>
    %v = core.load %pp : f64
    %w = core.call %v {callee = @k_scale} : f64
    core.store %w, %pp
    %qq = core.ptr_offset %q, %i : ptr<i64>
    %sum = core.add %fd, %fm {overflow = "wrap"} : i64
    %f = core.cast %sum : f64
    %back = core.cast %f : i64
    core.store %back, %qq
    core.br ^exit
^exit:
    core.ret
}

func @k_loop(%n: i64, %p: ptr<i64>) -> () attrs {gpu.kind = "kernel"} loc("k.ppy":20:5) {
^entry:
    %z = core.const 0 : i64
    core.br ^head(%z, %z)
^head(%i: i64, %acc: i64):
    %c = core.cmp.lt %i, %n : bool
    core.cond_br %c, ^body, ^done
^body:
    %one = core.const 1 : i64
    %acc2 = core.add %acc, %i {overflow = "wrap"} : i64
    %i2 = core.add %i, %one {overflow = "wrap"} : i64
    core.br ^head(%i2, %acc2)
^done:
    core.store %acc, %p
    core.ret
}

func @k_main() -> () loc("k.ppy":30:5) {
^entry:
    %f = core.const false : bool
    core.guard %f {kind = "assert"}
    core.ret
}
)";

std::unique_ptr<ir::Module> parse(const std::string& text) {
  auto m = ir::parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<ir::Module>();
}

/// `text` with `from` replaced by `to` once (a test's variation of kDevice).
std::string with(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string emit(const Backend& b, const ir::Module& m, const std::string& format, int opt_level = 2) {
  BackendContext ctx;
  ctx.opt_level = opt_level;
  for (const EmitFormat& f : b.emit_formats())
    if (f.name == format) {
      auto a = b.emit(m, f, ctx);
      EXPECT_TRUE(a.ok()) << a.status();
      return a.ok() ? std::get<std::string>(*a) : "";
    }
  ADD_FAILURE() << "no format " << format;
  return "";
}

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / str_cat("ppy-nvvm-test-", getpid());
  std::filesystem::create_directories(dir);
  return dir / name;
}

/// Runs a command; its exit status (stdout and stderr into `log`).
int sh(const std::string& command, std::string* log = nullptr) {
  auto out = scratch("sh.log");
  int rc = std::system(str_cat(command, " >", out.string(), " 2>&1").c_str());
  if (log) {
    std::ifstream in(out);
    log->assign(std::istreambuf_iterator<char>(in), {});
  }
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(Nvvm, DescribesItself) {
  auto b = create_nvvm_backend({{"target", "sm_90"}});
  EXPECT_EQ(b->name(), "nvvm");
  EXPECT_EQ(b->api_version(), kBackendApiVersion);
  EXPECT_THAT(b->fingerprint(), HasSubstr("llvm-" LLVM_VERSION_STRING));
  EXPECT_THAT(b->fingerprint(), HasSubstr("sm_90"));
  EXPECT_NE(b->fingerprint(), create_nvvm_backend({{"target", "sm_75"}})->fingerprint());
  auto formats = b->emit_formats();
  ASSERT_EQ(formats.size(), 2u);
  EXPECT_EQ(formats[0].name, "nvvm-ir");
  EXPECT_EQ(formats[0].suffix, ".ll");
  EXPECT_EQ(formats[1].name, "ptx");
  EXPECT_EQ(formats[1].suffix, ".ptx");
  ToolchainStatus t = b->toolchain_status();
  EXPECT_TRUE(t.available);
  EXPECT_THAT(t.detail, HasSubstr("sm_90 (PTX 7.8)"));
  const nvvm::Toolchain& tools = nvvm::toolchain();
  EXPECT_THAT(t.detail, HasSubstr(tools.ptxas ? tools.ptxas->string() : "no ptxas"));
}

TEST(Nvvm, ArchitectureComesFromTheTableThenTheEnvironmentThenSm80) {
  const char* old = std::getenv("PPY_CUDA_ARCH");
  std::string saved = old ? old : "";
  unsetenv("PPY_CUDA_ARCH");
  EXPECT_THAT(create_nvvm_backend({})->fingerprint(), HasSubstr(":sm_80:"));
  setenv("PPY_CUDA_ARCH", "sm_86", 1);
  EXPECT_THAT(create_nvvm_backend({})->fingerprint(), HasSubstr(":sm_86:"));
  EXPECT_THAT(create_nvvm_backend({{"target", "sm_75"}})->fingerprint(), HasSubstr(":sm_75:"));
  if (old) setenv("PPY_CUDA_ARCH", saved.c_str(), 1);
  else unsetenv("PPY_CUDA_ARCH");
}

TEST(Nvvm, AnArchitectureLlvmDoesNotKnowIsAnUnavailableToolchain) {
  ToolchainStatus t = create_nvvm_backend({{"target", "sm_7"}})->toolchain_status();
  EXPECT_FALSE(t.available);
  EXPECT_THAT(t.detail, HasSubstr("'sm_7' is not an architecture"));
}

TEST(Nvvm, PtxVersionIsTheOldestTheArchitectureAccepts) {
  EXPECT_EQ(nvvm::ptx_version("sm_75"), "6.3");
  EXPECT_EQ(nvvm::ptx_version("sm_80"), "7.0");
  EXPECT_EQ(nvvm::ptx_version("sm_90"), "7.8");
}

TEST(Nvvm, ValidateAcceptsDeviceCodeAndLeavesHostFunctionsAlone) {
  auto b = create_nvvm_backend({});
  auto m = parse(kDevice);
  EXPECT_TRUE(b->validate(*m, BackendContext{}).ok());
}

TEST(Nvvm, ValidateRefusesWhatItCannotLowerByNameAndLocation) {
  auto b = create_nvvm_backend({});
  struct Case {
    std::string from, to, says;
  };
  std::vector<Case> cases = {
      {"    gpu.barrier\n", "    %ok = core.const true : bool\n    core.guard %ok {kind = \"assert\"} loc(\"k.ppy\":14:7)\n",
       "cannot take core.guard in @k_kern at k.ppy:14:7"},
      {"%i = core.add %s, %ti {overflow = \"wrap\"} : i64", "%i = core.add %s, %ti {overflow = \"python\"} : i64 loc(\"k.ppy\":11:9)",
       "core.add with overflow = \"python\" in @k_kern at k.ppy:11:9"},
      {"    gpu.barrier\n", "    %sh = gpu.subgroup_shuffle.xor %ti, %ti : i64 loc(\"k.ppy\":12:3)\n",
       "gpu.subgroup_shuffle in @k_kern at k.ppy:12:3"},
      {"%w = core.call %v {callee = @k_scale} : f64", "%w = core.call %v {callee = @k_host} : f64",
       "a call to host function @k_host in @k_kern"},
  };
  for (const Case& c : cases) {
    std::string text = with(kDevice, c.from, c.to);
    text += "\nfunc @k_host(%x: f64) -> f64 {\n^entry:\n    core.ret %x\n}\n";
    auto m = parse(text);
    absl::Status s = b->validate(*m, BackendContext{});
    EXPECT_EQ(error_code(s), "E1802") << c.says;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.says));
    auto refusal = validation_error_of(s);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_EQ(refusal->backend, "nvvm");
  }
}

TEST(Nvvm, NvvmIrHasKernelsAsEntryPointsWithTheirSymbolNames) {
  auto b = create_nvvm_backend({{"target", "sm_90"}});
  auto m = parse(kDevice);
  std::string ll = emit(*b, *m, "nvvm-ir");
  EXPECT_THAT(ll, HasSubstr("target triple = \"nvptx64-nvidia-cuda\""));
  EXPECT_THAT(ll, HasSubstr("define ptx_kernel void @k_kern("));
  EXPECT_THAT(ll, HasSubstr("define ptx_kernel void @k_loop("));
  EXPECT_THAT(ll, HasSubstr("!nvvm.annotations"));
  EXPECT_THAT(ll, Not(HasSubstr("@k_main")));  // host code is not this backend's
  EXPECT_THAT(ll, Not(HasSubstr("declare double @__nv_sin")));  // libdevice is linked in
  if (!std::filesystem::exists("/usr/bin/opt-19")) GTEST_SKIP() << "opt-19 is not installed: LLVM IR not re-verified";
  auto file = scratch("k.ll");
  std::ofstream(file) << ll;
  std::string log;
  EXPECT_EQ(sh(str_cat("/usr/bin/opt-19 -passes=verify -disable-output ", file.string()), &log), 0) << log;
}

TEST(Nvvm, PtxIsAcceptedByPtxasForSm75AndSm90) {
  for (int opt : {0, 2})
    for (std::string arch : {"sm_75", "sm_90"}) {
      auto b = create_nvvm_backend({{"target", arch}});
      auto m = parse(kDevice);
      std::string ptx = emit(*b, *m, "ptx", opt);
      EXPECT_THAT(ptx, HasSubstr(str_cat(".target ", arch)));
      EXPECT_THAT(ptx, HasSubstr(str_cat(".version ", nvvm::ptx_version(arch))));
      EXPECT_THAT(ptx, HasSubstr(".entry k_kern("));
      EXPECT_THAT(ptx, HasSubstr(".entry k_loop("));
      EXPECT_THAT(ptx, HasSubstr("bar.sync"));
      EXPECT_THAT(ptx, HasSubstr("%tid.y"));
      const nvvm::Toolchain& t = nvvm::toolchain();
      if (!t.ptxas) GTEST_SKIP() << "ptxas is not installed (no CUDA here): the PTX is not assembled";
      auto file = scratch(str_cat("k-", arch, "-O", opt, ".ptx"));
      std::ofstream(file) << ptx;
      std::string log;
      EXPECT_EQ(sh(str_cat(t.ptxas->string(), " -arch=", arch, " -o ", file.string(), ".cubin ", file.string()), &log), 0)
          << arch << " -O" << opt << ": " << log;
    }
}

TEST(Nvvm, BuildWritesPtxAndCubinPerModuleWithKernels) {
  auto b = create_nvvm_backend({{"target", "sm_80"}});
  auto kern = parse(kDevice);
  auto host = parse("ppyir 1\nmodule @h\ndialect core 1\n\nfunc @h_main() -> () {\n^entry:\n    core.ret\n}\n");
  const ir::Module* modules[] = {kern.get(), host.get()};
  auto dir = scratch("build");
  std::filesystem::create_directories(dir);
  BackendContext ctx;
  auto r = b->build(modules, dir, ctx);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->outputs.empty());
  EXPECT_EQ(r->outputs[0], "k.ptx");
  EXPECT_TRUE(std::filesystem::exists(dir / "k.ptx"));
  EXPECT_FALSE(std::filesystem::exists(dir / "h.ptx"));
  if (nvvm::toolchain().ptxas) {
    ASSERT_EQ(r->outputs.size(), 2u);
    EXPECT_EQ(r->outputs[1], "k.cubin");
    EXPECT_GT(std::filesystem::file_size(dir / "k.cubin"), 0u);
  } else {
    EXPECT_EQ(r->outputs.size(), 1u);
    EXPECT_THAT(ctx.notes(), ::testing::Contains(HasSubstr("no ptxas")));
  }
}

}  // namespace
}  // namespace ppy::backends
