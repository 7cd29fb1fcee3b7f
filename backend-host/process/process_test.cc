#include "ppy/host/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stddef.h>
#include <fcntl.h>
#include <string.h>
#include <sys/un.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>
#include <vector>

#include "ppy/host/sandbox.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

namespace ppy::host {
namespace {

class ProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ppy-proc-test-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// A shell script helper; it ignores the `--fd 3` it is given.
  fs::path script(const std::string& body) {
    fs::path p = dir_ / ("helper" + std::to_string(n_++) + ".sh");
    std::ofstream(p) << "#!/bin/bash\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
    return p;
  }
  std::unique_ptr<BackendProcess> start(const std::string& body, SandboxPolicy policy = {}) {
    ProcessOptions o;
    o.executable = script(body);
    o.sandbox = policy;
    o.env = [this](std::string_view k) -> std::optional<std::string> {
      if (k == "PATH") return std::string("/usr/bin:/bin");
      if (k == "SECRET") return std::string("s3cret");
      if (k == "PASSED") return std::string("yes");
      return std::nullopt;
    };
    auto p = BackendProcess::spawn(std::move(o));
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? std::move(*p) : nullptr;
  }
  /// Runs a helper to its end and answers its output.
  std::string output_of(const std::string& body, SandboxPolicy policy = {}) {
    auto p = start(body, policy);
    if (!p) return {};
    ExitInfo e = p->wait_for(10s);
    EXPECT_FALSE(e.running());
    return p->output_tail(100);
  }

