#include "ppy/host/settings.h"

#include <toml++/toml.h>

#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::host {

std::string_view sandbox_mode_name(SandboxMode m) {
  switch (m) {
    case SandboxMode::Off: return "off";
    case SandboxMode::Default: return "default";
    case SandboxMode::Strict: return "strict";
  }
  return "default";
}

absl::StatusOr<SandboxMode> parse_sandbox_mode(std::string_view s) {
  if (s == "off") return SandboxMode::Off;
  if (s == "default") return SandboxMode::Default;
  if (s == "strict") return SandboxMode::Strict;
  return absl::InvalidArgumentError(
      str_cat("sandbox must be \"off\", \"default\" or \"strict\", not \"", s, "\""));
}

void HostSettings::merge_from(const HostSettings& o) {
  if (o.sandbox) sandbox = o.sandbox;
  if (o.pass_env) pass_env = o.pass_env;
  if (o.timeout) timeout = o.timeout;
  if (o.handshake_timeout) handshake_timeout = o.handshake_timeout;
  if (o.memory_mb) memory_mb = o.memory_mb;
  if (o.cpu_seconds) cpu_seconds = o.cpu_seconds;
  if (o.file_size_mb) file_size_mb = o.file_size_mb;
  if (o.endpoints) endpoints = o.endpoints;
  for (auto [from, to] : {std::pair{&o.tls.ca, &tls.ca}, {&o.tls.cert, &tls.cert}, {&o.tls.key, &tls.key},
                          {&o.tls.server_name, &tls.server_name}})
    if (*from) *to = *from;
  if (o.tls.insecure) tls.insecure = o.tls.insecure;
}

bool is_reach_key(std::string_view key) {
  return key == "endpoint" || key == "endpoints" || key.starts_with("tls-");
}

void TlsOverride::apply(TlsFiles& out, const std::filesystem::path& base) const {
  auto path = [&](const std::string& p) {
    std::filesystem::path f(p);
    return f.empty() || f.is_absolute() ? p : (base / f).lexically_normal().string();
  };
  if (ca) out.ca = path(*ca);
  if (cert) out.cert = path(*cert);
  if (key) out.key = path(*key);
  if (server_name) out.server_name = *server_name;
  if (insecure) out.insecure = *insecure;
}

Deadlines HostSettings::deadlines(Deadlines d) const {
  if (timeout) d = Deadlines::all(*timeout);
  if (handshake_timeout) d.handshake = *handshake_timeout;
  return d;
}

namespace {

absl::StatusOr<std::optional<uint64_t>> positive(const toml::table& t, std::string_view key) {
  const toml::node* n = t.get(key);
  if (!n) return std::optional<uint64_t>();
  auto v = n->value<int64_t>();
  if (!n->is_integer() || !v || *v <= 0)
    return absl::InvalidArgumentError(str_cat("'", key, "' must be a positive integer"));
  return std::optional<uint64_t>(static_cast<uint64_t>(*v));
}

}  // namespace

absl::StatusOr<HostSettings> HostSettings::from_toml(const toml::table& t) {
  HostSettings s;
  if (const toml::node* n = t.get("sandbox")) {
    auto v = n->value<std::string>();
    if (!v) return absl::InvalidArgumentError("'sandbox' must be a string");
    PPY_ASSIGN_OR_RETURN(s.sandbox, parse_sandbox_mode(*v));
  }
  if (const toml::node* n = t.get("pass-env")) {
    const toml::array* a = n->as_array();
    if (!a) return absl::InvalidArgumentError("'pass-env' must be an array of variable names");
    std::vector<std::string> names;
    for (const toml::node& e : *a) {
      auto v = e.value<std::string>();
      if (!v || !e.is_string()) return absl::InvalidArgumentError("'pass-env' must be an array of variable names");
      names.push_back(*v);
    }
    s.pass_env = std::move(names);
  }
  struct Key {
    std::string_view key;
    std::optional<uint64_t>* out;
  };
  std::optional<uint64_t> timeout, handshake;
  for (Key k : {Key{"timeout-ms", &timeout}, Key{"handshake-timeout-ms", &handshake},
                Key{"memory-mb", &s.memory_mb}, Key{"cpu-seconds", &s.cpu_seconds},
                Key{"file-size-mb", &s.file_size_mb}}) {
    PPY_ASSIGN_OR_RETURN(*k.out, positive(t, k.key));
  }
  const toml::node* one = t.get("endpoint");
  const toml::node* many = t.get("endpoints");
  if (one && many) return absl::InvalidArgumentError("give 'endpoint' or 'endpoints', not both");
  if (one) {
    auto v = one->value<std::string>();
    if (!one->is_string() || !v || v->empty()) return absl::InvalidArgumentError("'endpoint' must be a \"host:port\" string");
    s.endpoints = std::vector<std::string>{*v};
  }
  if (many) {
    const toml::array* a = many->as_array();
    std::vector<std::string> list;
    for (size_t i = 0; a && i < a->size(); ++i) {
      auto v = (*a)[i].value<std::string>();
      if (!(*a)[i].is_string() || !v || v->empty()) {
        a = nullptr;
        break;
      }
      list.push_back(*v);
    }
    if (!a || list.empty())
      return absl::InvalidArgumentError("'endpoints' must be a non-empty array of \"host:port\" strings");
    s.endpoints = std::move(list);
  }
  for (auto [key, out] : {std::pair<std::string_view, std::optional<std::string>*>{"tls-ca", &s.tls.ca},
                          {"tls-cert", &s.tls.cert},
                          {"tls-key", &s.tls.key},
                          {"tls-server-name", &s.tls.server_name}}) {
    const toml::node* n = t.get(key);
    if (!n) continue;
    auto v = n->value<std::string>();
    if (!n->is_string() || !v) return absl::InvalidArgumentError(str_cat("'", key, "' must be a string"));
    *out = *v;
  }
  if (const toml::node* n = t.get("tls-insecure")) {
    if (!n->is_boolean()) return absl::InvalidArgumentError("'tls-insecure' must be true or false");
    s.tls.insecure = n->value_or(false);
  }
  if (timeout) s.timeout = std::chrono::milliseconds(*timeout);
  if (handshake) s.handshake_timeout = std::chrono::milliseconds(*handshake);
  return s;
}

}  // namespace ppy::host
