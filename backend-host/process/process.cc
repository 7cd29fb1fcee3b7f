#include "ppy/host/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;
namespace bp = boost::process;

namespace ppy::host {

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  if (abbrev) return str_cat("SIG", std::string_view(abbrev));
  return str_cat("signal ", sig);
}

std::string ExitInfo::describe() const {
  switch (kind) {
    case Kind::Running: return "is running";
    case Kind::Exited: return str_cat("exited with status ", code);
    case Kind::Signaled: {
      const char* d = sigdescr_np(signal);
      return str_cat("was killed by ", signal_name(signal), d ? str_cat(" (", std::string_view(d), ")") : "");
    }
  }
  return "";
}

// ---------------------------------------------------------------------------
// The registry of live helpers, readable from a signal handler.

namespace {

/// A slot's life: Free -> Filling (its folder being written) -> Live (the
/// folder, then the pid, known) -> Owned (its BackendProcess reaps it and
/// removes the folder) -> Free; or, from Live or Owned, Cleaning -> Done when
/// the signal or exit cleanup takes it (the process is ending: never reused).
enum SlotState : int { kFree, kFilling, kLive, kOwned, kCleaning, kDone };

constexpr int kSlots = 128;
struct Slot {
  std::atomic<int> state{kFree};
  std::atomic<pid_t> pid{0};   // Live: 0 until spawn has the child, then its pid
  std::atomic<int> pidfd{-1};  // Live: the child's pidfd (stored before pid), or -1
  char dir[512];               // valid from Live on
};
Slot g_slots[kSlots];

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

/// SIGINT, SIGTERM and SIGHUP blocked on this thread for the guard's life:
/// while a slot is being filled, or a run folder exists that no slot names
/// yet, a handler on this thread would find it half-written.
class FatalSignalsBlocked {
 public:
  FatalSignalsBlocked() {
    sigset_t fatal;
    sigemptyset(&fatal);
    for (int s : kSignals) sigaddset(&fatal, s);
    pthread_sigmask(SIG_BLOCK, &fatal, &before_);
  }
  ~FatalSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
  FatalSignalsBlocked(const FatalSignalsBlocked&) = delete;
  FatalSignalsBlocked& operator=(const FatalSignalsBlocked&) = delete;
  const sigset_t& before() const { return before_; }

 private:
  sigset_t before_;
};

/// Takes a free slot for the run folder `dir` (Live, pid 0). Call with the
/// fatal signals blocked.
int register_helper(const std::string& dir) {
  if (dir.size() >= sizeof(g_slots[0].dir)) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling)) {
      g_slots[i].pid.store(0);
      g_slots[i].pidfd.store(-1);
      memcpy(g_slots[i].dir, dir.c_str(), dir.size() + 1);
      g_slots[i].state.store(kLive);
      return i;
    }
  }
  return -1;
}

struct Dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/// rm -rf with system calls only (usable in a signal handler).
void remove_tree_at(int dirfd, const char* name, int depth) noexcept {
  if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT) return;
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[2048];
  for (int pass = 0; pass < 4; ++pass) {
    bool any = false;
    lseek(fd, 0, SEEK_SET);
    for (;;) {
      long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        auto* d = reinterpret_cast<Dirent64*>(buf + off);
        off += d->d_reclen;
        if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")) continue;
        any = true;
        if (depth < 24) remove_tree_at(fd, d->d_name, depth + 1);
      }
    }
    if (!any) break;
  }
  close(fd);
  unlinkat(dirfd, name, AT_REMOVEDIR);
}

/// How a helper ended when the signal or exit cleanup reaped it first.
constexpr ExitInfo kReapedByCleanup{ExitInfo::Kind::Signaled, 0, SIGKILL};

// Every signal the host sends goes to a process it knows to be its own
// unreaped child (issue 38: a build that had printed its summary was
// SIGKILLed). A raw pid is only a number: once the child is reaped it may
// name a stranger, or a thread of the driver itself (kill() of a thread id
// ends its whole process), and `kill(-pid)` a group the driver does not own.
// So the child itself is signalled through its pidfd (opened while it was an
// unreaped child, and it names that process whatever the pid becomes); its
// group only while the child is still unreaped (a group's id is its leader's
// pid, which the kernel keeps until the leader is reaped); it is reaped
// through the pidfd too; and a pid or group that is the driver's own is
// refused whatever path got there.

constexpr idtype_t kPidfdId = static_cast<idtype_t>(3);  // P_PIDFD (Linux 5.4)

