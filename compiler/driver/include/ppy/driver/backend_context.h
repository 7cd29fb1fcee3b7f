#pragma once
/// The BackendContext a backend receives, and the artifact identities in it:
/// built once per invocation from the compilation and the backend's handshake.

#include <string>

#include "ppy/backend/backend.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/cache_key.h"
#include "ppy/driver/compile.h"
#include "ppy/host/handle.h"

namespace ppy::driver {

/// The backend's half of the key, from its handshake and its table.
BackendIdentity backend_identity(const host::BackendInfo& info, const BackendConfig& config);

/// Every field the contract lists: root, configuration, the backend's own
/// table, -O, target, registry, plugin fingerprints, entry, identities.
BackendContext make_context(const Compilation& c, const host::BackendInfo& info, const BackendConfig& config,
                            const std::string& target_path);

/// One key for a set of artifacts: what `what` (e.g. `emit toy`) made from
/// the modules with these identities.
std::string combined_key(const std::string& what, const std::map<std::string, std::string>& identities);

/// The project's cache folder: `<root>/.ppy-cache`.
std::string cache_root(const Compilation& c, const std::string& target_path);

}  // namespace ppy::driver
