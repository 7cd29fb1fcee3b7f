#include "ppy/host/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>

#include "loader_needs.h"
#include "ppy/host/env.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::host {

// The Debian headers stop at Landlock ABI 2; the later bits are stable ABI.
namespace ll {
constexpr uint64_t kWriteFile = 1ull << 1, kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5,
                   kMakeChar = 1ull << 6, kMakeDir = 1ull << 7, kMakeReg = 1ull << 8, kMakeSock = 1ull << 9,
                   kMakeFifo = 1ull << 10, kMakeBlock = 1ull << 11, kMakeSym = 1ull << 12, kRefer = 1ull << 13,
                   kTruncate = 1ull << 14;
constexpr uint64_t kBindTcp = 1ull << 0, kConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1;
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};
struct PathBeneath {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));
constexpr int kRulePathBeneath = 1;

/// Grants `rights` beneath `path` in `ruleset`. In the child: system calls only.
bool allow_beneath(int ruleset, const char* path, uint64_t rights) noexcept {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return false;
  PathBeneath beneath = {rights, fd};
  bool ok = syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &beneath, 0) == 0;
  close(fd);
  return ok;
}

uint64_t write_rights(int abi) {
  uint64_t r = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock | kMakeFifo |
               kMakeBlock | kMakeSym;
  if (abi >= 2) r |= kRefer;
  if (abi >= 3) r |= kTruncate;
  return r;
}
}  // namespace ll

