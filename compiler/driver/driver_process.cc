// What the driver's process needs before any road runs (the CLI parses
// arguments only, and calls this).
#include "ppy/driver/commands.h"
#include "ppy/host/process.h"
#include "ppy/util/memory.h"

namespace ppy::driver {

void prepare_driver_process() {
  // Ctrl-C, SIGTERM or an exit ends every helper this driver started.
  host::install_signal_cleanup();
  keep_freed_memory(Heaps::kPerThread);  // its -j threads allocate at once
}

}  // namespace ppy::driver
