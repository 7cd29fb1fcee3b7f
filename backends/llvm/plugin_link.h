#pragma once
/// plugins (docs/writing-a-plugin.md, "Lowering"): the native libraries a
/// built executable or library links, for the `core.call_extern {library =
/// "vecmath"}` calls of a plugin's externs. The driver hands each library's
/// file in the `flags` table as `library.NAME = "/abs/lib/libNAME.so"`; a
/// library named on the IR that the driver did not hand is looked for by the
/// linker (`-lNAME`), as a system library would be.

#include <string>
#include <vector>

#include "ppy/backend/backend.h"

namespace ppy::llvm_backend {

/// What the link needs for the libraries `modules` name.
struct PluginLink {
  /// Appended after the objects: each file, and `-Wl,-rpath,DIR` so the result
  /// finds it from any working directory; `-lNAME` for an unknown one.
  std::vector<std::string> args;
  /// The libraries named, sorted (empty: the link is as before).
  std::vector<std::string> names;
};

/// The libraries the externs of `modules` name, with the files `context` gives.
PluginLink plugin_link(ModuleList modules, const BackendContext& context);

}  // namespace ppy::llvm_backend