/// Whether `pid` is this process, one of its threads or its process group.
/// Async-signal-safe.
bool is_self(pid_t pid) noexcept {
  if (pid == getpid() || pid == getpgrp()) return true;
  char path[40] = "/proc/self/task/";
  char digits[12];
  int n = 0;
  for (unsigned v = static_cast<unsigned>(pid); n == 0 || v > 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
  size_t at = strlen(path);
  while (n > 0) path[at++] = digits[--n];
  path[at] = 0;
  return access(path, F_OK) == 0;
}

/// waitid on the child behind `pidfd` (or, without one, `pid`). Async-signal-safe.
int wait_child(int pidfd, pid_t pid, siginfo_t* info, int options) noexcept {
  if (pidfd >= 0) {
    int r = waitid(kPidfdId, static_cast<id_t>(pidfd), info, options);
    if (r == 0 || errno != EINVAL) return r;  // EINVAL: a kernel before P_PIDFD
  }
  return waitid(P_PID, static_cast<id_t>(pid), info, options);
}

/// Whether the child is still this process's to reap: running, or ended and
/// not yet reaped (its pid and group id are then still its own).
bool unreaped(int pidfd, pid_t pid) noexcept {
  siginfo_t info = {};
  return wait_child(pidfd, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

/// Signals a helper's process group, then the helper. Call only while it is
/// unreaped. A pid of 1 or less is refused (kill(-1) would reach every
/// process the user may signal), and so is one that is the driver's own.
void signal_helper(int pidfd, pid_t pid, int sig) noexcept {
  if (pid <= 1 || is_self(pid)) return;
  ::kill(-pid, sig);
  if (pidfd >= 0 && syscall(SYS_pidfd_send_signal, pidfd, sig, nullptr, 0) == 0) return;
  if (pidfd < 0 || errno == ENOSYS) ::kill(pid, sig);  // no pidfd here: the pid, unreaped, is still its own
}

/// For the signal and exit cleanup, which owns the slot's child: kills its
/// group and it, and reaps it, if it is still unreaped.
void kill_and_reap(int pidfd, pid_t pid) noexcept {
  if (pid <= 1 || !unreaped(pidfd, pid)) return;
  signal_helper(pidfd, pid, SIGKILL);
  siginfo_t info = {};
  while (wait_child(pidfd, pid, &info, WEXITED) < 0 && errno == EINTR) {
  }
}

struct sigaction g_old_actions[3];

/// The thread running the cleanup before the process ends (0: none yet),
/// whether it has finished, and the signal that started it (0: exit).
std::atomic<pid_t> g_cleaner{0};
std::atomic<bool> g_cleaned{false};
std::atomic<int> g_fatal_signal{0};

/// Restores the disposition `sig` had before install_signal_cleanup.
void restore_disposition(int sig) noexcept {
  for (int i = 0; i < 3; ++i)
    if (kSignals[i] == sig) sigaction(sig, &g_old_actions[i], nullptr);
}

/// The cleanup the signal handlers and the exit hook share. The first caller
/// kills and removes every helper. A caller on another thread meanwhile (a
/// second signal, delivered to another thread because the first's handler
/// blocks it; or main returning because the helper it waited on was killed)
/// waits until that cleanup is done: its own signal's default action, or
/// exit, would otherwise end the process with the run folders half removed.
void clean_up_before_ending(int sig) noexcept {
  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  pid_t none = 0;
  if (g_cleaner.compare_exchange_strong(none, self)) {
    if (sig) g_fatal_signal.store(sig);
    kill_all_helpers();
    g_cleaned.store(true);
    return;
  }
  if (none == self) return;  // this thread is the one cleaning up
  struct timespec ms = {0, 1'000'000};
  for (int i = 0; i < 30'000 && !g_cleaned.load(); ++i) nanosleep(&ms, nullptr);  // bounded: 30 s
}

void on_fatal_signal(int sig) {
  int saved = errno;
  clean_up_before_ending(sig);
  restore_disposition(sig);
  errno = saved;
  raise(sig);  // delivered with the old disposition once this handler returns
}

/// At exit: the same cleanup; when a signal's handler did it on another
/// thread, the process ends by that signal rather than by exit.
void on_exit_cleanup() {
  clean_up_before_ending(0);
  if (int sig = g_fatal_signal.load()) {
    restore_disposition(sig);
    raise(sig);
  }
}

int pidfd_open(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

/// A descriptor closed when its owner goes: spawn's every way out (and it has
/// many) leaves nothing open that it did not hand over.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd() { reset(); }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  /// Hands the descriptor over; -1 from then on.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

/// Every signal blocked on this thread for the guard's life, the mask before
/// restored on every way out: the driver's handlers must not run in a vfork
/// child, which borrows the driver's memory until it execs.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before_);
  }
  ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;
  const sigset_t& before() const { return before_; }

 private:
  sigset_t before_;
};

}  // namespace

void kill_all_helpers() noexcept {
  struct timespec ms = {0, 1'000'000};
  for (auto& slot : g_slots) {
    int state = slot.state.load();
    // Filling happens with these signals blocked, so on another thread: a moment.
    for (int i = 0; i < 100 && state == kFilling; ++i) {
      nanosleep(&ms, nullptr);
      state = slot.state.load();
    }
    if ((state != kLive && state != kOwned) || !slot.state.compare_exchange_strong(state, kCleaning)) continue;
    // Live: ours to kill and reap (pid 0: spawn has no child yet; PDEATHSIG
    // ends it with us). Owned: its BackendProcess has reaped it or is ending
    // it, and may be stopped before it removes the folder: removing it twice
    // is harmless.
    pid_t pid = slot.pid.load();
    int pidfd = slot.pidfd.load();  // stored before the pid
    if (state == kLive && pid > 0) kill_and_reap(pidfd, pid);
    remove_tree_at(AT_FDCWD, slot.dir, 0);
    slot.state.store(kDone);
  }
}

int live_helper_count() {
  int n = 0;
  for (auto& slot : g_slots) n += slot.state.load() == kLive && slot.pid.load() > 0;
  return n;
}

void install_signal_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < 3; ++i) {
      // A signal the driver was started ignoring (nohup's SIGHUP, SIGINT for
      // a background job) does not end it, so it must not end its helpers.
      if (sigaction(kSignals[i], nullptr, &g_old_actions[i]) == 0 && g_old_actions[i].sa_handler == SIG_IGN) continue;
      struct sigaction sa = {};
      sa.sa_handler = on_fatal_signal;
      sigemptyset(&sa.sa_mask);
      for (int s : kSignals) sigaddset(&sa.sa_mask, s);
      sigaction(kSignals[i], &sa, &g_old_actions[i]);
    }
    std::atexit(on_exit_cleanup);
  });
}

