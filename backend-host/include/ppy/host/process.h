#pragma once
/// A backend helper process: spawned with Boost.Process on one end of a
/// socketpair (`--fd 3`) or, when its manifest says `connection = "socket"`,
/// on a unix socket in a private 0700 folder (`--socket PATH`); stdout and stderr go to a log whose
/// last lines explain a failure; its own scratch folder is its working
/// directory. It dies with the driver (PR_SET_PDEATHSIG, plus a check that the
/// driver is still there), runs in a process group of its own, and is ended
/// (SIGTERM, then SIGKILL after a grace period), reaped and its folders removed
/// by `terminate()` or the destructor.
///
/// Every live helper is in a process-wide registry, so the handler
/// `install_signal_cleanup()` installs can end them all on SIGINT/SIGTERM.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/host/env.h"
#include "ppy/host/sandbox.h"
#include "ppy/host/settings.h"

namespace ppy::host {

/// How a process ended (or that it has not).
struct ExitInfo {
  enum class Kind { Running, Exited, Signaled };
  Kind kind = Kind::Running;
  int code = 0;    ///< Exited: the exit status
  int signal = 0;  ///< Signaled: the signal

  bool running() const { return kind == Kind::Running; }
  /// `exited with status 3`, `was killed by SIGSEGV (Segmentation fault)`, `is running`.
  std::string describe() const;
};
/// `SIGSEGV`, `SIGKILL`, or `signal 42`.
std::string signal_name(int sig);

struct ProcessOptions {
  using Connection = HelperConnection;

  std::filesystem::path executable;
  /// The file `executable` really is, as discovery resolved it
  /// (BackendEntry::real_executable); empty: resolved at spawn.
  std::filesystem::path real_executable;
  /// Arguments after the connection's own (`--fd 3` or `--socket PATH`).
  std::vector<std::string> args;
  SandboxPolicy sandbox;
  Connection connection = Connection::SocketPair;
  /// Between SIGTERM and SIGKILL when ending the helper.
  std::chrono::milliseconds term_grace{300};
  /// Where the private folder is made; empty: $TMPDIR or /tmp.
  std::filesystem::path temp_root;
  /// Where pass-through variables are read; default: this process's environment.
  EnvLookup env;
  /// Extra variables set in the helper (`NAME=value`), after the sandbox's.
  std::vector<std::string> extra_env;
};

class BackendProcess {
 public:
  /// Starts the helper; does not wait for it to serve. Fails (E1903, naming
  /// the executable) when it cannot be started at all.
  static absl::StatusOr<std::unique_ptr<BackendProcess>> spawn(ProcessOptions options);

  BackendProcess(const BackendProcess&) = delete;
  BackendProcess& operator=(const BackendProcess&) = delete;
  /// terminate().
  ~BackendProcess();

  pid_t pid() const { return pid_; }
  /// The driver's end of the socket pair; ownership passes to the caller
  /// (gRPC's channel takes it). -1 for a unix socket, or once taken.
  int take_fd();
  /// The unix socket the helper listens on (UnixSocket), else empty.
  const std::string& socket_path() const { return socket_path_; }
  /// The helper's working directory, HOME and TMPDIR; removed with it.
  const std::filesystem::path& scratch_dir() const { return scratch_; }
  /// The private folder holding scratch/, the log and the socket.
  const std::filesystem::path& run_dir() const { return run_dir_; }
  const SandboxReport& sandbox() const { return report_; }
  /// A pidfd of the helper: readable (poll) once it has ended, so a caller can
  /// watch the process beside its socket, which a process the helper started
  /// may hold open after it exits. -1 where the kernel has no pidfd. Owned by
  /// this object, open for its whole life.
  int exit_fd() const { return pidfd_; }

  /// The last `max_lines` lines the helper wrote to stdout/stderr.
  std::string output_tail(size_t max_lines = 20) const;

  // Safe to call from several threads at once (a driver runs calls on one
  // helper in parallel, and each may find it dead and stop it).

  /// Whether it has ended, without waiting (reaps it if so).
  ExitInfo poll();
  /// Waits up to `timeout` for it to end by itself.
  ExitInfo wait_for(std::chrono::milliseconds timeout);
  /// Ends it (SIGTERM to its group, SIGKILL after the grace period), reaps it
  /// and removes its folders. Idempotent; answers how it ended.
  ExitInfo terminate();
  /// Like terminate() without the grace period: SIGKILL at once.
  ExitInfo kill();

 private:
  BackendProcess() = default;
  ExitInfo finish(bool graceful);
  /// Takes the helper from the signal handler's registry; false when the
  /// handler has it (it then kills, reaps and removes everything itself).
  bool claim_locked();
  ExitInfo poll_locked();
  ExitInfo wait_locked(std::unique_lock<std::mutex>& lock, std::chrono::milliseconds timeout);
  std::string tail_locked(size_t max_lines) const;

  mutable std::mutex mu_;  // guards what follows once spawn has returned

  pid_t pid_ = -1;
  int pidfd_ = -1;
  int fd_ = -1;
  int slot_ = -1;
  std::string socket_path_;
  std::filesystem::path run_dir_, scratch_, log_;
  std::chrono::milliseconds grace_{300};
  SandboxReport report_;
  ExitInfo exit_;
  std::string final_tail_;
  bool claimed_ = false;  // the registry's slot is ours: the handler leaves this helper alone
  bool taken_by_cleanup_ = false;  // the signal or exit cleanup has the slot (and may use the pidfd)
  bool cleaned_ = false;
};

/// Installs SIGINT/SIGTERM/SIGHUP handlers (and an atexit hook) that kill every
/// live helper's process group, reap them, remove their folders and then
/// re-raise the signal with its previous disposition. Idempotent.
void install_signal_cleanup();

/// Helpers alive right now in this process (the registry's count).
int live_helper_count();

/// Kills and cleans up every registered helper now (what the handler does).
/// Async-signal-safe.
void kill_all_helpers() noexcept;

}  // namespace ppy::host
