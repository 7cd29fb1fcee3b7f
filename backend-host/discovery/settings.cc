#include "ppy/host/settings.h"

#include <toml++/toml.h>

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
    auto m = parse_sandbox_mode(*v);
    if (!m.ok()) return m.status();
    s.sandbox = *m;
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
    auto v = positive(t, k.key);
    if (!v.ok()) return v.status();
    *k.out = *v;
  }
  if (timeout) s.timeout = std::chrono::milliseconds(*timeout);
  if (handshake) s.handshake_timeout = std::chrono::milliseconds(*handshake);
  return s;
}

}  // namespace ppy::host
