#pragma once
/// The artifact identity of the contract's cache-key table, computed in one place.
///
/// Every field is hashed, length-prefixed and labelled, so no two different
/// tuples encode alike and adding a field changes every key (old artifacts are
/// then simply never found again, which is the safe failure).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ppy/project/project.h"  // sha256_hex

namespace ppy::driver {

/// The module's half of the key.
struct ModuleKey {
  std::string source_digest;                       ///< sha256 of the source (or of the .ppyir bytes)
  std::string compiler_version;
  std::string compiler_fingerprint;
  std::map<std::string, std::string> dependency_abi;  ///< module name -> digest of its public ABI
  std::vector<std::string> directives;
  int opt_level = 2;
  std::map<std::string, std::string> project_options;
  std::map<std::string, std::string> plugin_fingerprints;
};

/// The backend's half of the key.
struct BackendIdentity {
  std::string name;
  std::string distribution;          ///< empty for a builtin
  std::string distribution_version;  ///< empty for a builtin
  std::optional<int> api_version;    ///< as declared
  std::string fingerprint;           ///< the backend's fingerprint()
  std::string config_digest;         ///< digest of its configuration table
  std::string target;
  int ir_schema_version = 1;
};

/// 64 lowercase hex characters.
std::string artifact_identity(const ModuleKey& module, const BackendIdentity& backend);

}  // namespace ppy::driver
