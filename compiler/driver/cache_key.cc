#include "ppy/driver/cache_key.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace ppy::driver {
namespace {

/// Feeds labelled, length-prefixed fields to one hash.
class KeyWriter {
 public:
  void field(std::string_view label, std::string_view value) {
    put(label);
    put(value);
  }
  void field(std::string_view label, const std::map<std::string, std::string>& m) {
    field(label, std::to_string(m.size()));
    for (auto& [k, v] : m) field(k, v);
  }
  std::string hex() {
    auto digest = hash_.final();
    return llvm::toHex(digest, /*LowerCase=*/true);
  }

 private:
  void put(std::string_view s) {
    uint64_t n = s.size();
    uint8_t len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(n >> (8 * i));
    hash_.update(llvm::ArrayRef<uint8_t>(len, 8));
    hash_.update(llvm::StringRef(s.data(), s.size()));
  }
  llvm::SHA256 hash_;
};

}  // namespace

std::string artifact_identity(const ModuleKey& m, const BackendIdentity& b) {
  KeyWriter w;
  w.field("ppy-artifact-key", "1");
  w.field("source", m.source_digest);
  w.field("compiler-version", m.compiler_version);
  w.field("compiler-fingerprint", m.compiler_fingerprint);
  w.field("dependencies", m.dependency_abi);
  w.field("directives", std::to_string(m.directives.size()));
  for (auto& d : m.directives) w.field("directive", d);
  w.field("opt-level", std::to_string(m.opt_level));
  w.field("project-options", m.project_options);
  w.field("plugins", m.plugin_fingerprints);
  w.field("backend", b.name);
  w.field("distribution", b.distribution);
  w.field("distribution-version", b.distribution_version);
  w.field("api-version", b.api_version ? std::to_string(*b.api_version) : "undeclared");
  w.field("fingerprint", b.fingerprint);
  w.field("config", b.config_digest);
  w.field("target", b.target);
  w.field("ir-schema", std::to_string(b.ir_schema_version));
  return w.hex();
}

}  // namespace ppy::driver