  fs::path dir_;
  int n_ = 0;
};

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

/// Processes whose command line holds `marker`. A process that ends while
/// its cmdline is read fails the read (ESRCH): it is not counted. (An
/// istreambuf_iterator over an ifstream throws there instead, and did, under load.)
int processes_with(const std::string& marker) {
  int n = 0;
  for (auto& e : fs::directory_iterator("/proc")) {
    absl::StatusOr<std::string> cmd = read_file(e.path() / "cmdline");
    if (cmd.ok() && cmd->find(marker) != std::string::npos && cmd->rfind("sleep", 0) == 0) ++n;
  }
  return n;
}
/// Waits up to 5 s for the processes holding `marker` to be gone.
bool all_gone(const std::string& marker) {
  for (int i = 0; i < 500; ++i) {
    if (processes_with(marker) == 0) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}


TEST_F(ProcessTest, ExitStatusAndTheLastLinesOfItsOutput) {
  auto p = start("for i in $(seq 1 30); do echo line$i >&2; done; echo out; exit 3");
  ASSERT_TRUE(p);
  ExitInfo e = p->wait_for(10s);
  EXPECT_EQ(e.kind, ExitInfo::Kind::Exited);
  EXPECT_EQ(e.code, 3);
  EXPECT_EQ(e.describe(), "exited with status 3");
  std::string tail = p->output_tail(20);
  EXPECT_THAT(tail, HasSubstr("line12\n"));
  EXPECT_THAT(tail, Not(HasSubstr("line11\n")));
  EXPECT_THAT(tail, HasSubstr("line30\nout"));
}

TEST_F(ProcessTest, CrashIsNamedBySignal) {
  auto p = start("kill -SEGV $$");
  ASSERT_TRUE(p);
  ExitInfo e = p->wait_for(10s);
  EXPECT_EQ(e.kind, ExitInfo::Kind::Signaled);
  EXPECT_EQ(signal_name(e.signal), "SIGSEGV");
  EXPECT_THAT(e.describe(), HasSubstr("was killed by SIGSEGV"));
}

TEST_F(ProcessTest, AHelperThatCannotBeExecutedIsALoadErrorAtOnce) {
  // It exists and is executable, but its interpreter does not: exec fails
  // after the run folder is made, and nothing is left to wait for.
  ProcessOptions o;
  o.executable = dir_ / "no-interpreter.sh";
  std::ofstream(o.executable) << "#!/nonexistent/interpreter\n";
  fs::permissions(o.executable, fs::perms::owner_all);
  o.temp_root = dir_ / "runs";
  fs::create_directories(o.temp_root);
  auto t0 = std::chrono::steady_clock::now();
  auto p = BackendProcess::spawn(o);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1903");
  EXPECT_TRUE(fs::is_empty(o.temp_root));  // its folder is gone with it
  EXPECT_EQ(live_helper_count(), 0);
}

/// Descriptors open in this process now.
int open_fds() {
  int n = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

TEST_F(ProcessTest, AFailedSpawnLeavesNoDescriptorOpen) {
  // Each refusal comes after the log, /dev/null and (for exec) the socket pair
  // are open: a socket path too long to bind, and a helper exec refuses.
  fs::path deep = dir_ / std::string(60, 'd') / std::string(60, 'e');
  fs::create_directories(deep);
  fs::path runs = dir_ / "runs";
  fs::create_directories(runs);
  ProcessOptions too_long;
  too_long.executable = script("exit 0");
  too_long.connection = ProcessOptions::Connection::UnixSocket;
  too_long.temp_root = deep;
  ProcessOptions no_exec;
  no_exec.executable = dir_ / "no-interpreter.sh";
  std::ofstream(no_exec.executable) << "#!/nonexistent/interpreter\n";
  fs::permissions(no_exec.executable, fs::perms::owner_all);
  no_exec.temp_root = runs;
  for (const ProcessOptions& o : {too_long, no_exec}) {
    const int before = open_fds();
    auto p = BackendProcess::spawn(o);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(error_code(p.status()), "E1903");
    EXPECT_EQ(open_fds(), before) << p.status();
    EXPECT_TRUE(fs::is_empty(o.temp_root));  // its run folder is gone too
  }
  EXPECT_EQ(live_helper_count(), 0);
}

TEST_F(ProcessTest, ASpawnOutOfDescriptorsLeavesNoneOpen) {
  // Room for the log and /dev/null, none for the socket pair after them.
  fs::path runs = dir_ / "runs";
  fs::create_directories(runs);
  ProcessOptions o;
  o.executable = script("exit 0");
  o.temp_root = runs;
  int a = open("/dev/null", O_RDONLY | O_CLOEXEC), b = open("/dev/null", O_RDONLY | O_CLOEXEC);
  close(a);
  close(b);
  if (b != a + 1) GTEST_SKIP() << "the next two descriptors are not adjacent";
  const int before = open_fds();
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
  struct rlimit tight = old;
  tight.rlim_cur = static_cast<rlim_t>(b + 1);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &tight), 0);
  auto p = BackendProcess::spawn(o);
  setrlimit(RLIMIT_NOFILE, &old);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1903");
  EXPECT_EQ(open_fds(), before) << p.status();
  EXPECT_TRUE(fs::is_empty(runs));
  EXPECT_EQ(live_helper_count(), 0);
}

TEST_F(ProcessTest, MissingExecutableIsALoadError) {
  ProcessOptions o;
  o.executable = dir_ / "no-such-helper";
  auto p = BackendProcess::spawn(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(error_code(p.status()), "E1903");
  EXPECT_THAT(error_text(p.status()), HasSubstr("no-such-helper could not be started"));
}

TEST_F(ProcessTest, TerminateEndsReapsAndRemovesFolders) {
  auto p = start("echo started >&2; exec sleep 100");
  ASSERT_TRUE(p);
  pid_t pid = p->pid();
  fs::path run = p->run_dir();
  EXPECT_TRUE(fs::is_directory(p->scratch_dir()));
  EXPECT_EQ(live_helper_count(), 1);
  ExitInfo e = p->terminate();
  EXPECT_EQ(e.kind, ExitInfo::Kind::Signaled);
  EXPECT_EQ(e.signal, SIGTERM);
  EXPECT_FALSE(alive(pid));                // reaped: not even a zombie
  EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_FALSE(fs::exists(run));
  EXPECT_EQ(live_helper_count(), 0);
  EXPECT_EQ(p->terminate().signal, SIGTERM);  // idempotent
}

TEST_F(ProcessTest, ManyThreadsStoppingOneHelperAgreeOnHowItEnded) {
  // Parallel calls on one helper each stop it when theirs fails. Whatever the
  // interleaving, the pid stays the helper's (never -1: kill(-1) signals every
  // process the user owns), it is reaped once, and all see one ending.
  for (int round = 0; round < 20; ++round) {
    auto p = start("exec sleep 100");
    ASSERT_TRUE(p);
    const pid_t pid = p->pid();
    ASSERT_GT(pid, 1);
    std::vector<ExitInfo> seen(8);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i)
      threads.emplace_back([&, i] { seen[i] = i % 2 ? p->kill() : p->terminate(); });
    for (auto& t : threads) t.join();
    EXPECT_EQ(p->pid(), pid);
    for (const ExitInfo& e : seen) {
      EXPECT_EQ(e.kind, ExitInfo::Kind::Signaled);
      EXPECT_EQ(e.signal, seen[0].signal);
    }
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);
    EXPECT_FALSE(fs::exists(p->run_dir()));
    EXPECT_EQ(live_helper_count(), 0);
  }
}

TEST_F(ProcessTest, ACrashSeenByManyThreadsIsTheCrashForAll) {
  // Each thread polls; only one may reap, and the others must not read the
  // ECHILD of a second waitpid as "exited with status 0".
  auto p = start("sleep 0.2; kill -SEGV $$");
  ASSERT_TRUE(p);
  std::vector<ExitInfo> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = p->wait_for(10s); });
  for (auto& t : threads) t.join();
  for (const ExitInfo& e : seen) EXPECT_EQ(e.describe(), "was killed by SIGSEGV (Segmentation fault)");
}

