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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mutex>

#include "ppy/util/str_cat.h"

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

int netns_flags() { return geteuid() == 0 ? CLONE_NEWNET : (CLONE_NEWUSER | CLONE_NEWNET); }

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

}  // namespace

bool landlock_available() { return landlock_abi_now() > 0; }

const SandboxSupport& sandbox_support() {
  static SandboxSupport support = [] {
    SandboxSupport s;
    s.landlock_abi = landlock_abi_now();
    pid_t pid = fork();
    if (pid == 0) {
      int bits = 0;
      if (unshare(netns_flags()) == 0) bits |= 1;
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && install_seccomp_net()) bits |= 2;
      _exit(bits);
    }
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) {
      s.net_namespace = WEXITSTATUS(status) & 1;
      s.seccomp = WEXITSTATUS(status) & 2;
    }
    return s;
  }();
  return support;
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
  if (policy.mode != SandboxMode::Strict) return r;
  const SandboxSupport& s = sandbox_support();
  if (s.landlock_abi > 0) {
    r.landlock_abi = s.landlock_abi;
    r.landlock_writes = true;
    r.landlock_tcp = s.landlock_abi >= 4;
  } else {
    r.missing.push_back("writes confined to the scratch folder (this kernel has no Landlock)");
  }
  if (s.net_namespace && !policy.prefer_seccomp) {
    r.net_namespace = true;
  } else if (s.seccomp) {
    r.seccomp_net = true;
  } else {
    r.missing.push_back("no network (neither a network namespace nor seccomp is allowed here)");
  }
  return r;
}

std::string SandboxReport::limit_hint(int signal) const {
  if (!rlimits) return {};
  switch (signal) {
    case SIGXCPU: return str_cat(" -- past its CPU limit of ", cpu_seconds, " s");
    case SIGXFSZ: return str_cat(" -- past its file-size limit of ", file_size_bytes >> 20, " MiB");
    case SIGABRT:  // what an allocation refused under RLIMIT_AS usually ends in
      return str_cat(" (it runs under a memory limit of ", memory_bytes >> 20, " MiB, which an allocation past fails)");
    default: return {};
  }
}

std::string SandboxReport::summary() const {
  std::string out(sandbox_mode_name(mode));
  if (mode == SandboxMode::Off) return out + ": none (the helper inherits the driver's environment and limits)";
  out += ": scrubbed environment, rlimits, scratch folder as working directory";
  if (landlock_writes) str_append(out, "; Landlock ABI ", landlock_abi, ": writes only beneath the scratch folder");
  if (landlock_tcp) out += ", TCP bind/connect denied";
  if (net_namespace) out += "; network namespace of its own (no network)";
  if (seccomp_net) out += "; seccomp: inet sockets denied (no network)";
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

ChildSandbox::ChildSandbox(const SandboxPolicy& policy, const SandboxReport& plan, const std::filesystem::path& scratch,
                           const std::filesystem::path& socket_dir)
    : plan_(plan), limits_(policy), scratch_(scratch.string()), socket_dir_(socket_dir.string()) {}

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
  if (plan_.net_namespace && unshare(netns_flags()) != 0) {
    child_say("unshare(CLONE_NEWNET)");
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
    if (abi >= 4) {
      attr.handled_access_net = ll::kBindTcp | ll::kConnectTcp;
      size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
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
