#pragma once
// `ppy conformance NAME` when NAME is an installed plugin with a pass server:
// the SDK's plugin checks (ppy/backend/plugin_conformance.h), each connection
// a pass server spawned exactly as a build starts it.

#include "ppy/backend/backend.h"
#include "ppy/driver/commands.h"
#include "ppy/host/discovery.h"

namespace ppy::driver {

/// Prints each check and a summary line; 0 when all pass, 1 when one fails,
/// 2 when the plugin has no pass server to check.
int plugin_conformance(const host::PluginEntry& entry, const Options& options, Streams io);

}  // namespace ppy::driver