TEST_F(ProcessTest, FoldersOfADriverThatIsGoneAreSweptAtTheNextSpawn) {
  // A SIGKILLed driver cannot remove its helpers' folders; the next one does.
  auto folder = [](const fs::path& root, const std::string& name, const std::string& driver) {
    fs::create_directories(root / name / "scratch");
    if (!driver.empty()) std::ofstream(root / name / "driver") << driver << "\n";
    return root / name;
  };
  struct stat ns_stat;
  ASSERT_EQ(stat("/proc/self/ns/pid", &ns_stat), 0);
  const std::string ns = " " + std::to_string(ns_stat.st_ino);
  fs::path root = dir_ / "tmp";
  fs::path dead = folder(root, "ppy-backend-dead00", "999999999 1" + ns);  // no such pid
  fs::path reused = folder(root, "ppy-backend-reuse0", std::to_string(getpid()) + " 1" + ns);  // our pid, not our start
  fs::path unknown = folder(root, "ppy-backend-older0", "");  // no driver file: not ours to judge
  fs::path elsewhere = folder(root, "ppy-backend-conta0", "999999999 1 12345");  // another pid namespace
  fs::path other = folder(root, "not-ppy-at-all", "999999999 1" + ns);
  ProcessOptions o;
  o.executable = script("exec sleep 100");
  o.temp_root = root;
  auto p = BackendProcess::spawn(o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(unknown));
  EXPECT_TRUE(fs::exists(elsewhere));
  EXPECT_TRUE(fs::exists(other));
  // A live driver's folder stays: ours, as a second root's sweep sees it.
  std::ifstream in((*p)->run_dir() / "driver");
  std::string us;
  ASSERT_TRUE(std::getline(in, us));
  EXPECT_EQ(us.substr(0, us.find(' ')), std::to_string(getpid()));
  fs::path root2 = dir_ / "tmp2";
  fs::path alive = folder(root2, "ppy-backend-alive0", us);
  fs::path dead2 = folder(root2, "ppy-backend-dead01", "999999999 1" + ns);
  o.temp_root = root2;
  auto p2 = BackendProcess::spawn(o);
  ASSERT_TRUE(p2.ok()) << p2.status();
  EXPECT_TRUE(fs::exists(alive));
  EXPECT_FALSE(fs::exists(dead2));
  (*p)->kill();
  (*p2)->kill();
}

TEST_F(ProcessTest, IgnoringSigtermGetsSigkill) {
  auto p = start("trap '' TERM; echo ready >&2; while :; do sleep 0.05; done");
  ASSERT_TRUE(p);
  for (int i = 0; i < 200 && p->output_tail().find("ready") == std::string::npos; ++i) std::this_thread::sleep_for(5ms);
  ExitInfo e = p->terminate();
  EXPECT_EQ(e.kind, ExitInfo::Kind::Signaled);
  EXPECT_EQ(e.signal, SIGKILL);
}

