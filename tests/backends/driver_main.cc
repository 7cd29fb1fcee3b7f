// ppy-test-driver: a driver in miniature for the tests that kill a driver
// mid-call. It spawns `HELPER --hang-at emit`, prints `helper <pid> <run dir>`,
// starts an emit that never returns, and waits to be killed.
//   ppy-test-driver HELPER [--no-cleanup]

#include <cstdio>
#include <cstring>

#include "ppy/host/handle.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  bool cleanup = !(argc > 2 && std::strcmp(argv[2], "--no-cleanup") == 0);
  if (cleanup) ppy::host::install_signal_cleanup();
  ppy::host::BackendEntry entry;
  entry.name = "hostile";
  entry.distribution = "ppy-hostile";
  entry.version = "6.6";
  entry.executable = argv[1];
  entry.args = {"--hang-at", "emit"};
  auto handle = ppy::host::connect_backend(entry);
  if (!handle.ok()) {
    std::fprintf(stderr, "%s\n", std::string(handle.status().message()).c_str());
    return 1;
  }
  ppy::host::BackendProcess* p = (*handle)->process();
  std::printf("helper %d %s\n", static_cast<int>(p->pid()), p->run_dir().c_str());
  std::fflush(stdout);
  ppy::ir::Module m("main");
  ppy::host::Invocation inv;
  inv.action = ppy::host::Invocation::Action::Emit;
  inv.format = "hostile";
  inv.modules = {&m};
  auto r = (*handle)->invoke(inv);  // hangs until the deadline (10 minutes)
  return r.ok() ? 0 : 1;
}