namespace {

/// `PID STARTTIME` of a live process, or empty: with the start time a pid
/// that was reused since does not pass for the process that made a folder.
std::string process_identity(pid_t pid) {
  std::ifstream in(str_cat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return {};
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)  // starttime is field 22
    if (i == 22) return str_cat(pid, " ", field);
  return {};
}

/// This process's pid namespace: a pid means nothing outside it (containers
/// sharing one /tmp).
std::string pid_namespace() {
  struct stat st;
  return stat("/proc/self/ns/pid", &st) == 0 ? str_cat(static_cast<uint64_t>(st.st_ino)) : std::string("?");
}

/// In each run folder: `PID STARTTIME PIDNS` of the driver that made it.
constexpr const char* kDriverFile = "driver";

/// Removes the run folders under `root` whose driver is gone: a driver killed
/// with SIGKILL cannot clean up after itself. Once per root and process.
void sweep_abandoned(const fs::path& root) {
  static std::mutex mu;
  static std::set<std::string> swept;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!swept.insert(root.string()).second) return;
  }
  const std::string ns = pid_namespace();
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& dir = it->path();
    struct stat st;
    if (!dir.filename().string().starts_with("ppy-backend-") || lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid())
      continue;
    std::ifstream in(dir / kDriverFile);
    std::string pid, start, their_ns;
    if (!(in >> pid >> start >> their_ns) || their_ns != ns) continue;  // not ours to judge
    // Gone, or its pid now another process's (or a thread's): another start
    // time. A driver whose start time cannot be read is not judged gone
    // unless its pid is free: its helper's folder is its working directory.
    const pid_t driver = static_cast<pid_t>(std::atol(pid.c_str()));
    if (driver <= 1) continue;
    const std::string now = process_identity(driver);
    const bool gone = now.empty() ? (::kill(driver, 0) != 0 && errno == ESRCH) : now != pid + " " + start;
    std::error_code removing;
    if (gone) fs::remove_all(dir, removing);  // one that will not go does not stop the sweep
  }
}

