#pragma once
/// The contract's checks for a plugin's pass server, through the protocol
/// (the `ppy.backend.v1.Plugin` service): what `ppy conformance NAME` runs when
/// NAME is an installed plugin, and what a vendor's own tests run in-process
/// (`run_plugin_conformance_in_process`). The checks, in order:
///   handshake            name, a declared API version literal (the driver's),
///                        a distribution, every pass at a plugin stage
///                        (`after-ir-generation` ... `before-backend`)
///   fingerprint          the same across processes
///   pass <name>          each pass over the two-module sample program answers
///                        a module that decodes and verifies, under its name
///   determinism          the same pass over the same module answers the same bytes
///   unknown pass         refused (INVALID_ARGUMENT), the plugin still serving
///   short deadline       a 1 ms deadline ends the call cleanly; it serves on

#include <vector>

#include "ppy/backend/conformance.h"
#include "ppy/backend/plugin.h"

namespace ppy::conformance {

/// Runs every check; `connect` opens a new process (or server) each call.
std::vector<Check> run_plugin_conformance(const Connect& connect, const Settings& settings);

/// The same against a plugin served in this process.
std::vector<Check> run_plugin_conformance_in_process(PluginFactory factory, const Settings& settings = {});

}  // namespace ppy::conformance
