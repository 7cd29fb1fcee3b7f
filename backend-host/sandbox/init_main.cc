// ppy-sandbox-init: what stands between the driver and a sandboxed helper, so
// that no process the helper starts outlives it.
//
//   ppy-sandbox-init run [--init] -- PROGRAM ARGS...
//   ppy-sandbox-init init -- PROGRAM ARGS...
//
// `run` is the driver's child. The driver may have put it into a PID
// namespace of its own (unshare before exec): its child is then that
// namespace's init, and when the init ends the kernel kills every process left
// in it, even when `run` itself is SIGKILLed. With --init its child runs the
// init role below in-process on PROGRAM; without, the child execs PROGRAM
// (bubblewrap, which runs `init` inside its namespaces). `run` ends as the
// helper did: with its exit status, or killed by its signal, so the driver
// reports a crash as it always did.
//
// `init` runs PROGRAM as its child. As PID 1 of a namespace it only has to
// end; otherwise it is a child subreaper (PR_SET_CHILD_SUBREAPER) and kills
// every descendant the helper left before it ends. It writes the helper's wait
// status (4 bytes) to fd 9 when that is open, and whether PROGRAM could be
// executed (4 bytes: 0, or the errno) to fd 8 when that is open.
//
// Both roles are single-threaded programs of their own; their signal handlers
// do nothing.
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kReadyFd = 8;   // whether PROGRAM was executed (the driver reads it)
constexpr int kStatusFd = 9;  // the helper's wait status (`run` reads it)

/// Signals the driver sends a helper's process group to end it: they reach
/// the helper directly (it is in the same group), so here they do nothing.
/// A handler, not SIG_IGN: an ignored disposition would pass to the helper.
constexpr int kEndSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
void on_end_signal(int) {}

void say(const char* what, int err) {
  dprintf(2, "ppy-sandbox-init: %s: %s\n", what, strerrordesc_np(err) ? strerrordesc_np(err) : "unknown error");
}

void handle_end_signals() {
  struct sigaction sa = {};
  sa.sa_handler = on_end_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : kEndSignals) sigaction(sig, &sa, nullptr);
}

/// In a child: the parent's death kills it, and the parent must still be
/// there. A PID namespace's init sees its parent as 0: outside the namespace.
void die_with(pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) _exit(125);
  pid_t now = getppid();
  if (now != parent && !(now == 0 && getpid() == 1)) _exit(125);
}

bool write_all(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool fd_open(int fd) { return fcntl(fd, F_GETFD) >= 0; }

/// Direct children of this (single-threaded) process, from /proc.
int children_of_self(pid_t* out, int max) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/children", getpid());
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n < 0) return -1;
  buf[n] = 0;
  int count = 0;
  for (char* p = buf; *p && count < max;) {
    char* end;
    long pid = strtol(p, &end, 10);
    if (end == p) break;
    if (pid > 1) out[count++] = static_cast<pid_t>(pid);
    p = end;
  }
  return count;
}

