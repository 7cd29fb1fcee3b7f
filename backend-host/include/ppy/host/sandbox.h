#pragma once
/// The sandbox a spawned helper runs in, and an honest report of what is in
/// force on this kernel. Everything the child needs is computed in the parent
/// (`ChildSandbox`, `sandbox_command`), so the part that runs between fork and
/// exec is only async-signal-safe system calls.
///
/// default: scrubbed environment, rlimits (address space, CPU seconds, file
///          size, no core dumps), the scratch folder as working directory,
///          writes only beneath it (Landlock), and ppy-sandbox-init between
///          the driver and the helper in a PID namespace of its own, so no
///          process the helper starts outlives it.
/// strict:  default, run by bubblewrap: PID, mount, network, IPC and UTS
///          namespaces; a private /proc (the driver is invisible); only the
///          system folders, the helper's own folder (read-only) and its
///          scratch folder are there, so no unix socket outside them is
///          reachable; no network. Where bubblewrap cannot run: Landlock
///          (writes, TCP, abstract unix sockets and signals scoped) and a
///          network namespace or a seccomp filter, and the report says what
///          is missing. The inherited socket pair the driver talks over (and
///          the unix-socket fallback) works in every mode.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <string>
#include <vector>

#include "ppy/host/env.h"
#include "ppy/host/settings.h"

namespace ppy::host {

/// What one helper gets. Built from HostSettings with `policy_from`.
struct SandboxPolicy {
  SandboxMode mode = SandboxMode::Default;
  std::vector<std::string> pass_env;          ///< passed through by name
  uint64_t memory_bytes = uint64_t{8} << 30;  ///< RLIMIT_AS
  uint64_t cpu_seconds = 3600;                ///< RLIMIT_CPU (SIGXCPU past it)
  uint64_t file_size_bytes = uint64_t{8} << 30;  ///< RLIMIT_FSIZE
  /// Tests: use the seccomp filter even where a network namespace (or
  /// bubblewrap, which makes one) is possible.
  bool prefer_seccomp = false;
  /// Tests: strict mode as where bubblewrap cannot run.
  bool avoid_bubblewrap = false;
  /// Tests: as where PID namespaces are refused (ppy-sandbox-init reaps as a
  /// child subreaper instead).
  bool avoid_pid_namespace = false;
  /// ppy-sandbox-init; empty: `sandbox_init_program()`.
  std::filesystem::path init_program;
};
SandboxPolicy policy_from(const HostSettings& settings);

/// What this kernel lets a sandbox do (probed once, in a throw-away child).
struct SandboxSupport {
  int landlock_abi = 0;        ///< 0: no Landlock
  bool net_namespace = false;  ///< unshare(CLONE_NEWNET) (with CLONE_NEWUSER unless root) works
  bool pid_namespace = false;  ///< unshare(CLONE_NEWPID) (with CLONE_NEWUSER unless root) works
  bool seccomp = false;        ///< a seccomp filter can be installed
};
/// Probes on first use and caches the answer.
const SandboxSupport& sandbox_support();

/// A bubblewrap that runs here, with every namespace strict mode asks of it:
/// its path, or empty with `why` saying what is wrong. Probed once (it runs
/// `bwrap --version` inside such a sandbox).
struct BubblewrapSupport {
  std::string program;
  std::string why;
};
const BubblewrapSupport& bubblewrap_support();

/// ppy-sandbox-init beside the running program (a build tree) or in
/// `<prefix>/lib/ppy`; empty when there is none.
std::filesystem::path sandbox_init_program();

/// Which protections one helper actually has: never one that is not in force.
struct SandboxReport {
  SandboxMode mode = SandboxMode::Off;
  bool scrubbed_env = false;
  bool rlimits = false;
  bool scratch_cwd = false;
  int landlock_abi = 0;           ///< Landlock in force at this ABI (0: none)
  bool landlock_writes = false;   ///< writes confined to the scratch folder
  bool landlock_tcp = false;      ///< TCP bind/connect denied by Landlock (ABI >= 4)
  bool landlock_scoped = false;   ///< abstract unix sockets and signals scoped by Landlock (ABI >= 6)
  bool net_namespace = false;     ///< in a network namespace of its own
  bool seccomp_net = false;       ///< inet sockets denied by seccomp
  /// ppy-sandbox-init stands between driver and helper: the processes the
  /// helper starts are killed when it ends (as a child subreaper).
  bool reaper = false;
  /// ... in a PID namespace of its own: they end with it even when the
  /// driver SIGKILLs it, and it cannot signal anything outside.
  bool pid_namespace = false;
  /// Run by bubblewrap: a private /proc (the driver's process is invisible),
  /// a mount namespace holding only the system folders and the helper's own
  /// folder read-only and its scratch folder, so writes go only there and no
  /// unix socket elsewhere is reachable; IPC and UTS namespaces.
  bool bubblewrap = false;
  /// The programs `sandbox_command` runs (with `reaper`, `bubblewrap`).
  std::filesystem::path init_program, bubblewrap_program;
  /// Protections the mode asks for that this kernel cannot give.
  std::vector<std::string> missing;
  /// The rlimits in force (with `rlimits`).
  uint64_t memory_bytes = 0, cpu_seconds = 0, file_size_bytes = 0;

