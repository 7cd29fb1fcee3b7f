#pragma once
/// The sandbox a spawned helper runs in, and an honest report of what is in
/// force on this kernel. Everything the child needs is computed in the parent
/// (`ChildSandbox`), so the part that runs between fork and exec is only
/// async-signal-safe system calls.
///
/// default: scrubbed environment, rlimits (address space, CPU seconds, file
///          size, no core dumps), the scratch folder as working directory.
/// strict:  default, plus Landlock (writes only beneath the scratch folder;
///          reads allowed; TCP bind/connect denied where the ABI has it) and no
///          network: a new network namespace (no interfaces but a downed
///          loopback), or, where namespaces are refused, a seccomp filter
///          denying AF_INET/AF_INET6 sockets. The inherited unix socket pair the
///          driver talks over is untouched by all of them.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ppy/host/discovery.h"
#include "ppy/host/settings.h"

namespace ppy::host {

/// What one helper gets. Built from HostSettings with `policy_from`.
struct SandboxPolicy {
  SandboxMode mode = SandboxMode::Default;
  std::vector<std::string> pass_env;          ///< passed through by name
  uint64_t memory_bytes = uint64_t{8} << 30;  ///< RLIMIT_AS
  uint64_t cpu_seconds = 3600;                ///< RLIMIT_CPU (SIGXCPU past it)
  uint64_t file_size_bytes = uint64_t{8} << 30;  ///< RLIMIT_FSIZE
  /// Tests: use the seccomp filter even where a network namespace is possible.
  bool prefer_seccomp = false;
};
SandboxPolicy policy_from(const HostSettings& settings);

/// What this kernel lets a sandbox do (probed once, in a throw-away child).
struct SandboxSupport {
  int landlock_abi = 0;        ///< 0: no Landlock
  bool net_namespace = false;  ///< unshare(CLONE_NEWNET) (with CLONE_NEWUSER unless root) works
  bool seccomp = false;        ///< a seccomp filter can be installed
};
/// Probes on first use and caches the answer.
const SandboxSupport& sandbox_support();

/// Which protections one helper actually has: never one that is not in force.
struct SandboxReport {
  SandboxMode mode = SandboxMode::Off;
  bool scrubbed_env = false;
  bool rlimits = false;
  bool scratch_cwd = false;
  int landlock_abi = 0;           ///< Landlock in force at this ABI (0: none)
  bool landlock_writes = false;   ///< writes confined to the scratch folder
  bool landlock_tcp = false;      ///< TCP bind/connect denied by Landlock (ABI >= 4)
  bool net_namespace = false;     ///< in a network namespace of its own
  bool seccomp_net = false;       ///< inet sockets denied by seccomp
  /// Protections the mode asks for that this kernel cannot give.
  std::vector<std::string> missing;
  /// The rlimits in force (with `rlimits`).
  uint64_t memory_bytes = 0, cpu_seconds = 0, file_size_bytes = 0;

  bool no_network() const { return net_namespace || seccomp_net; }
  /// One line per protection, for `ppy doctor`: `sandbox   strict: ...`.
  std::string summary() const;
  /// The limit a helper killed by `signal` likely ran into, as words to add
  /// to the cause (` -- past its CPU limit of 60 s`), or empty.
  std::string limit_hint(int signal) const;
};
/// What `policy` would give on this kernel.
SandboxReport plan_sandbox(const SandboxPolicy& policy);

/// The helper's environment: for `off`, the driver's own; otherwise PATH, LANG
/// (and LC_ALL when set), HOME and TMPDIR set to the scratch folder, and each
/// variable `policy.pass_env` names that is set in `env`. `NAME=value` each.
std::vector<std::string> sandbox_environment(const SandboxPolicy& policy, const EnvLookup& env,
                                             const std::filesystem::path& scratch);

/// Everything the child applies between fork and exec, prepared in the parent.
class ChildSandbox {
 public:
  /// `socket_dir`: where the helper binds its unix socket, when it does; the
  /// write confinement lets it make a socket there and nothing else.
  ChildSandbox(const SandboxPolicy& policy, const SandboxReport& plan, const std::filesystem::path& scratch,
               const std::filesystem::path& socket_dir = {});
  /// In the child: applies the plan. Only async-signal-safe calls; on failure
  /// writes a line to fd 2 and answers false (the caller then _exits).
  bool apply() const noexcept;

 private:
  SandboxReport plan_;
  SandboxPolicy limits_;
  std::string scratch_, socket_dir_;
};

/// Whether the current process can be granted a network namespace / Landlock;
/// exposed for tests that skip what the kernel lacks.
bool landlock_available();

}  // namespace ppy::host
