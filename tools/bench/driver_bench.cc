// The driver's build road over a 100-module project through the toy backend
// (spawned helper): a no-op rebuild (every artifact a cache hit) and a cold
// build at -j1 and -j2, each as the wall time of a whole `ppy build`.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> build_args(const fs::path& project, int jobs) {
  return {"build", project.string(), "--backend", "toy", "-o", (project / "out").string(), "-j",
          std::to_string(jobs)};
}

void BM_NoOpRebuild(benchmark::State& state) {
  fs::path project = make_project();
  if (run_ppy(build_args(project, 2)) != 0) return state.SkipWithError("ppy build failed");
  for (auto _ : state)
    if (run_ppy(build_args(project, 2)) != 0) return state.SkipWithError("ppy build failed");
  state.counters["modules"] = kModules;
}

void BM_ColdBuild(benchmark::State& state) {
  fs::path project = make_project();
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(project / ".ppy-cache");
    state.ResumeTiming();
    if (run_ppy(build_args(project, static_cast<int>(state.range(0)))) != 0)
      return state.SkipWithError("ppy build failed");
  }
  state.counters["modules"] = kModules;
}

}  // namespace

BENCHMARK(BM_NoOpRebuild)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(BM_ColdBuild)->Arg(1)->Arg(2)->ArgName("j")->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  fs::remove_all(make_project());
  return 0;
}