  bool no_network() const { return net_namespace || seccomp_net; }
  /// Writes confined to the scratch folder (by Landlock or the mount namespace).
  bool writes_confined() const { return landlock_writes || bubblewrap; }
  /// The driver's process (and its environment) invisible to the helper.
  bool driver_hidden() const { return bubblewrap; }
  /// Abstract unix sockets outside the sandbox unreachable.
  bool abstract_sockets_closed() const { return net_namespace || landlock_scoped; }
  /// Pathname unix sockets outside its folders unreachable.
  bool pathname_sockets_closed() const { return bubblewrap; }
  /// One line per protection, for `ppy doctor`: `sandbox   strict: ...`.
  std::string summary() const;
  /// The limit a helper killed by `signal` ran into, as words to add to the
  /// cause (` -- past its CPU limit of 60 s`), or empty. SIGXCPU and SIGXFSZ
  /// are the limits' own signals; SIGABRT is any abort(), so the memory limit
  /// is named only when `tail` (the helper's last output) shows an allocation
  /// refused (`std::bad_alloc`, `Cannot allocate memory`, ...).
  std::string limit_hint(int signal, std::string_view tail = {}) const;
};
/// What `policy` would give on this kernel.
SandboxReport plan_sandbox(const SandboxPolicy& policy);

/// The helper's environment: for `off`, the driver's own; otherwise PATH, LANG
/// (and LC_ALL when set), HOME and TMPDIR set to the scratch folder, and each
/// variable `policy.pass_env` names that is set in `env`. `NAME=value` each.
std::vector<std::string> sandbox_environment(const SandboxPolicy& policy, const EnvLookup& env,
                                             const std::filesystem::path& scratch);

/// `executable` with every symbolic link resolved (the file the kernel
/// runs), or empty when it does not resolve (a missing file).
[[nodiscard]] std::filesystem::path real_executable(const std::filesystem::path& executable);

/// The command line that runs `executable args` as `plan` says: the helper
/// itself (off, or without ppy-sandbox-init), ppy-sandbox-init around it, and
/// in strict mode bubblewrap between them. `socket_dir`: where the helper
/// binds its unix socket, when it does. In strict mode bubblewrap runs the
/// helper by `real` (`real_executable(executable)` when empty, as discovery
/// resolved it), which is made visible read-only on its own wherever it lies
/// (a vendor's executable linked into a distribution's folder), and so is
/// each file its loader needs from outside the visible folders (a `#!`
/// interpreter, libraries found through its RPATH/RUNPATH).
std::vector<std::string> sandbox_command(const SandboxReport& plan, const std::filesystem::path& executable,
                                         const std::vector<std::string>& args, const std::filesystem::path& scratch,
                                         const std::filesystem::path& socket_dir = {},
                                         const std::filesystem::path& real = {});

/// The descriptor a wrapped helper's start is reported on: 4 bytes, 0 once
/// the helper is executing, or the errno of its failed exec.
constexpr int kSandboxReadyFd = 8;

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
  std::string uid_map_, gid_map_;  ///< `ID ID 1`: its own ids, when it enters a user namespace
  int unshare_flags_ = 0;          ///< namespaces the child enters itself
};

/// Whether the current process can be granted a network namespace / Landlock;
/// exposed for tests that skip what the kernel lacks.
bool landlock_available();

}  // namespace ppy::host