/// Reads a wrapped helper's start report (`kSandboxReadyFd`): empty once it
/// runs, else why it does not.
std::string wait_until_started(int fd) {
  int32_t err = 0;
  size_t got = 0;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (got < sizeof err) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return "its sandbox did not start it within 30 s";
    struct pollfd pfd = {fd, POLLIN, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) return strerror(errno);
    if (ready <= 0) continue;
    ssize_t n = read(fd, reinterpret_cast<char*>(&err) + got, sizeof err - got);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return "its sandbox ended before starting it";
    got += static_cast<size_t>(n);
  }
  return err == 0 ? std::string() : std::string(strerror(err));
}

}  // namespace

// ---------------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<BackendProcess>> BackendProcess::spawn(ProcessOptions opt) {
  auto fail = [&](std::string_view why) {
    return coded_error("E1903", str_cat("backend executable ", opt.executable.string(), " could not be started: ", why));
  };
  if (access(opt.executable.c_str(), X_OK) != 0) return fail(strerror(errno));
  if (!opt.env) opt.env = process_env();

  fs::path root = opt.temp_root;
  if (root.empty()) {
    const char* t = getenv("TMPDIR");
    root = t && *t ? t : "/tmp";
  }
  sweep_abandoned(root);
  std::string tmpl = (root / "ppy-backend-XXXXXX").string();
  std::unique_ptr<BackendProcess> p(new BackendProcess());
  {
    // From the folder's making to its slot, no handler on this thread: one
    // would find a folder that no slot names.
    FatalSignalsBlocked fatal;
    if (!mkdtemp(tmpl.data())) return fail(str_cat("cannot make a folder in ", root.string(), ": ", strerror(errno)));
    p->run_dir_ = tmpl;
    p->slot_ = register_helper(p->run_dir_.string());  // before any child exists: a signal finds the folder
  }
  std::ofstream(fs::path(tmpl) / kDriverFile) << process_identity(getpid()) << " " << pid_namespace() << "\n";
  p->scratch_ = p->run_dir_ / "scratch";
  p->log_ = p->run_dir_ / "output.log";
  p->grace_ = opt.term_grace;
  if (mkdir(p->scratch_.c_str(), 0700) != 0) return fail(strerror(errno));  // ~BackendProcess cleans up

  OwnedFd log(open(p->log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600));
  if (!log.valid()) return fail(strerror(errno));
  OwnedFd null(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!null.valid()) return fail(strerror(errno));
  OwnedFd ours, theirs;  // the socket pair's two ends: the driver's, the helper's
  std::vector<std::string> args;
  if (opt.connection == ProcessOptions::Connection::SocketPair) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return fail(strerror(errno));
    ours.reset(pair[0]);
    theirs.reset(pair[1]);
    args = {"--fd", "3"};
  } else {
    p->socket_path_ = (p->run_dir_ / "sock").string();
    if (p->socket_path_.size() >= 100) return fail("the socket path is too long; set TMPDIR to a shorter folder");
    args = {"--socket", p->socket_path_};
  }
  args.insert(args.end(), opt.args.begin(), opt.args.end());

  p->report_ = plan_sandbox(opt.sandbox);
  const fs::path socket_dir =
      opt.connection == ProcessOptions::Connection::UnixSocket ? p->run_dir_ : fs::path();
  ChildSandbox sandbox(opt.sandbox, p->report_, p->scratch_, socket_dir);
  // Wrapped (ppy-sandbox-init, bubblewrap): the helper's own exec happens
  // later, so its outcome comes back on a pipe; the write end is fd 8 in the
  // child, the read end far from the numbers the child sets up.
  const std::vector<std::string> command =
      sandbox_command(p->report_, opt.executable, args, p->scratch_, socket_dir, opt.real_executable);
  OwnedFd ready_read, ready_write;
  if (p->report_.reaper) {
    int raw[2];
    if (pipe2(raw, O_CLOEXEC) != 0) return fail(strerror(errno));
    OwnedFd raw_read(raw[0]), raw_write(raw[1]);
    ready_read.reset(fcntl(raw[0], F_DUPFD_CLOEXEC, 10));
    ready_write.reset(fcntl(raw[1], F_DUPFD_CLOEXEC, 10));
    if (!ready_read.valid() || !ready_write.valid()) return fail(strerror(errno));
  }
  // What the child uses between vfork and exec: plain numbers, no destructors.
  const int log_fd = log.get(), null_fd = null.get(), ready_fd = ready_write.get();
  std::vector<std::string> env = sandbox_environment(opt.sandbox, opt.env, p->scratch_);
  env.insert(env.end(), opt.extra_env.begin(), opt.extra_env.end());
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string scratch = p->scratch_.string();
  const pid_t parent = getpid();
  const int child_fd = theirs.get();

  // vfork: the child borrows the driver's memory until exec instead of
  // copying its page tables, which for a driver holding a large module is
  // most of a spawn. The driver's handlers must not run in the borrowed
  // memory: signals stay blocked in the child until it has defaulted them, and
  // its mask is restored last, just before exec.
  // A child that fails before or at its exec says so here (the driver's
  // memory) and exits, rather than through Boost's error: Boost would then
  // reap it itself (WNOHANG, so maybe not), leaving the driver a pid it can
  // no longer tell from another process's. Reported this way, the child is
  // still the driver's own unreaped child when the driver reaps it.
  bool sandbox_failed = false;
  int child_errno = 0;
  std::optional<SignalsBlocked> blocked(std::in_place);
  const sigset_t mask = blocked->before();
  std::error_code ec;
  bp::child c(
      bp::exe = command[0], bp::args = std::vector<std::string>(command.begin() + 1, command.end()), bp::posix::use_vfork,
      bp::extend::on_setup([&](auto& exec) { exec.env = envp.data(); }),
      bp::extend::on_exec_setup([&](auto& exec) {
        // In the child, between vfork and exec: system calls only.
        for (int sig = 1; sig < NSIG; ++sig) {
          struct sigaction sa;
          if (sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) {
            sa.sa_handler = SIG_DFL;
            sa.sa_flags = 0;
            sigaction(sig, &sa, nullptr);
          }
        }
        // A session of its own (so a process group of its own): no
        // controlling terminal the helper could inject input into.
        setsid();
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(125);
        dup2(null_fd, 0);
        dup2(log_fd, 1);
        dup2(log_fd, 2);
        if (child_fd >= 0) {
          if (child_fd == 3) fcntl(3, F_SETFD, 0);
          else dup2(child_fd, 3);
        }
        syscall(SYS_close_range, 4u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */);
        if (ready_fd >= 0) dup2(ready_fd, kSandboxReadyFd);  // the copy is not close-on-exec
        if (chdir(scratch.c_str()) != 0 || !sandbox.apply()) {
          sandbox_failed = true;  // the driver's memory: it reads this after
          child_errno = errno ? errno : EPERM;
          _exit(126);
        }
        sigprocmask(SIG_SETMASK, &mask, nullptr);  // last: the helper starts with the driver's mask
      }),
      bp::extend::on_exec_error([&](auto& exec, const std::error_code& e) {
        // In the child, its exec failed: Boost has set its error, which is cleared.
        child_errno = e.value() ? e.value() : ENOEXEC;
        exec.set_error(std::error_code(), "");
        _exit(127);
      }),
      ec);
  blocked.reset();
  // The child has its copies (or is gone): the driver keeps only its own ends.
  log.reset();
  null.reset();
  theirs.reset();
  ready_write.reset();
  // No child (the vfork itself failed): nothing to reap.
  if (ec) return fail(ec.message());
  c.detach();
  if (child_errno) {
    pid_t failed = c.id();
    while (failed > 0 && waitpid(failed, nullptr, 0) < 0 && errno == EINTR) {
    }
    const std::string why = std::error_code(child_errno, std::system_category()).message();
    return fail(str_cat(sandbox_failed ? "sandbox setup failed: " : "", why,
                        p->output_tail().empty() ? "" : "\n" + p->output_tail()));
  }
  p->pid_ = c.id();
  p->pidfd_ = pidfd_open(p->pid_);  // our unreaped child: the pid is still its own
  p->fd_ = ours.release();
  if (p->slot_ >= 0) {
    g_slots[p->slot_].pidfd.store(p->pidfd_);  // before the pid: the cleanup reads the pid first
    g_slots[p->slot_].pid.store(p->pid_);
  }
  if (ready_read.valid()) {
    // From here a failure's ~BackendProcess ends what was started.
    std::string why = wait_until_started(ready_read.get());
    ready_read.reset();
    if (!why.empty()) return fail(str_cat(why, p->output_tail().empty() ? "" : "\n" + p->output_tail()));
  }
  return p;
}

