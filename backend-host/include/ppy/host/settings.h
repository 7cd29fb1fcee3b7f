#pragma once
/// How the driver hosts one backend: its sandbox, the variables it may see, its
/// limits and its deadlines. Set by the distribution's manifest, overridden by
/// the project's `[tool.ppy.backends.NAME]` table, overridden by the command
/// line (`--sandbox`, `--backend-timeout`); `merge_from` applies each layer.

#include <chrono>
#include <filesystem>
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

/// How a spawned helper is reached. `SocketPair` (`--fd 3`, manifest
/// `connection = "fd"`, the default) needs a gRPC that serves on an inherited
/// descriptor; `UnixSocket` (`--socket PATH` in the helper's private run folder,
/// `connection = "socket"`) is for one whose gRPC cannot (Python's).
enum class HelperConnection { SocketPair, UnixSocket };

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

/// TLS keys one layer of settings gives (`tls-ca`, `tls-cert`, `tls-key`,
/// `tls-server-name`, `tls-insecure`), as written; each replaces the layer below's.
struct TlsOverride {
  std::optional<std::string> ca, cert, key, server_name;
  std::optional<bool> insecure;

  bool empty() const { return !ca && !cert && !key && !server_name && !insecure; }
  /// Applies the keys given to `tls`, relative file paths resolved against `base`.
  void apply(TlsFiles& tls, const std::filesystem::path& base) const;
};

/// Whether a backend table's `key` says where the backend runs (`endpoint`,
/// `endpoints`, `tls-*`) rather than what it builds: such keys are the host's,
/// never handed to the backend, and no part of an artifact's cache key (a farm
/// and a local helper build the same bytes).
bool is_reach_key(std::string_view key);

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
  /// The servers of a remote backend: `endpoints = ["host:port", ...]`, or one
  /// `endpoint = "host:port"` (a `dns:///name:port` may resolve to several).
  /// In a project's table it points an installed backend at a farm.
  std::optional<std::vector<std::string>> endpoints;
  TlsOverride tls;  ///< TLS for `endpoints`

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