TEST_F(ProcessTest, GrandchildrenDieWithTheGroup) {
  // Found by command line: in a PID namespace the helper's pids are not ours.
  std::string mark = "1000." + std::to_string(getpid()) + "77";
  auto p = start("sleep " + mark + " & exec sleep 100");
  ASSERT_TRUE(p);
  for (int i = 0; i < 500 && processes_with(mark) == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(processes_with(mark), 1);
  p->terminate();
  EXPECT_TRUE(all_gone(mark));
}

TEST_F(ProcessTest, SocketPairIsFd3AndNothingElseLeaks) {
  int leak = dup2(0, 57);  // not close-on-exec
  ASSERT_EQ(leak, 57);
  auto p = start("echo ping >&3; if [ -e /proc/self/fd/57 ]; then echo LEAK >&2; fi; sleep 0.2");
  close(57);
  ASSERT_TRUE(p);
  int fd = p->take_fd();
  ASSERT_GE(fd, 0);
  char buf[16] = {};
  ASSERT_GT(read(fd, buf, sizeof buf - 1), 0);
  EXPECT_STREQ(buf, "ping\n");
  close(fd);
  p->wait_for(10s);
  EXPECT_THAT(p->output_tail(), Not(HasSubstr("LEAK")));
}

TEST_F(ProcessTest, UnixSocketFallbackIsPassedAsAPath) {
  ProcessOptions o;
  o.executable = script("echo \"$1 $2\" >&2");
  o.connection = ProcessOptions::Connection::UnixSocket;
  auto p = BackendProcess::spawn(o);
  ASSERT_TRUE(p.ok());
  (*p)->wait_for(10s);
  EXPECT_EQ((*p)->output_tail(), "--socket " + (*p)->socket_path());
  EXPECT_EQ((*p)->take_fd(), -1);
  EXPECT_EQ(fs::path((*p)->socket_path()).parent_path(), (*p)->run_dir());
  EXPECT_EQ(fs::status((*p)->run_dir()).permissions() & fs::perms::all, fs::perms::owner_all);
}

TEST_F(ProcessTest, DefaultSandboxScrubsEnvironmentAndSetsLimits) {
  SandboxPolicy policy;
  policy.pass_env = {"PASSED"};
  policy.memory_bytes = uint64_t{1} << 30;
  policy.cpu_seconds = 77;
  policy.file_size_bytes = uint64_t{3} << 20;
  auto p = start("env >&2; echo core=$(ulimit -c) as=$(ulimit -v) cwd=$(pwd) >&2; "
                 "echo cpu=$(ulimit -t) fsize=$(ulimit -f) >&2", policy);
  ASSERT_TRUE(p);
  p->wait_for(10s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("HOME=" + p->scratch_dir().string()));
  EXPECT_THAT(out, HasSubstr("PASSED=yes"));
  EXPECT_THAT(out, Not(HasSubstr("SECRET")));
  EXPECT_THAT(out, HasSubstr("core=0 as=1048576 cwd=" + p->scratch_dir().string()));
  EXPECT_THAT(out, HasSubstr("cpu=77 fsize=3072"));  // ulimit -f counts 1 KiB blocks
  EXPECT_TRUE(p->sandbox().scrubbed_env);
  EXPECT_TRUE(p->sandbox().rlimits);
}

TEST_F(ProcessTest, AFileWrittenPastTheLimitEndsTheHelperAndSaysWhichLimit) {
  SandboxPolicy policy;
  policy.file_size_bytes = uint64_t{1} << 20;
  auto p = start("exec head -c 3000000 /dev/zero > big", policy);
  ASSERT_TRUE(p);
  ExitInfo e = p->wait_for(10s);
  EXPECT_EQ(e.kind, ExitInfo::Kind::Signaled);
  EXPECT_EQ(signal_name(e.signal), "SIGXFSZ");
  EXPECT_EQ(p->sandbox().limit_hint(e.signal), " -- past its file-size limit of 1 MiB");
}

// SIGABRT is any abort(): the memory limit is the cause only when the output
// says an allocation was refused.
TEST(LimitHint, AnAbortNamesTheMemoryLimitOnlyOnEvidence) {
  SandboxReport r;
  r.rlimits = true;
  r.memory_bytes = 512ull << 20;
  const std::string hint = " (it runs under a memory limit of 512 MiB, which an allocation past fails)";
  EXPECT_EQ(r.limit_hint(SIGABRT, "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc"), hint);
  EXPECT_EQ(r.limit_hint(SIGABRT, "vendor: mmap: Cannot allocate memory"), hint);
  EXPECT_EQ(r.limit_hint(SIGABRT, "MemoryError"), hint);
  EXPECT_EQ(r.limit_hint(SIGABRT, "vendor: assertion `n > 0' failed"), "");
  EXPECT_EQ(r.limit_hint(SIGABRT), "");
  r.rlimits = false;  // no limit in force: never the limit's fault
  EXPECT_EQ(r.limit_hint(SIGABRT, "std::bad_alloc"), "");
}

TEST_F(ProcessTest, SandboxOffInheritsTheEnvironment) {
  setenv("PPY_PROCESS_TEST_MARK", "inherited", 1);
  SandboxPolicy policy;
  policy.mode = SandboxMode::Off;
  EXPECT_THAT(output_of("echo mark=$PPY_PROCESS_TEST_MARK >&2", policy), HasSubstr("mark=inherited"));
}

TEST_F(ProcessTest, MemoryLimitStopsUnboundedAllocation) {
  SandboxPolicy policy;
  policy.memory_bytes = uint64_t{256} << 20;
  auto p = start("x=a; while :; do x=$x$x; done", policy);
  ASSERT_TRUE(p);
  ExitInfo e = p->wait_for(60s);
  EXPECT_FALSE(e.running());
  EXPECT_FALSE(e.kind == ExitInfo::Kind::Exited && e.code == 0);
}

/// A TCP listener on 127.0.0.1 the helpers try to reach.
struct Listener {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  Listener() {
    sockaddr_in a = {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(fd, 4);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~Listener() { close(fd); }
};

std::string escape_script(const fs::path& outside, int port) {
  return "if echo x > " + outside.string() + " 2>/dev/null; then echo WRITE=ok >&2; else echo WRITE=denied >&2; fi\n"
         "if echo y > \"$HOME/inside\"; then echo SCRATCH=ok >&2; fi\n"
         "if (exec 5<>/dev/tcp/127.0.0.1/" + std::to_string(port) +
         ") 2>/dev/null; then echo TCP=ok >&2; else echo TCP=denied >&2; fi";
}

TEST_F(ProcessTest, SandboxOffDoesNotConfine) {
  Listener l;
  fs::path outside = dir_ / "outside-off";
  SandboxPolicy policy;
  policy.mode = SandboxMode::Off;
  std::string out = output_of(escape_script(outside, l.port), policy);
  // The control for the tests below: the same script escapes here.
  EXPECT_THAT(out, HasSubstr("WRITE=ok"));
  EXPECT_THAT(out, HasSubstr("TCP=ok"));
  EXPECT_TRUE(fs::exists(outside));
}

TEST_F(ProcessTest, DefaultSandboxConfinesWritesToTheScratchFolder) {
  if (!landlock_available()) GTEST_SKIP() << "kernel lacks Landlock";
  // The project's artifact cache is the driver's: a helper writing there
  // could poison what another backend built.
  Listener l;
  fs::path cache = dir_ / "cache";
  fs::create_directories(cache);
  auto p = start(escape_script(cache / "artifact.o", l.port) + "\necho z > /dev/null && echo NULL=ok >&2");
  ASSERT_TRUE(p);
  p->wait_for(10s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("WRITE=denied"));
  EXPECT_THAT(out, HasSubstr("SCRATCH=ok"));
  EXPECT_THAT(out, HasSubstr("NULL=ok"));
  EXPECT_THAT(out, HasSubstr("TCP=ok"));  // default mode keeps the network
  EXPECT_FALSE(fs::exists(cache / "artifact.o"));
  EXPECT_TRUE(p->sandbox().writes_confined());
}

TEST_F(ProcessTest, StrictSandboxConfinesWritesAndNetwork) {
  const SandboxSupport& s = sandbox_support();
  if (s.landlock_abi == 0 || !s.net_namespace) GTEST_SKIP() << "kernel lacks Landlock or network namespaces";
  Listener l;
  fs::path outside = dir_ / "outside-strict";
  SandboxPolicy policy;
  policy.mode = SandboxMode::Strict;
  auto p = start(escape_script(outside, l.port), policy);
  ASSERT_TRUE(p);
  p->wait_for(10s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("WRITE=denied"));
  EXPECT_THAT(out, HasSubstr("SCRATCH=ok"));
  EXPECT_THAT(out, HasSubstr("TCP=denied"));
  EXPECT_FALSE(fs::exists(outside));
  EXPECT_TRUE(p->sandbox().writes_confined());
  EXPECT_TRUE(p->sandbox().net_namespace);
  EXPECT_THAT(p->sandbox().summary(), HasSubstr("strict: "));
  if (p->sandbox().bubblewrap) EXPECT_THAT(p->sandbox().summary(), Not(HasSubstr("NOT in force")));
}

TEST_F(ProcessTest, StrictWithoutBubblewrapStillConfinesWritesAndNetwork) {
  const SandboxSupport& s = sandbox_support();
  if (s.landlock_abi == 0 || !s.net_namespace) GTEST_SKIP() << "kernel lacks Landlock or network namespaces";
  Listener l;
  fs::path outside = dir_ / "outside-strict";
  SandboxPolicy policy;
  policy.mode = SandboxMode::Strict;
  policy.avoid_bubblewrap = true;
  auto p = start(escape_script(outside, l.port) + "\necho ping >&3", policy);
  ASSERT_TRUE(p);
  int fd = p->take_fd();
  char buf[8] = {};
  EXPECT_GT(read(fd, buf, 5), 0);  // the inherited unix socket still works
  close(fd);
  p->wait_for(10s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("WRITE=denied"));
  EXPECT_THAT(out, HasSubstr("SCRATCH=ok"));
  EXPECT_THAT(out, HasSubstr("TCP=denied"));
  EXPECT_TRUE(p->sandbox().landlock_writes);
  EXPECT_FALSE(p->sandbox().bubblewrap);
  // What only bubblewrap gives is said to be missing, never claimed.
  EXPECT_THAT(p->sandbox().summary(), HasSubstr("NOT in force: the driver's process hidden from it"));
  EXPECT_THAT(p->sandbox().summary(), HasSubstr("NOT in force: unix sockets outside its folders unreachable"));
}

/// A unix socket listening at a path, and one in the abstract namespace.
struct UnixListeners {
  fs::path dir;
  std::string path, abstract;
  int fd_path = socket(AF_UNIX, SOCK_STREAM, 0), fd_abstract = socket(AF_UNIX, SOCK_STREAM, 0);
  UnixListeners() {
    char tmpl[] = "/tmp/ppy-agent-XXXXXX";  // apart from the helper's own folder
    dir = mkdtemp(tmpl);
    path = (dir / "agent.sock").string();
    abstract = "ppy-test-agent-" + std::to_string(getpid());
    sockaddr_un a = {};
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path, path.c_str(), path.size());
    bind(fd_path, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(fd_path, 4);
    sockaddr_un b = {};
    b.sun_family = AF_UNIX;
    memcpy(b.sun_path + 1, abstract.c_str(), abstract.size());
    bind(fd_abstract, reinterpret_cast<sockaddr*>(&b), offsetof(sockaddr_un, sun_path) + 1 + abstract.size());
    listen(fd_abstract, 4);
  }
  ~UnixListeners() {
    close(fd_path);
    close(fd_abstract);
    fs::remove_all(dir);
  }
  /// Tries both, as an ssh-agent's or docker's client would.
  std::string script() const {
    auto attempt = [](const std::string& label, const std::string& address) {
      return "if python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' '" + address +
             "' 2>/dev/null; then echo " + label + "=ok >&2; else echo " + label + "=denied >&2; fi\n";
    };
    return attempt("UNIX", path) + "if python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); "
           "s.connect(\"\\0\" + sys.argv[1])' '" + abstract + "' 2>/dev/null; then echo ABSTRACT=ok >&2; "
           "else echo ABSTRACT=denied >&2; fi\n";
  }
};

TEST_F(ProcessTest, StrictSandboxReachesNoUnixSocketOutsideItsFolders) {
  if (!bubblewrap_support().program.size()) GTEST_SKIP() << bubblewrap_support().why;
  if (system("python3 -c '' 2>/dev/null") != 0) GTEST_SKIP() << "no python3 to connect with";
  UnixListeners agent;
  // The control: the default sandbox leaves both reachable.
  std::string open = output_of(agent.script());
  EXPECT_THAT(open, HasSubstr("UNIX=ok"));
  EXPECT_THAT(open, HasSubstr("ABSTRACT=ok"));
  SandboxPolicy policy;
  policy.mode = SandboxMode::Strict;
  auto p = start(agent.script() + "echo ping >&3", policy);
  ASSERT_TRUE(p);
  int fd = p->take_fd();
  char buf[8] = {};
  EXPECT_GT(read(fd, buf, 5), 0);  // the inherited unix socket still works
  close(fd);
  p->wait_for(20s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("UNIX=denied"));
  EXPECT_THAT(out, HasSubstr("ABSTRACT=denied"));
  EXPECT_TRUE(p->sandbox().pathname_sockets_closed());
  EXPECT_TRUE(p->sandbox().abstract_sockets_closed());
}

class DaemonTest : public ProcessTest, public ::testing::WithParamInterface<int> {
 protected:
  SandboxPolicy policy() const {
    SandboxPolicy p;
    p.mode = GetParam() == 0 || GetParam() == 3 ? SandboxMode::Default : SandboxMode::Strict;
    p.avoid_bubblewrap = GetParam() == 2;
    p.avoid_pid_namespace = GetParam() == 3;
    return p;
  }
  /// A number no other process has on its command line.
  std::string marker() {
    static int made = 0;
    return "1000." + std::to_string(getpid()) + std::to_string(++made);
  }
  /// Starts a helper that daemonises `sleep MARKER` (its own session, so not
  /// in the group the driver kills), then runs `rest`; waits for the daemon.
  std::unique_ptr<BackendProcess> start_daemon(const std::string& mark, const std::string& rest) {
    auto p = start("setsid sleep " + mark + " </dev/null >/dev/null 2>&1 &\n"
                   "while ! pgrep -f 'sleep " + mark + "' >/dev/null; do sleep 0.01; done\n" + rest, policy());
    for (int i = 0; i < 500 && p && processes_with(mark) == 0; ++i) std::this_thread::sleep_for(10ms);
    return p;
  }
};

TEST_P(DaemonTest, ADaemonEndsWhenTheHelperExits) {
  std::string mark = marker();
  auto p = start_daemon(mark, "exit 0");
  ASSERT_TRUE(p);
  ExitInfo e = p->wait_for(10s);
  EXPECT_EQ(e.describe(), "exited with status 0");
  EXPECT_TRUE(all_gone(mark)) << p->sandbox().summary();
}

TEST_P(DaemonTest, ADaemonEndsWhenTheHelperIsStopped) {
  std::string mark = marker();
  auto p = start_daemon(mark, "exec sleep 100");
  ASSERT_TRUE(p);
  ASSERT_EQ(processes_with(mark), 1);
  EXPECT_EQ(p->terminate().signal, SIGTERM);
  EXPECT_TRUE(all_gone(mark)) << p->sandbox().summary();
}

TEST_P(DaemonTest, ADaemonEndsWhenTheHelperIsKilled) {
  std::string mark = marker();
  auto p = start_daemon(mark, "exec sleep 100");
  ASSERT_TRUE(p);
  if (!p->sandbox().pid_namespace) GTEST_SKIP() << "no PID namespace here: " << p->sandbox().summary();
  ASSERT_EQ(processes_with(mark), 1);
  EXPECT_EQ(p->kill().signal, SIGKILL);
  EXPECT_TRUE(all_gone(mark)) << p->sandbox().summary();
}

std::string daemon_test_name(const ::testing::TestParamInfo<int>& info) {
  static const char* const kNames[] = {"Default", "Strict", "StrictWithoutBubblewrap", "DefaultAsSubreaper"};
  return kNames[info.param];
}
INSTANTIATE_TEST_SUITE_P(Modes, DaemonTest, ::testing::Values(0, 1, 2, 3), daemon_test_name);

TEST_F(ProcessTest, CrashesAndExitStatusesPassThroughTheSandboxUnchanged) {
  for (SandboxMode mode : {SandboxMode::Default, SandboxMode::Strict}) {
    SCOPED_TRACE(std::string(sandbox_mode_name(mode)));
    SandboxPolicy policy;
    policy.mode = mode;
    auto crash = start("kill -SEGV $$", policy);
    ASSERT_TRUE(crash);
    EXPECT_EQ(signal_name(crash->wait_for(20s).signal), "SIGSEGV");
    auto exit3 = start("exit 3", policy);
    ASSERT_TRUE(exit3);
    EXPECT_EQ(exit3->wait_for(20s).describe(), "exited with status 3");
  }
}

/// Run by StrictSandboxHidesTheDriver in a process whose own environment,
/// from its start, holds a secret.
TEST_F(ProcessTest, StrictSandboxHidesTheDriverInner) {
  const char* secret = getenv("PPY_TEST_DRIVER_SECRET");
  if (!secret) GTEST_SKIP() << "run by StrictSandboxHidesTheDriver";
  // What a hostile helper does: the parent's environment, then everyone's.
  std::string hunt = std::string("cat /proc/$PPID/environ 2>/dev/null | tr '\\0' '\\n' | grep '") + secret +
                     "' >&2\ngrep -l -a '" + secret + "' /proc/[0-9]*/environ 2>/dev/null | sed 's/^/FOUND /' >&2\n"
                     "echo scanned >&2";
  SandboxPolicy off;
  off.mode = SandboxMode::Off;
  // The control: unsandboxed, the parent's environment is the driver's.
  std::string leaked = output_of(hunt, off);
  EXPECT_THAT(leaked, HasSubstr(std::string("PPY_TEST_DRIVER_SECRET=") + secret));
  SandboxPolicy policy;
  policy.mode = SandboxMode::Strict;
  auto p = start(hunt, policy);
  ASSERT_TRUE(p);
  p->wait_for(20s);
  std::string out = p->output_tail(100);
  EXPECT_THAT(out, HasSubstr("scanned"));
  EXPECT_THAT(out, Not(HasSubstr("FOUND")));
  EXPECT_THAT(out, Not(HasSubstr(secret)));
  EXPECT_TRUE(p->sandbox().driver_hidden());
}

TEST_F(ProcessTest, StrictSandboxHidesTheDriver) {
  if (!bubblewrap_support().program.size()) GTEST_SKIP() << bubblewrap_support().why;
  pid_t pid = fork();
  if (pid == 0) {
    setenv("PPY_TEST_DRIVER_SECRET", ("hunter2-" + std::to_string(getpid())).c_str(), 1);
    execl("/proc/self/exe", "ppy_host_process_test", "--gtest_filter=ProcessTest.StrictSandboxHidesTheDriverInner",
          nullptr);
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "see ProcessTest.StrictSandboxHidesTheDriverInner's output above";
}

TEST_F(ProcessTest, SeccompFallbackDeniesInetSockets) {
  if (!sandbox_support().seccomp) GTEST_SKIP() << "no seccomp";
  Listener l;
  SandboxPolicy policy;
  policy.mode = SandboxMode::Strict;
  policy.prefer_seccomp = true;
  auto p = start("if (exec 5<>/dev/tcp/127.0.0.1/" + std::to_string(l.port) +
                     ") 2>/dev/null; then echo TCP=ok >&2; else echo TCP=denied >&2; fi; echo ping >&3",
                 policy);
  ASSERT_TRUE(p);
  int fd = p->take_fd();
  char buf[8] = {};
  EXPECT_GT(read(fd, buf, 5), 0);  // the inherited unix socket still works
  close(fd);
  p->wait_for(10s);
  EXPECT_THAT(p->output_tail(), HasSubstr("TCP=denied"));
  EXPECT_TRUE(p->sandbox().seccomp_net);
  EXPECT_FALSE(p->sandbox().net_namespace);
}

TEST(SandboxReport, NeverClaimsWhatIsMissing) {
  SandboxReport r;
  r.mode = SandboxMode::Strict;
  r.missing.push_back("no network (x)");
  EXPECT_THAT(r.summary(), HasSubstr("NOT in force: no network"));
  EXPECT_FALSE(r.no_network());
}

/// Forks a "driver" that spawns a helper and reports its pid and folder, then
/// dies by `how`; answers the helper's pid and folder.
std::pair<pid_t, std::string> driver_dies(const fs::path& helper, int how, bool cleanup) {
  int pipefd[2];
  EXPECT_EQ(pipe(pipefd), 0);
  pid_t driver = fork();
  if (driver == 0) {
    if (cleanup) install_signal_cleanup();
    ProcessOptions o;
    o.executable = helper;
    auto p = BackendProcess::spawn(o);
    if (!p.ok()) _exit(3);
    std::string msg = std::to_string((*p)->pid()) + " " + (*p)->run_dir().string();
    (void)!write(pipefd[1], msg.data(), msg.size());
    close(pipefd[1]);
    std::this_thread::sleep_for(100ms);
    raise(how);
    std::this_thread::sleep_for(10s);
    _exit(4);
  }
  close(pipefd[1]);
  char buf[600] = {};
  size_t n = 0;
  ssize_t r;
  while ((r = read(pipefd[0], buf + n, sizeof buf - 1 - n)) > 0) n += r;
  close(pipefd[0]);
  int status = 0;
  waitpid(driver, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), how);
  std::string s(buf);
  size_t sp = s.find(' ');
  return {static_cast<pid_t>(std::stoi(s.substr(0, sp))), s.substr(sp + 1)};
}

class DriverDeathTest : public ProcessTest {
 protected:
  void SetUp() override {
    ProcessTest::SetUp();
    // Orphaned helpers are reparented to us, so we can see how they ended.
    prctl(PR_SET_CHILD_SUBREAPER, 1);
  }
  void TearDown() override {
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    ProcessTest::TearDown();
  }
};

TEST_F(DriverDeathTest, SigintHandlerEndsHelpersAndRemovesFolders) {
  auto [pid, run] = driver_dies(script("exec sleep 100"), SIGINT, true);
  // The handler killed and reaped it before the driver died.
  EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_FALSE(alive(pid));
  EXPECT_FALSE(fs::exists(run));
}

TEST_F(DriverDeathTest, ASignalTheDriverIgnoresLeavesItsHelpersAlone) {
  // As under nohup: SIGHUP was ignored before the driver set its handlers.
  fs::path helper = script("exec sleep 100");
  pid_t driver = fork();
  if (driver == 0) {
    signal(SIGHUP, SIG_IGN);
    install_signal_cleanup();  // this test process never calls it: the child's is the first
    ProcessOptions o;
    o.executable = helper;
    auto p = BackendProcess::spawn(o);
    if (!p.ok()) _exit(3);
    raise(SIGHUP);
    std::this_thread::sleep_for(100ms);
    bool running = (*p)->poll().running();
    (*p)->kill();
    _exit(running ? 0 : 5);
  }
  int status = 0;
  waitpid(driver, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the driver died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "its helper was ended";
}

TEST_F(DriverDeathTest, SigkilledDriverTakesItsHelperAlong) {
  auto [pid, run] = driver_dies(script("exec sleep 100"), SIGKILL, false);
  int status = 0;
  pid_t r = -1;
  for (int i = 0; i < 500 && r != pid; ++i) {
    r = waitpid(pid, &status, WNOHANG);
    if (r != pid) std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(r, pid);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);  // PR_SET_PDEATHSIG
  fs::remove_all(run);                   // nobody was left to remove it: a SIGKILL cannot be handled
}

// Issue 38: a build that had printed its summary exited by SIGKILL. A pid
// is only a number: once its child is reaped (here by a stray waitpid, the
// thief a failed spawn used to be) the kernel gives it to the next process or
// thread, and kill() of a thread id ends that thread's whole process. The
// exit cleanup (what the handlers and the exit hook run) used to kill a Live
// helper's raw pid and group; it now signals through the pidfd, and only a
// child that is still unreaped.
TEST_F(ProcessTest, TheCleanupNeverSignalsAPidReusedByTheDriversOwnThread) {
  fs::path helper = script("exit 0");
  pid_t driver = fork();
  if (driver == 0) {
    SandboxPolicy off;
    off.mode = SandboxMode::Off;
    ProcessOptions o;
    o.executable = helper;
    o.sandbox = off;
    auto p = BackendProcess::spawn(o);
    if (!p.ok()) _exit(3);
    const pid_t stale = (*p)->pid();
    if (waitpid(stale, nullptr, 0) != stale) _exit(4);  // reaped behind the host's back
    // Threads until one of them is given the helper's old number.
    std::atomic<bool> release{false};
    std::thread holder;
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (!holder.joinable() && std::chrono::steady_clock::now() < end) {
      for (int i = 0; i < 256 && !holder.joinable(); ++i) {
        std::atomic<int> seen{0};
        std::thread t([&] {
          seen = static_cast<int>(gettid());
          if (seen == stale)
            while (!release) std::this_thread::sleep_for(1ms);
        });
        while (seen == 0) std::this_thread::yield();
        if (seen == stale) {
          holder = std::move(t);
        } else {
          t.join();
        }
      }
    }
    if (!holder.joinable()) _exit(2);  // not reused in time (a large pid_max): nothing to show
    kill_all_helpers();  // the exit hook's work, with the helper still registered Live
    (*p)->kill();
    release = true;
    holder.join();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(driver, &status, 0), driver);
  ASSERT_FALSE(WIFSIGNALED(status)) << "the driver was killed by its own cleanup: signal " << WTERMSIG(status);
  if (WEXITSTATUS(status) == 2) GTEST_SKIP() << "the helper's pid was not reused within 10 s here";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// The sandbox probes' answers are kept between runs (each driver forked three
// or four times to find them), keyed on what can change them: a later process
// reads the kept answer, and one kept under another key is not used.
TEST(SandboxProbes, AreKeptBetweenRunsUnderTheirKey) {
  fs::path cache = fs::temp_directory_path() / ("ppy-probes-" + std::to_string(getpid()));
  fs::remove_all(cache);
  auto in_child = [&] {  // a fresh process's answers, as bits
    pid_t pid = fork();
    if (pid == 0) {
      setenv("XDG_CACHE_HOME", cache.c_str(), 1);
      const SandboxSupport& s = sandbox_support();
      _exit((s.net_namespace ? 1 : 0) | (s.pid_namespace ? 2 : 0) | (s.seccomp ? 4 : 0));
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  const int probed = in_child();
  std::vector<fs::path> kept;
  for (auto& e : fs::directory_iterator(cache / "ppy")) kept.push_back(e.path());
  ASSERT_EQ(kept.size(), 1u);
  std::string text = read_file(kept[0]).value();
  ASSERT_GT(text.size(), 6u);
  EXPECT_THAT(text, HasSubstr("/proc/sys/kernel/osrelease="));
  // Answers flipped in the file are believed: the later process did not probe.
  std::string flipped = text;
  for (size_t at : {text.size() - 6, text.size() - 4, text.size() - 2})
    flipped[at] = flipped[at] == '1' ? '0' : '1';
  ASSERT_TRUE(write_file_atomic(kept[0], flipped).ok());
  EXPECT_EQ(in_child(), 7 - probed);
  // Under another key (another kernel, sysctl, namespace...), they are not.
  ASSERT_TRUE(write_file_atomic(kept[0], "another key\n" + flipped.substr(flipped.size() - 6)).ok());
  EXPECT_EQ(in_child(), probed);
  fs::remove_all(cache);
}

}  // namespace
}  // namespace ppy::host