BackendProcess::~BackendProcess() {
  terminate();
  // When the signal or exit cleanup took the helper, it may still be using
  // the pidfd: the process is ending, so it is left open.
  if (pidfd_ >= 0 && !taken_by_cleanup_) close(pidfd_);
}

int BackendProcess::take_fd() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

std::string BackendProcess::output_tail(size_t max_lines) const {
  std::lock_guard<std::mutex> lock(mu_);
  return tail_locked(max_lines);
}

std::string BackendProcess::tail_locked(size_t max_lines) const {
  std::string data;
  if (cleaned_) {
    data = final_tail_;
  } else {
    std::ifstream in(log_, std::ios::binary);
    if (!in) return {};
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    std::streamoff from = size > 65536 ? size - 65536 : 0;
    in.seekg(from);
    data.resize(static_cast<size_t>(size - from));
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
  }
  std::vector<std::string_view> lines;
  std::string_view rest = data;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
  std::string tail;
  for (size_t i = from; i < lines.size(); ++i) str_append(tail, i > from ? "\n" : "", lines[i]);
  return tail;
}

ExitInfo BackendProcess::poll() {
  std::lock_guard<std::mutex> lock(mu_);
  return poll_locked();
}

bool BackendProcess::claim_locked() {
  if (!claimed_ && slot_ >= 0) {
    int expected = kLive;  // our slot is Live until we or the cleanup take it
    if (!g_slots[slot_].state.compare_exchange_strong(expected, kOwned)) {
      taken_by_cleanup_ = true;
      return false;
    }
  }
  return claimed_ = true;
}

