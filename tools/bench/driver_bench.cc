// The driver's build road over 100-module projects through the toy backend
// (spawned helper), each figure the wall time of a whole `ppy build`: a no-op
// rebuild (every artifact a cache hit) of a small project, and a cold build at
// -j1 and -j2 of a compute-heavy one (each module a few thousand operations),
// where the frontend, the shared passes and the backend call of different
// modules can overlap. Printed last beside issue 20's targets. Beside each
// wall time, `cpu_ms`: the processor time of ppy and every process it waited
// for (its helper), what a loaded machine does not stretch.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"

extern char** environ;
namespace fs = std::filesystem;

namespace {

const fs::path kPpy = fs::path(PPY_BINARY_DIR) / "bin" / "ppy";
constexpr int kModules = 100;

/// A project of kModules modules; each calls into the one before it.
fs::path make_project() {
  static fs::path root = [] {
    fs::path dir = fs::temp_directory_path() / ("ppy-driver-bench-" + std::to_string(getpid()));
    fs::create_directories(dir / "src" / "app");
    std::ofstream(dir / "pyproject.toml") << "[tool.ppy]\nsource-roots = [\"src\"]\nentry = \"app.m0\"\n";
    for (int i = 0; i < kModules; ++i) {
      std::ofstream src(dir / "src" / "app" / ("m" + std::to_string(i) + ".ppy"));
      if (i > 0) src << "from app.m" << i - 1 << " import f" << i - 1 << "\n\n";
      src << "def f" << i << "(n: int) -> int:\n    total = 0\n    for k in range(n):\n"
          << "        if k % 3 == 0:\n            total += k * " << i + 1 << "\n"
          << "        else:\n            total -= k // 2\n";
      if (i > 0) src << "    total += f" << i - 1 << "(n // 2)\n";
      src << "    return total\n\n";
      if (i == 0) src << "def main() -> None:\n    print(f0(10))\n\nif __name__ == \"__main__\":\n    main()\n";
    }
    return dir;
  }();
  return root;
}

/// A project of kModules compute-heavy modules: each holds kHeavyFunctions
/// functions of a loop over kHeavyLines arithmetic statements (about 2,500
/// operations a module after the shared passes), and calls into the one before.
constexpr int kHeavyFunctions = 10;
constexpr int kHeavyLines = 40;
fs::path make_heavy_project() {
  static fs::path root = [] {
    fs::path dir = fs::temp_directory_path() / ("ppy-driver-bench-heavy-" + std::to_string(getpid()));
    fs::create_directories(dir / "src" / "app");
    std::ofstream(dir / "pyproject.toml") << "[tool.ppy]\nsource-roots = [\"src\"]\nentry = \"app.m0\"\n";
    for (int i = 0; i < kModules; ++i) {
      std::ofstream src(dir / "src" / "app" / ("m" + std::to_string(i) + ".ppy"));
      if (i > 0) src << "from app.m" << i - 1 << " import g" << i - 1 << "_0\n\n";
      for (int f = 0; f < kHeavyFunctions; ++f) {
        src << "def g" << i << "_" << f << "(n: int) -> int:\n    x = n\n    total = 0\n    for k in range(n):\n";
        for (int l = 0; l < kHeavyLines; ++l)
          src << "        x = (x * " << l + 3 << " + k - x // " << l + 2 << ") % 1000003\n";
        src << "        total += x\n";
        if (i > 0 && f == 0) src << "    total += g" << i - 1 << "_0(n // 2)\n";
        src << "    return total\n\n";
      }
      if (i == 0) src << "def main() -> None:\n    print(g0_0(10))\n\nif __name__ == \"__main__\":\n    main()\n";
    }
    return dir;
  }();
  return root;
}

/// Each figure of this run (ms), for the summary.
std::map<std::string, double> g_ms;

/// Processor time (user + system, ms) of the runs of ppy so far, with what
/// each waited for.
double g_child_cpu_ms = 0;

int run_ppy(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(kPpy.c_str())};
  for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, kPpy.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  auto tv_ms = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  };
  g_child_cpu_ms += tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> build_args(const fs::path& project, int jobs) {
  return {"build", project.string(), "--backend", "toy", "-o", (project / "out").string(), "-j",
          std::to_string(jobs)};
}

void BM_NoOpRebuild(benchmark::State& state) {
  fs::path project = make_project();
  if (run_ppy(build_args(project, 2)) != 0) return state.SkipWithError("ppy build failed");
  auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = g_child_cpu_ms;
  for (auto _ : state)
    if (run_ppy(build_args(project, 2)) != 0) return state.SkipWithError("ppy build failed");
  const double n = static_cast<double>(state.iterations());
  g_ms["no-op"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / n;
  g_ms["no-op cpu"] = (g_child_cpu_ms - cpu0) / n;
  state.counters["cpu_ms"] = g_ms["no-op cpu"];
  state.counters["modules"] = kModules;
}

void BM_ColdBuild(benchmark::State& state) {
  fs::path project = make_heavy_project();
  std::chrono::steady_clock::duration spent{};
  double cpu = 0;
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(project / ".ppy-cache");
    state.ResumeTiming();
    auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = g_child_cpu_ms;
    if (run_ppy(build_args(project, static_cast<int>(state.range(0)))) != 0)
      return state.SkipWithError("ppy build failed");
    spent += std::chrono::steady_clock::now() - t0;
    cpu += g_child_cpu_ms - cpu0;
  }
  const double n = static_cast<double>(state.iterations());
  const std::string j = "j" + std::to_string(state.range(0));
  g_ms[j] = std::chrono::duration<double, std::milli>(spent).count() / n;
  g_ms[j + " cpu"] = cpu / n;
  state.counters["cpu_ms"] = cpu / n;
  state.counters["modules"] = kModules;
}

}  // namespace

BENCHMARK(BM_NoOpRebuild)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(BM_ColdBuild)->Arg(1)->Arg(2)->ArgName("j")->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(make_project(), ec);
  fs::remove_all(make_heavy_project(), ec);
  // Issue 20's figures beside their targets (tools/bench/figures.py prints them
  // again with every other bench's, each from a process of its own). After a
  // blank line: figures.py reads the benchmarks' names up to one.
  if (g_ms.empty()) return 0;
  std::printf("\nsummary (issue 20)\n");
  if (g_ms.count("no-op"))
    std::printf("  no-op rebuild, 100 modules   %8.1f ms (cpu %.1f ms)   target <= 50 ms\n", g_ms["no-op"],
                g_ms["no-op cpu"]);
  if (g_ms.count("j1"))
    std::printf("  cold build -j1, heavy        %8.1f ms (cpu %.1f ms)\n", g_ms["j1"], g_ms["j1 cpu"]);
  if (g_ms.count("j2"))
    std::printf("  cold build -j2, heavy        %8.1f ms (cpu %.1f ms)\n", g_ms["j2"], g_ms["j2 cpu"]);
  if (g_ms.count("j1") && g_ms.count("j2"))
    std::printf("  cold build -j1 / -j2         %8.2f      target >= 1.8\n", g_ms["j1"] / g_ms["j2"]);
  return 0;
}
