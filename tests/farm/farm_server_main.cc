// ppy-test-farm: the toy backend as one server of a farm, for the farm's tests.
// Its own flags come first and are removed before `ppy::serve` sees the rest:
//   --fingerprint TEXT  answer TEXT as fingerprint(): a server of another version
//   --delay-ms N        emit, emit_program and build wait N ms before working, and
//                       say `farm: <call> started` on stderr as they begin, so a
//                       test can stop a server while it has a call in flight
//   --busy-ms N         emit (each module), emit_program and build first keep a
//                       processor busy for N ms of its time: a backend whose work is computing (tools/bench/farm_bench.py)
// Everything else is the toy's: the same artifacts, byte for byte.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ppy/backend/serve.h"
#include "ppy/backends/toy.h"

namespace {

std::string g_fingerprint;
int g_delay_ms = 0;
int g_busy_ms = 0;

/// The toy, with the two changes above.
class FarmToy final : public ppy::Backend {
 public:
  explicit FarmToy(std::unique_ptr<ppy::Backend> toy) : toy_(std::move(toy)) {}

  std::string_view name() const override { return toy_->name(); }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return toy_->distribution(); }
  std::string fingerprint() const override { return g_fingerprint.empty() ? toy_->fingerprint() : g_fingerprint; }
  std::vector<ppy::EmitFormat> emit_formats() const override { return toy_->emit_formats(); }
  void register_passes(ppy::BackendPassRegistrar& passes) const override { toy_->register_passes(passes); }
  absl::Status validate(const ppy::ir::Module& m, const ppy::BackendContext& c) const override {
    return toy_->validate(m, c);
  }
  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& m, const ppy::EmitFormat& f,
                                     ppy::BackendContext& c) const override {
    pause("emit");
    return toy_->emit(m, f, c);
  }
  absl::StatusOr<ppy::Artifact> emit_program(ppy::ModuleList ms, const ppy::EmitFormat& f,
                                             ppy::BackendContext& c) const override {
    pause("emit_program");
    return toy_->emit_program(ms, f, c);
  }
  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList ms, const std::filesystem::path& out,
                                         ppy::BackendContext& c) const override {
    pause("build");
    return toy_->build(ms, out, c);
  }
  ppy::ToolchainStatus toolchain_status() const override { return toy_->toolchain_status(); }

 private:
  static void pause(const char* call) {
    // Processor time, not wall time: calls at once share the machine's processors as real work would.
    if (g_busy_ms > 0)
      for (double until = thread_cpu_ms() + g_busy_ms; thread_cpu_ms() < until;) {
      }
    if (g_delay_ms <= 0) return;
    std::fprintf(stderr, "farm: %s started\n", call);
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(g_delay_ms));
  }
  static double thread_cpu_ms() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
  }
  std::unique_ptr<ppy::Backend> toy_;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--fingerprint" && i + 1 < argc) g_fingerprint = argv[++i];
    else if (a == "--delay-ms" && i + 1 < argc) g_delay_ms = std::atoi(argv[++i]);
    else if (a == "--busy-ms" && i + 1 < argc) g_busy_ms = std::atoi(argv[++i]);
    else rest.push_back(argv[i]);
  }
  rest.push_back(nullptr);
  return ppy::serve(static_cast<int>(rest.size()) - 1, rest.data(), [](const ppy::Options& o) {
    return std::make_unique<FarmToy>(ppy::toy::create_backend(o));
  });
}
