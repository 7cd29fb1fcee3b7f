#pragma once
/// How the driver hosts one backend: its sandbox, the variables it may see, its
/// limits and its deadlines. Set by the distribution's manifest, overridden by
/// the project's `[tool.ppy.backends.NAME]` table, overridden by the command
/// line (`--sandbox`, `--backend-timeout`); `merge_from` applies each layer.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace toml {
inline namespace v3 {
class table;
}
}  // namespace toml

namespace ppy::host {

/// `off`: the helper inherits the driver's environment and limits.
/// `default`: scrubbed environment, rlimits, a fresh scratch folder as cwd.
/// `strict`: default plus writes confined to the scratch folder and no network.
enum class SandboxMode { Off, Default, Strict };
std::string_view sandbox_mode_name(SandboxMode m);
/// `off` / `default` / `strict`; anything else is InvalidArgument.
absl::StatusOr<SandboxMode> parse_sandbox_mode(std::string_view s);

/// Per-call deadlines. A helper past one is ended and the call fails E1905.
/// A backend's passes run within the call that asks for them (validate, emit
/// or build), under its deadline.
struct Deadlines {
  std::chrono::milliseconds handshake{10'000};  ///< includes starting the process
  std::chrono::milliseconds fingerprint{10'000};
  std::chrono::milliseconds toolchain{30'000};
  std::chrono::milliseconds validate{300'000};
  std::chrono::milliseconds emit{600'000};
  std::chrono::milliseconds build{600'000};
  /// Every deadline set to `d`.
  static Deadlines all(std::chrono::milliseconds d) { return {d, d, d, d, d, d}; }
};

/// TLS files for a remote endpoint; empty strings are unset.
struct TlsFiles {
  std::string ca;    ///< root CA to verify the server (empty: the system's roots)
  std::string cert;  ///< client certificate, for a server that asks for one
  std::string key;   ///< client key
  std::string server_name;  ///< overrides the name checked against the server's certificate
  bool insecure = false;     ///< plaintext (tests, a trusted local network); never the default
};

/// One layer of settings; unset fields leave the layer below in force.
struct HostSettings {
  std::optional<SandboxMode> sandbox;
  /// Variables passed through the scrubbed environment by name.
  std::optional<std::vector<std::string>> pass_env;
  /// Every call's deadline (`timeout-ms`).
  std::optional<std::chrono::milliseconds> timeout;
  /// The handshake's own deadline (`handshake-timeout-ms`), which includes the start.
  std::optional<std::chrono::milliseconds> handshake_timeout;
  std::optional<uint64_t> memory_mb;     ///< RLIMIT_AS (`memory-mb`)
  std::optional<uint64_t> cpu_seconds;   ///< RLIMIT_CPU (`cpu-seconds`)
  std::optional<uint64_t> file_size_mb;  ///< RLIMIT_FSIZE (`file-size-mb`)

  /// Fields set in `over` replace ours.
  void merge_from(const HostSettings& over);
  /// The deadlines these settings give, starting from `base`.
  Deadlines deadlines(Deadlines base = {}) const;
  SandboxMode sandbox_or_default() const { return sandbox.value_or(SandboxMode::Default); }

  /// Reads the keys above from a backend's table (other keys are the
  /// backend's own and ignored). A key of the wrong type is InvalidArgument.
  static absl::StatusOr<HostSettings> from_toml(const toml::table& table);
};

}  // namespace ppy::host