/// As a subreaper: kills every process left below this one. A killed child's
/// own children are reparented here, so repeat until none is left.
void kill_descendants() {
  for (int round = 0; round < 10000; ++round) {
    pid_t kids[256];
    int n = children_of_self(kids, 256);
    if (n <= 0) {
      // Reap what is left (zombies), then stop when there is nothing.
      while (waitpid(-1, nullptr, WNOHANG) > 0) {
      }
      if (n == 0 && waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return;
      if (n < 0) return;  // no /proc: nothing more to find
      continue;
    }
    for (int i = 0; i < n; ++i) kill(kids[i], SIGKILL);
    for (int i = 0; i < n; ++i) waitpid(kids[i], nullptr, 0);
  }
}

/// The init role: runs PROGRAM, reaps, and answers the helper's wait status.
int init_main(char** argv) {
  bool pid1 = getpid() == 1;
  if (!pid1 && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) say("PR_SET_CHILD_SUBREAPER", errno);
  handle_end_signals();
  if (fd_open(kStatusFd)) fcntl(kStatusFd, F_SETFD, FD_CLOEXEC);
  const bool report = fd_open(kReadyFd);
  if (report) fcntl(kReadyFd, F_SETFD, FD_CLOEXEC);
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    say("pipe", errno);
    return 125;
  }
  const pid_t self = getpid();
  pid_t helper = fork();
  if (helper < 0) {
    say("fork", errno);
    return 125;
  }
  if (helper == 0) {
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    for (int sig : kEndSignals) sigaction(sig, &dfl, nullptr);
    die_with(self);
    execvp(argv[0], argv);
    int err = errno;
    write_all(exec_pipe[1], &err, sizeof err);
    dprintf(2, "ppy-sandbox-init: cannot run %s: %s\n", argv[0], strerrordesc_np(err) ? strerrordesc_np(err) : "?");
    _exit(127);
  }
  close(exec_pipe[1]);
  int32_t exec_errno = 0;
  ssize_t got;
  while ((got = read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  if (got != sizeof exec_errno) exec_errno = 0;  // EOF: the exec succeeded
  close(exec_pipe[0]);
  if (report) {
    write_all(kReadyFd, &exec_errno, sizeof exec_errno);
    close(kReadyFd);
  }
  // The helper holds the driver's socket; nothing here needs it.
  syscall(SYS_close_range, 3u, kReadyFd - 1u, 0u);

  int status = 0;
  for (;;) {
    int st = 0;
    pid_t r = waitpid(-1, &st, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;  // ECHILD: cannot happen before the helper is reaped
    }
    if (r == helper) {
      status = st;
      break;
    }
  }
  if (!pid1) kill_descendants();  // as PID 1, ending is enough: the kernel kills the rest
  if (fd_open(kStatusFd)) write_all(kStatusFd, &status, sizeof status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Ends this process as `status` says the helper ended.
[[noreturn]] void end_like(int status) {
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  int sig = WTERMSIG(status);
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);  // the helper's crash, not ours: no core of this process
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  _exit(128 + sig);
}

int run_main(bool in_process_init, char** argv) {
  handle_end_signals();
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) {
    say("pipe", errno);
    return 125;
  }
  // The write end at the fixed number the init writes to, kept across exec
  // (bubblewrap passes it on); the read end out of its way.
  int rd = fcntl(status_pipe[0], F_DUPFD_CLOEXEC, 10);
  if (rd < 0 || dup2(status_pipe[1], kStatusFd) < 0) {
    say("dup", errno);
    return 125;
  }
  close(status_pipe[0]);
  if (status_pipe[1] != kStatusFd) close(status_pipe[1]);

  const pid_t self = getpid();
  pid_t child = fork();
  if (child < 0) {
    say("fork", errno);
    return 125;
  }
  if (child == 0) {
    die_with(self);
    close(rd);
    if (in_process_init) _exit(init_main(argv));
    // Bubblewrap: the driver's SIGTERM to the group must reach the helper
    // only, not end bubblewrap (and with it the whole sandbox) at once. An
    // ignored disposition survives exec; the init inside sets its own.
    for (int sig : kEndSignals) signal(sig, SIG_IGN);
    execvp(argv[0], argv);
    int err = errno;
    say(argv[0], err);
    if (fd_open(kReadyFd)) write_all(kReadyFd, &err, sizeof err);
    _exit(127);
  }
  // Only the child and its descendants hold the driver's socket and the
  // ends of the pipes they write.
  syscall(SYS_close_range, 3u, static_cast<unsigned>(kStatusFd), 0u);

  int child_status = 0;
  while (waitpid(child, &child_status, 0) < 0) {
    if (errno != EINTR) return 125;
  }
  int helper_status = 0;
  ssize_t got;
  while ((got = read(rd, &helper_status, sizeof helper_status)) < 0 && errno == EINTR) {
  }
  end_like(got == sizeof helper_status ? helper_status : child_status);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ppy-sandbox-init run [--init] -- PROGRAM ARGS...\n"
                    "       ppy-sandbox-init init -- PROGRAM ARGS...\n");
    return 2;
  }
  bool run = strcmp(argv[1], "run") == 0, in_process_init = false;
  if (!run && strcmp(argv[1], "init") != 0) {
    fprintf(stderr, "ppy-sandbox-init: unknown command '%s'\n", argv[1]);
    return 2;
  }
  int i = 2;
  for (; i < argc && strcmp(argv[i], "--") != 0; ++i) {
    if (run && strcmp(argv[i], "--init") == 0) in_process_init = true;
    else {
      fprintf(stderr, "ppy-sandbox-init: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  if (i + 1 >= argc) {
    fprintf(stderr, "ppy-sandbox-init: no program to run\n");
    return 2;
  }
  char** program = argv + i + 1;
  return run ? run_main(in_process_init, program) : init_main(program);
}