namespace {

int landlock_abi_now() {
  long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

/// `flags`, with a user namespace of its own when not root (an unprivileged
/// process may make other namespaces only inside one).
int with_user_namespace(int flags) { return geteuid() == 0 ? flags : (flags | CLONE_NEWUSER); }

/// Writes `text` to `file`, system calls only.
bool put_file(const char* file, const char* text) noexcept {
  int fd = open(file, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t n = strlen(text);
  bool ok = write(fd, text, n) == static_cast<ssize_t>(n);
  close(fd);
  return ok;
}

/// After unshare(CLONE_NEWUSER): the process keeps its own uid and gid
/// inside (without a map it would be the overflow id, 65534).
bool map_own_ids(const char* uid_map, const char* gid_map) noexcept {
  return put_file("/proc/self/uid_map", uid_map) && put_file("/proc/self/setgroups", "deny") &&
         put_file("/proc/self/gid_map", gid_map);
}

std::string id_map_line(unsigned id) { return str_cat(id, " ", id, " 1\n"); }

/// In a forked child: whether it may enter namespaces `flags` (mapping its
/// ids when that takes a user namespace), and for a PID namespace, whether
/// its first child there can run.
bool can_unshare(int flags) {
  std::string uid_map = id_map_line(geteuid()), gid_map = id_map_line(getegid());
  pid_t pid = fork();
  if (pid == 0) {
    int all = with_user_namespace(flags);
    if (unshare(all) != 0) _exit(1);
    if ((all & CLONE_NEWUSER) && !map_own_ids(uid_map.c_str(), gid_map.c_str())) _exit(1);
    if (flags & CLONE_NEWPID) {
      pid_t init = fork();
      if (init == 0) _exit(getpid() == 1 ? 0 : 1);
      int st = 0;
      if (init < 0 || waitpid(init, &st, 0) != init || !WIFEXITED(st) || WEXITSTATUS(st) != 0) _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

/// Runs `argv` with stdout and stderr to /dev/null; whether it exited 0.
bool runs_cleanly(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// The folders of the system a strict helper sees read-only (programs,
/// libraries, configuration): none holds a unix socket. Merged-/usr links
/// stay links.
constexpr const char* kSystemFolders[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys"};

/// bubblewrap's options for a strict helper, up to the `--` before the command.
std::vector<std::string> bubblewrap_options(const fs::path& bwrap) {
  std::vector<std::string> o = {bwrap.string(), "--die-with-parent", "--as-pid-1", "--unshare-all"};
  if (geteuid() == 0) o.insert(o.end(), {"--cap-drop", "ALL"});  // root keeps no capability inside
  for (const char* dir : kSystemFolders) {
    struct stat st;
    if (lstat(dir, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      fs::path target = fs::read_symlink(dir, ec);
      if (!ec) o.insert(o.end(), {"--symlink", target.string(), dir});
    } else if (S_ISDIR(st.st_mode)) {
      o.insert(o.end(), {"--ro-bind", dir, dir});
    }
  }
  o.insert(o.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
  return o;
}

/// The filter: inet sockets and io_uring (which could open them around the
/// filter) fail with EACCES; a foreign architecture's calls kill the process.
bool install_seccomp_net() noexcept {
#if defined(__x86_64__)
  constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
  constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
  return false;
#endif
  constexpr uint32_t kDeny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),  // x32 numbers
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 4),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 1, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

void child_say(const char* what) noexcept {
  // Runs between vfork and exec: strerror may translate (locale, allocation);
  // strerrordesc_np is glibc's plain table.
  const char* e = strerrordesc_np(errno);
  if (!e) e = "unknown error";
  ssize_t r = write(2, "ppy sandbox: ", 13);
  r = write(2, what, strlen(what));
  r = write(2, ": ", 2);
  r = write(2, e, strlen(e));
  r = write(2, "\n", 1);
  (void)r;
}

/// The first line of `path`, or "-" when it cannot be read (absent sysctls included).
std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  return in && std::getline(in, line) ? line : std::string("-");
}

/// Everything that can change what the namespace and seccomp probes find: the
/// kernel and this boot of it, the sysctls that gate (unprivileged) user, net
/// and PID namespaces, this process's ids, capabilities, no_new_privs and
/// seccomp state, and the namespaces it runs in (another container, another
/// key).
std::string probe_key() {
  std::string key = "ppy-sandbox-probes 1\n";
  for (const char* f : {"/proc/sys/kernel/osrelease", "/proc/sys/kernel/version", "/proc/sys/kernel/random/boot_id",
                        "/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces",
                        "/proc/sys/user/max_net_namespaces", "/proc/sys/user/max_pid_namespaces",
                        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
                        "/proc/sys/kernel/seccomp/actions_avail"})
    str_append(key, f, "=", first_line(f), "\n");
  str_append(key, "ids=", geteuid(), ",", getegid(), "\n");
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("CapEff:") || line.starts_with("NoNewPrivs:") || line.starts_with("Seccomp:"))
      str_append(key, line, "\n");
  for (const char* ns : {"/proc/self/ns/user", "/proc/self/ns/pid", "/proc/self/ns/net", "/proc/self/ns/mnt"}) {
    struct stat st;
    if (stat(ns, &st) == 0) str_append(key, ns, "=", st.st_dev, ":", st.st_ino, "\n");
  }
  return key;
}

/// Where the probes' answers are kept: a file per key (FNV-1a of it) under
/// the user's cache folder, holding the key itself so that only an exact match
/// answers. Empty when there is no such folder.
fs::path probe_file(const std::string& key) {
  auto base = process_env()("XDG_CACHE_HOME");
  fs::path dir;
  if (base && !base->empty()) {
    dir = fs::path(*base) / "ppy";
  } else if (auto home = process_env()("HOME"); home && !home->empty()) {
    dir = fs::path(*home) / ".cache" / "ppy";
  } else {
    return {};
  }
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  return dir / str_cat("sandbox-probes-", h);
}

}  // namespace

bool landlock_available() { return landlock_abi_now() > 0; }

const SandboxSupport& sandbox_support() {
  // Probing forks the driver three or four times: a third of a no-op build's
  // kernel time, for answers that change only with what probe_key() covers.
  // So they are kept between runs, keyed on all of it.
  static SandboxSupport support = [] {
    SandboxSupport s;
    s.landlock_abi = landlock_abi_now();  // a system call: asked each time
    const std::string key = probe_key();
    const fs::path file = probe_file(key);
    if (!file.empty()) {
      std::ifstream in(file, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (text.size() == key.size() + 6 && text.starts_with(key) && text.ends_with("\n")) {
        std::string_view a = std::string_view(text).substr(key.size(), 5);  // "N N N"
        if (a[1] == ' ' && a[3] == ' ' && (a[0] | 1) == '1' && (a[2] | 1) == '1' && (a[4] | 1) == '1') {
          s.net_namespace = a[0] == '1';
          s.pid_namespace = a[2] == '1';
          s.seccomp = a[4] == '1';
          return s;
        }
      }
    }
    s.net_namespace = can_unshare(CLONE_NEWNET);
    s.pid_namespace = can_unshare(CLONE_NEWPID);
    pid_t pid = fork();
    if (pid == 0) _exit(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && install_seccomp_net() ? 0 : 1);
    int status = 0;
    s.seccomp = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!file.empty()) {
      // Written whole under a temporary name, then renamed: a reader sees all or nothing.
      std::error_code ec;
      fs::create_directories(file.parent_path(), ec);
      fs::path tmp = file;
      tmp += str_cat(".", getpid(), ".tmp");
      {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << key << (s.net_namespace ? '1' : '0') << ' ' << (s.pid_namespace ? '1' : '0') << ' '
            << (s.seccomp ? '1' : '0') << '\n';
      }
      if (ec || ::rename(tmp.c_str(), file.c_str()) != 0) fs::remove(tmp, ec);
    }
    return s;
  }();
  return support;
}

const BubblewrapSupport& bubblewrap_support() {
  static BubblewrapSupport support = [] {
    BubblewrapSupport b;
    fs::path found;
    std::string path = process_env()("PATH").value_or("/usr/local/bin:/usr/bin:/bin");
    for (size_t from = 0; from <= path.size();) {
      size_t colon = path.find(':', from);
      std::string dir = path.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
      if (!dir.empty() && executable_file(fs::path(dir) / "bwrap")) {
        found = fs::path(dir) / "bwrap";
        break;
      }
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
    if (found.empty()) {
      b.why = "bubblewrap (bwrap) is not installed";
      return b;
    }
    std::vector<std::string> probe = bubblewrap_options(found);
    probe.insert(probe.end(), {"--", found.string(), "--version"});
    if (!runs_cleanly(probe)) {
      b.why = str_cat(found.string(), " cannot make its namespaces here (user namespaces refused?)");
      return b;
    }
    b.program = found.string();
    return b;
  }();
  return support;
}

fs::path sandbox_init_program() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && executable_file(exe.parent_path() / "ppy-sandbox-init")) return exe.parent_path() / "ppy-sandbox-init";
  fs::path installed = running_install_prefix() / "lib" / "ppy" / "ppy-sandbox-init";
  return executable_file(installed) ? installed : fs::path();
}

SandboxPolicy policy_from(const HostSettings& s) {
  SandboxPolicy p;
  p.mode = s.sandbox_or_default();
  if (s.pass_env) p.pass_env = *s.pass_env;
  if (s.memory_mb) p.memory_bytes = *s.memory_mb << 20;
  if (s.cpu_seconds) p.cpu_seconds = *s.cpu_seconds;
  if (s.file_size_mb) p.file_size_bytes = *s.file_size_mb << 20;
  return p;
}

SandboxReport plan_sandbox(const SandboxPolicy& policy) {
  SandboxReport r;
  r.mode = policy.mode;
  r.scratch_cwd = true;
  if (policy.mode == SandboxMode::Off) return r;
  r.scrubbed_env = true;
  r.rlimits = true;
  r.memory_bytes = policy.memory_bytes;
  r.cpu_seconds = policy.cpu_seconds;
  r.file_size_bytes = policy.file_size_bytes;
  const bool strict = policy.mode == SandboxMode::Strict;
  const SandboxSupport& s = sandbox_support();

  r.init_program = policy.init_program.empty() ? sandbox_init_program() : policy.init_program;
  r.reaper = executable_file(r.init_program);
  if (!r.reaper) {
    r.init_program.clear();
    r.missing.push_back("no process it starts outlives it (ppy-sandbox-init is not installed beside ppy)");
  }
  std::string no_bubblewrap = "ppy-sandbox-init is not installed";
  if (strict && r.reaper && !policy.avoid_pid_namespace) {
    const BubblewrapSupport& b = bubblewrap_support();
    if (policy.avoid_bubblewrap || policy.prefer_seccomp) {
      no_bubblewrap = "bubblewrap is not used";
    } else if (!b.program.empty()) {
      r.bubblewrap = true;
      r.bubblewrap_program = b.program;
      r.pid_namespace = true;
      r.net_namespace = true;
      return r;
    } else {
      no_bubblewrap = b.why;
    }
  }

  if (r.reaper && s.pid_namespace && !policy.avoid_pid_namespace) {
    r.pid_namespace = true;
  } else if (r.reaper) {
    r.missing.push_back(
        "what it starts ends with it even when it is killed outright (no PID namespace here; it is ended when the "
        "helper ends or is stopped)");
  }
  if (s.landlock_abi > 0) {
    r.landlock_abi = s.landlock_abi;
    r.landlock_writes = true;
    r.landlock_tcp = strict && s.landlock_abi >= 4;
    r.landlock_scoped = strict && s.landlock_abi >= 6;
  } else {
    r.missing.push_back("writes confined to the scratch folder (this kernel has no Landlock)");
  }
  if (!strict) return r;
  if (s.net_namespace && !policy.prefer_seccomp) {
    r.net_namespace = true;
  } else if (s.seccomp) {
    r.seccomp_net = true;
  } else {
    r.missing.push_back("no network (neither a network namespace nor seccomp is allowed here)");
  }
  r.missing.push_back(str_cat("the driver's process hidden from it (a private /proc; ", no_bubblewrap, ")"));
  r.missing.push_back(str_cat("unix sockets outside its folders unreachable (", no_bubblewrap, ")"));
  if (!r.abstract_sockets_closed()) r.missing.push_back("abstract unix sockets unreachable (no network namespace or Landlock ABI 6)");
  return r;
}

namespace {

/// Whether a helper's last output says an allocation was refused: what C++
/// (an uncaught std::bad_alloc), C (strerror(ENOMEM)), glibc's and Python's
/// allocators print before an abort.
bool says_allocation_failed(std::string_view tail) {
  for (std::string_view evidence : {"std::bad_alloc", "Cannot allocate memory", "out of memory", "Out of memory",
                                    "memory exhausted", "MemoryError"})
    if (tail.find(evidence) != std::string_view::npos) return true;
  return false;
}

}  // namespace

std::string SandboxReport::limit_hint(int signal, std::string_view tail) const {
  if (!rlimits) return {};
  switch (signal) {
    case SIGXCPU: return str_cat(" -- past its CPU limit of ", cpu_seconds, " s");
    case SIGXFSZ: return str_cat(" -- past its file-size limit of ", file_size_bytes >> 20, " MiB");
    case SIGABRT:  // an allocation refused under RLIMIT_AS, if its output says so; else a plain abort()
      if (!says_allocation_failed(tail)) return {};
      return str_cat(" (it runs under a memory limit of ", memory_bytes >> 20, " MiB, which an allocation past fails)");
    default: return {};
  }
}

std::string SandboxReport::summary() const {
  std::string out(sandbox_mode_name(mode));
  if (mode == SandboxMode::Off) {
    return out + ": none (the helper inherits the driver's environment and limits; only its process group is ended)";
  }
  out += ": scrubbed environment, rlimits, scratch folder as working directory";
  if (bubblewrap) {
    out += "; bubblewrap: PID, mount, network, IPC and UTS namespaces: a private /proc (the driver is invisible), "
           "only the system folders and its own folder (read-only) and its scratch folder (writes only there), so no "
           "unix socket outside them; no network";
  }
  if (landlock_writes) str_append(out, "; Landlock ABI ", landlock_abi, ": writes only beneath the scratch folder");
  if (landlock_tcp) out += ", TCP bind/connect denied";
  if (landlock_scoped) out += ", abstract unix sockets and signals scoped to the sandbox";
  if (net_namespace && !bubblewrap) out += "; network namespace of its own (no network, no abstract unix sockets)";
  if (seccomp_net) out += "; seccomp: inet sockets denied (no network)";
  if (reaper && pid_namespace) {
    out += bubblewrap ? "; ppy-sandbox-init as its PID 1: no process it starts outlives it"
                      : "; ppy-sandbox-init in a PID namespace of its own: no process it starts outlives it";
  } else if (reaper) {
    out += "; ppy-sandbox-init as subreaper: what it starts is killed when it ends";
  }
  for (const auto& m : missing) str_append(out, "; NOT in force: ", m);
  return out;
}

std::vector<std::string> sandbox_environment(const SandboxPolicy& policy, const EnvLookup& env,
                                             const std::filesystem::path& scratch) {
  std::vector<std::string> out;
  if (policy.mode == SandboxMode::Off) {
    for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
    return out;
  }
  auto path = env("PATH");
  out.push_back(str_cat("PATH=", path ? *path : std::string("/usr/local/bin:/usr/bin:/bin")));
  auto lang = env("LANG");
  out.push_back(str_cat("LANG=", lang ? *lang : std::string("C.UTF-8")));
  if (auto lc = env("LC_ALL")) out.push_back(str_cat("LC_ALL=", *lc));
  out.push_back(str_cat("HOME=", scratch.string()));
  out.push_back(str_cat("TMPDIR=", scratch.string()));
  for (const auto& name : policy.pass_env) {
    if (name.empty() || name.find('=') != std::string::npos) continue;
    if (name == "HOME" || name == "TMPDIR" || name == "PATH" || name == "LANG") continue;
    if (auto v = env(name)) out.push_back(str_cat(name, "=", *v));
  }
  return out;
}

fs::path real_executable(const fs::path& executable) {
  std::error_code ec;
  fs::path real = fs::canonical(executable, ec);
  return ec ? fs::path() : real;
}

namespace {

/// Whether `p` lies beneath `dir` (lexically: both absolute and normal).
bool beneath(const fs::path& p, const fs::path& dir) {
  auto [d, q] = std::mismatch(dir.begin(), dir.end(), p.begin(), p.end());
  return d == dir.end();
}

/// Whether `p` is beneath one of the system folders a strict helper sees.
bool in_system_folder(const fs::path& p) {
  for (const char* dir : kSystemFolders)
    if (beneath(p, dir)) return true;
  return false;
}

}  // namespace

std::vector<std::string> sandbox_command(const SandboxReport& plan, const fs::path& executable,
                                         const std::vector<std::string>& args, const fs::path& scratch,
                                         const fs::path& socket_dir, const fs::path& real) {
  const fs::path exe = fs::absolute(executable);
  std::vector<std::string> cmd;
  if (plan.reaper) {
    cmd = {plan.init_program.string(), "run"};
    if (!plan.bubblewrap) cmd.push_back("--init");
    cmd.push_back("--");
  }
  if (plan.bubblewrap) {
    std::vector<std::string> bw = bubblewrap_options(plan.bubblewrap_program);
    cmd.insert(cmd.end(), bw.begin(), bw.end());
    // The helper's own folder (its distribution's files); only the file
    // itself when that folder is one many programs share (sockets live there).
    const fs::path dir = exe.parent_path();
    const auto home = process_env()("HOME");
    const bool shared = dir == exe.root_path() || dir == "/tmp" || dir == "/var/tmp" || dir == "/run" ||
                        dir == "/var/run" || dir == "/home" || dir == "/root" || dir == "/dev/shm" ||
                        (home && dir == fs::path(*home));
    const std::string visible = (shared ? exe : dir).string();
    cmd.insert(cmd.end(), {"--ro-bind", visible, visible});
    // The file it really is (a vendor's executable the distribution links
    // to, wherever it lies) and what its loader opens to start it, each alone:
    // visible, read-only, at the path it is opened by. The helper is run by
    // that real path.
    fs::path program = real.empty() ? real_executable(exe) : real;
    if (program.empty()) program = exe;  // missing: its exec says why
    std::vector<fs::path> bound;
    auto seen = [&](const fs::path& p) {
      if (in_system_folder(p) || p == visible || (!shared && beneath(p, dir))) return true;
      return std::find(bound.begin(), bound.end(), p) != bound.end();
    };
    if (!seen(program)) bound.push_back(program);
    for (const fs::path& need : internal::loader_needs(program, seen)) bound.push_back(need);
    for (const fs::path& file : bound) cmd.insert(cmd.end(), {"--ro-bind", file.string(), file.string()});
    cmd.insert(cmd.end(), {"--ro-bind", plan.init_program.string(), plan.init_program.string()});
    // The unix-socket fallback binds its socket in the run folder, which holds scratch/.
    const fs::path& writable = socket_dir.empty() ? scratch : socket_dir;
    cmd.insert(cmd.end(), {"--bind", writable.string(), writable.string(), "--chdir", scratch.string(), "--",
                           plan.init_program.string(), "init", "--", program.string()});
  } else {
    cmd.push_back(exe.string());
  }
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

ChildSandbox::ChildSandbox(const SandboxPolicy& policy, const SandboxReport& plan, const std::filesystem::path& scratch,
                           const std::filesystem::path& socket_dir)
    : plan_(plan),
      limits_(policy),
      scratch_(scratch.string()),
      socket_dir_(socket_dir.string()),
      uid_map_(id_map_line(geteuid())),
      gid_map_(id_map_line(getegid())) {
  // Bubblewrap makes the namespaces of a strict helper itself.
  if (!plan.bubblewrap) {
    if (plan.pid_namespace) unshare_flags_ |= CLONE_NEWPID;
    if (plan.net_namespace) unshare_flags_ |= CLONE_NEWNET;
    if (unshare_flags_) unshare_flags_ = with_user_namespace(unshare_flags_);
  }
}

bool ChildSandbox::apply() const noexcept {
  if (plan_.rlimits) {
    struct rlimit core = {0, 0};
    struct rlimit as = {limits_.memory_bytes, limits_.memory_bytes};
    struct rlimit cpu = {limits_.cpu_seconds, limits_.cpu_seconds + 5};  // SIGXCPU, then SIGKILL
    struct rlimit fsize = {limits_.file_size_bytes, limits_.file_size_bytes};
    if (setrlimit(RLIMIT_CORE, &core) || setrlimit(RLIMIT_AS, &as) || setrlimit(RLIMIT_CPU, &cpu) ||
        setrlimit(RLIMIT_FSIZE, &fsize)) {
      child_say("setrlimit");
      return false;
    }
  }
  // A PID namespace applies to the children of the process that enters it:
  // ppy-sandbox-init's child is its PID 1.
  if (unshare_flags_ && unshare(unshare_flags_) != 0) {
    child_say("unshare (PID or network namespace)");
    return false;
  }
  if ((unshare_flags_ & CLONE_NEWUSER) && !map_own_ids(uid_map_.c_str(), gid_map_.c_str())) {
    child_say("writing the user namespace's id maps");
    return false;
  }
  if ((plan_.landlock_writes || plan_.seccomp_net) && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    child_say("prctl(PR_SET_NO_NEW_PRIVS)");
    return false;
  }
  if (plan_.landlock_writes) {
    const int abi = plan_.landlock_abi;
    ll::RulesetAttr attr = {ll::write_rights(abi), 0, 0};
    size_t size = sizeof(uint64_t);
    if (plan_.landlock_tcp) {
      attr.handled_access_net = ll::kBindTcp | ll::kConnectTcp;
      size = 2 * sizeof(uint64_t);
    }
    if (plan_.landlock_scoped) {
      attr.scoped = ll::kScopeAbstractUnix | ll::kScopeSignal;
      size = sizeof attr;
    }
    int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset < 0) {
      child_say("landlock_create_ruleset");
      return false;
    }
    if (!ll::allow_beneath(ruleset, scratch_.c_str(), ll::write_rights(abi))) {
      child_say("landlock_add_rule (scratch folder)");
      return false;
    }
    if (!socket_dir_.empty() && !ll::allow_beneath(ruleset, socket_dir_.c_str(), ll::kMakeSock)) {
      child_say("landlock_add_rule (socket folder)");
      return false;
    }
    // Writing to /dev/null is not an escape; where the rule fails, it is simply refused.
    (void)ll::allow_beneath(ruleset, "/dev/null", ll::kWriteFile | (abi >= 3 ? ll::kTruncate : 0));
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
      child_say("landlock_restrict_self");
      return false;
    }
    close(ruleset);
  }
  if (plan_.seccomp_net && !install_seccomp_net()) {
    child_say("seccomp");
    return false;
  }
  return true;
}

}  // namespace ppy::host
