#include "ppy/driver/cache_key.h"

#include <openssl/evp.h>

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
  KeyWriter() { EVP_DigestInit_ex(hash_, sha256_md(), nullptr); }
  ~KeyWriter() { EVP_MD_CTX_free(hash_); }
  KeyWriter(const KeyWriter&) = delete;
  KeyWriter& operator=(const KeyWriter&) = delete;

  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(hash_, digest, &n);
    return hex_lower(std::string_view(reinterpret_cast<const char*>(digest), n));
  }

 private:
  void put(std::string_view s) {
    uint64_t n = s.size();
    uint8_t len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(n >> (8 * i));
    EVP_DigestUpdate(hash_, len, 8);
    EVP_DigestUpdate(hash_, s.data(), s.size());
  }
  EVP_MD_CTX* hash_ = EVP_MD_CTX_new();  // SHA-256 by OpenSSL: the driver links no LLVM
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