ExitInfo BackendProcess::poll_locked() {
  if (pid_ <= 1 || !exit_.running()) return exit_;
  siginfo_t info = {};
  if (wait_child(pidfd_, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno == ECHILD) exit_ = kReapedByCleanup;
    return exit_;
  }
  if (info.si_pid != pid_) return exit_;
  // Ours to reap, not the signal handler's: once reaped its pid may be reused,
  // and the handler must not find it in the registry then.
  if (!claim_locked()) return exit_ = kReapedByCleanup;
  // Exited but not reaped: its pid (and group) cannot be reused yet, so the
  // group can be killed safely (grandchildren it left).
  if (!is_self(pid_)) ::kill(-pid_, SIGKILL);
  int r;
  while ((r = wait_child(pidfd_, pid_, &info, WEXITED)) < 0 && errno == EINTR) {
  }
  if (r < 0) exit_ = kReapedByCleanup;
  else if (info.si_code == CLD_EXITED) exit_ = {ExitInfo::Kind::Exited, info.si_status, 0};
  else exit_ = {ExitInfo::Kind::Signaled, 0, info.si_status};  // CLD_KILLED, CLD_DUMPED
  return exit_;
}

ExitInfo BackendProcess::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return wait_locked(lock, timeout);
}

ExitInfo BackendProcess::wait_locked(std::unique_lock<std::mutex>& lock, std::chrono::milliseconds timeout) {
  if (!poll_locked().running()) return exit_;
  auto end = std::chrono::steady_clock::now() + timeout;
  const int pfd = pidfd_;  // ours for its whole life
  while (poll_locked().running()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    // Others may poll or stop it meanwhile; the pid stays ours until reaped.
    lock.unlock();
    if (pfd >= 0) {
      struct pollfd p = {pfd, POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(left.count()));
    } else {
      std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(2)));
    }
    lock.lock();
  }
  return exit_;
}

ExitInfo BackendProcess::finish(bool graceful) {
  std::unique_lock<std::mutex> lock(mu_);
  if (cleaned_) return exit_;
  // The signal handler, once it has the slot, kills, reaps and removes it all.
  if (!claim_locked()) exit_ = kReapedByCleanup;
  const bool started = pid_ > 1;  // spawn may have failed before the child
  if (started && poll_locked().running() && graceful) {
    signal_helper(pidfd_, pid_, SIGTERM);  // claimed and running: only we reap it
    wait_locked(lock, grace_);
  }
  if (cleaned_) return exit_;  // another caller finished it while we waited
  if (started && exit_.running()) {
    signal_helper(pidfd_, pid_, SIGKILL);
    wait_locked(lock, std::chrono::milliseconds(10'000));
    if (cleaned_) return exit_;
  }
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  final_tail_ = tail_locked(200);
  if (claimed_) {
    std::error_code ec;
    if (!run_dir_.empty()) fs::remove_all(run_dir_, ec);
    int owned = kOwned;  // the cleanup may have taken it meanwhile: then it is no longer ours to free
    if (slot_ >= 0) g_slots[slot_].state.compare_exchange_strong(owned, kFree);
  }
  slot_ = -1;
  cleaned_ = true;
  return exit_;
}

ExitInfo BackendProcess::terminate() { return finish(true); }
ExitInfo BackendProcess::kill() { return finish(false); }

}  // namespace ppy::host
