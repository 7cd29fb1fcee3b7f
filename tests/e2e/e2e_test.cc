// End-to-end tests of the driver's roads (issue 6) through the real `ppy` binary:
// `ppy emit`, `ppy build`, `ppy doctor`, `ppy backends`, the BackendContext and the
// artifact cache, with the toy backend and ppy-e2e-dummy (dummy_main.cc) spawned
// out of process by the driver. Every test works in a fresh temporary folder and
// points PPY_BACKEND_PATH at the distributions it wants (CMakeLists.txt writes
// them under <build>/tests/e2e/backends/<set>/).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

extern char** environ;

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

const std::string kPpy = PPY_BINARY_DIR "/bin/ppy";
const std::string kToyDir = PPY_BINARY_DIR "/backends";
const std::string kSets = PPY_E2E_DIR "/backends";
const std::string kFixtures = PPY_E2E_FIXTURES;
const std::string kDummy = PPY_E2E_DUMMY;

// ---------------------------------------------------------------------------
// Spawning `ppy`: stdout, stderr and exit status captured, with a timeout.

struct Result {
  int status = -1;  ///< exit status; 128+N for a signal
  std::string out, err;
  bool timed_out = false;
};

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "status " << r.status << (r.timed_out ? " (timed out)" : "") << "\n--- stdout\n"
            << r.out << "\n--- stderr\n"
            << r.err;
}

struct Spawn {
  std::vector<std::string> args;                 ///< after `ppy`
  std::map<std::string, std::string> env;        ///< set (an empty value is set empty)
  std::string cwd;
  int timeout_s = 120;
  bool stdout_tty = false;  ///< stdout is a pseudo-terminal (read back into `out`)
};

/// A running `ppy`.
struct Child {
  pid_t pid = -1;
  int out_fd = -1, err_fd = -1;
};

Child start(const Spawn& s) {
  int out[2], err[2];
  int master = -1;
  std::string slave_name;
  if (s.stdout_tty) {
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return {};
    slave_name = ptsname(master);
    out[0] = master;
    out[1] = -1;
  } else if (pipe2(out, O_CLOEXEC) != 0) {
    return {};
  }
  if (pipe2(err, O_CLOEXEC) != 0) return {};

  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  env.erase("PPY_BACKEND_PATH");
  for (auto& [k, v] : s.env) env[k] = v;
  std::vector<std::string> envs;
  for (auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<std::string> argv = {kPpy};
  argv.insert(argv.end(), s.args.begin(), s.args.end());

  pid_t pid = fork();
  if (pid == 0) {
    if (s.stdout_tty) {
      setsid();
      int slave = open(slave_name.c_str(), O_RDWR);
      if (slave < 0) _exit(126);
      dup2(slave, 1);
    } else {
      dup2(out[1], 1);
    }
    dup2(err[1], 2);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    if (!s.cwd.empty() && chdir(s.cwd.c_str()) != 0) _exit(126);
    std::vector<char*> a, e;
    for (auto& x : argv) a.push_back(const_cast<char*>(x.c_str()));
    a.push_back(nullptr);
    for (auto& x : envs) e.push_back(const_cast<char*>(x.c_str()));
    e.push_back(nullptr);
    execve(a[0], a.data(), e.data());
    _exit(127);
  }
  if (!s.stdout_tty) close(out[1]);
  close(err[1]);
  return {pid, out[0], err[0]};
}

Result finish(Child c, int timeout_s) {
  Result r;
  if (c.pid < 0) {
    r.err = "could not spawn ppy";
    return r;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int fds[2] = {c.out_fd, c.err_fd};
  std::string* bufs[2] = {&r.out, &r.err};
  bool killed = false;
  while (fds[0] >= 0 || fds[1] >= 0) {
    pollfd p[2];
    int n = 0, which[2];
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) {
        p[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count());
    if (ms <= 0 && !killed) {
      kill(c.pid, SIGKILL);
      killed = true;
      r.timed_out = true;
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      continue;
    }
    if (ms <= 0) break;
    int k = poll(p, n, ms);
    if (k < 0 && errno == EINTR) continue;
    for (int j = 0; j < n; ++j) {
      if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      ssize_t got = read(fds[which[j]], buf, sizeof buf);
      if (got > 0) {
        bufs[which[j]]->append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        // EOF (or EIO on a pty whose other end is gone).
        close(fds[which[j]]);
        fds[which[j]] = -1;
      }
    }
    // A pty's master never reports EOF while we hold it; stop once ppy is gone.
    if (fds[1] < 0 && fds[0] >= 0) {
      int st;
      if (waitpid(c.pid, &st, WNOHANG) == c.pid) {
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        for (;;) {  // drain what is left
          pollfd q{fds[0], POLLIN, 0};
          if (poll(&q, 1, 50) <= 0) break;
          char buf[65536];
          ssize_t got = read(fds[0], buf, sizeof buf);
          if (got <= 0) break;
          r.out.append(buf, static_cast<size_t>(got));
        }
        close(fds[0]);
        return r;
      }
    }
  }
  for (int fd : fds)
    if (fd >= 0) close(fd);
  int st = 0;
  waitpid(c.pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

Result run(const Spawn& s) { return finish(start(s), s.timeout_s); }

// ---------------------------------------------------------------------------
// Files and text.

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

/// Relative path -> contents of every regular file under `dir`.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_file(e.path());
  return out;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (auto& [k, _] : tree(dir)) out.push_back(k);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t s = 0;
  while (s < text.size()) {
    size_t e = text.find('\n', s);
    if (e == std::string::npos) e = text.size();
    out.push_back(text.substr(s, e - s));
    s = e + 1;
  }
  return out;
}

/// The lines of `text` that contain `needle`.
std::vector<std::string> grep(const std::string& text, const std::string& needle) {
  std::vector<std::string> out;
  for (auto& l : lines_of(text))
    if (l.find(needle) != std::string::npos) out.push_back(l);
  return out;
}

/// `key=value` out of a dummy note (`... opt=2 target=t ...`); values end at a space.
std::string field(const std::string& note, const std::string& key) {
  auto p = note.find(" " + key + "=");
  if (p == std::string::npos) return "<absent>";
  p += key.size() + 2;
  auto e = note.find(' ', p);
  return note.substr(p, e == std::string::npos ? std::string::npos : e - p);
}

/// The `ids={m=hex;...}` of a dummy note.
std::map<std::string, std::string> ids_of(const std::string& note) {
  std::map<std::string, std::string> out;
  auto p = note.find("ids={");
  if (p == std::string::npos) return out;
  auto e = note.find('}', p);
  std::string body = note.substr(p + 5, e - p - 5);
  std::regex item("([^=;]+)=([^;]*)");
  for (std::sregex_iterator it(body.begin(), body.end(), item), end; it != end; ++it)
    out[(*it)[1]] = (*it)[2];
  return out;
}

/// The `id=` in the first line of a dummy artifact.
std::string artifact_id(const std::string& artifact) {
  auto p = artifact.find(" id=");
  if (p == std::string::npos) return "<none>";
  return artifact.substr(p + 4, artifact.find('\n', p) - p - 4);
}

/// The staging folders of builds into `out` that are still beside it.
std::vector<std::string> staging_left(const fs::path& out) {
  std::vector<std::string> left;
  std::string prefix = "." + out.filename().string() + ".ppy-build-";
  for (auto& e : fs::directory_iterator(out.parent_path()))
    if (e.path().filename().string().starts_with(prefix)) left.push_back(e.path().filename().string());
  return left;
}

bool is_hex64(const std::string& s) { return std::regex_match(s, std::regex("[0-9a-f]{64}")); }

/// Whether `pid` still runs (a zombie does not).
bool process_alive(pid_t pid) {
  std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return false;
  auto rp = stat.rfind(')');
  return rp == std::string::npos || rp + 2 >= stat.size() || stat[rp + 2] != 'Z';
}

// ---------------------------------------------------------------------------
// The fixture: a temporary folder, the fixture programs, and `ppy`.

class E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "ppy-e2e-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    fs::create_directories(dir_ / "home");
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir_, ec);
    else std::cerr << "kept " << dir_ << "\n";
  }

  fs::path path(const std::string& rel) const { return dir_ / rel; }
  std::string p(const std::string& rel) const { return path(rel).string(); }

  /// Copies fixtures/<name> to <dir>/<as>.
  std::string fixture(const std::string& name, const std::string& as = "") {
    fs::path to = path(as.empty() ? name : as);
    fs::create_directories(to.parent_path());
    fs::copy(fs::path(kFixtures) / name, to, fs::copy_options::recursive);
    return to.string();
  }

  /// The three-module project at <dir>/<as>, with `extra` appended to its pyproject.toml.
  std::string multi(const std::string& extra = "", const std::string& as = "multi") {
    std::string root = fixture("multi", as);
    write_pyproject(root, extra);
    return root;
  }
  void write_pyproject(const std::string& root, const std::string& extra) {
    write_file(fs::path(root) / "pyproject.toml",
               "[project]\nname = \"e2e-multi\"\nversion = \"0.1\"\n\n[tool.ppy]\nsource-roots = [\"src\"]\n"
               "entry = \"app.main\"\n\n" + extra);
  }

  /// A one-module project folder at <dir>/<as> holding fixtures/<file> as src/<file>.
  std::string project_of(const std::string& file, const std::string& extra, const std::string& as) {
    fixture(file, as + "/src/" + file);
    write_file(path(as) / "pyproject.toml", "[tool.ppy]\nsource-roots = [\"src\"]\n\n" + extra);
    return p(as);
  }

  /// PPY_BACKEND_PATH: the toy's distribution folder and the named sets.
  static std::string sets(std::initializer_list<std::string> names, bool toy = true) {
    std::string out = toy ? kToyDir : "";
    for (auto& n : names) out += (out.empty() ? "" : ":") + kSets + "/" + n;
    return out;
  }

  Spawn spawn(std::vector<std::string> args, const std::string& backend_path) const {
    Spawn s;
    s.args = std::move(args);
    s.env["PPY_BACKEND_PATH"] = backend_path;
    s.env["HOME"] = p("home");
    s.env["XDG_DATA_HOME"] = p("home/.local/share");
    s.cwd = dir_.string();
    return s;
  }
  Result ppy(std::vector<std::string> args, const std::string& backend_path = sets({"main"})) const {
    return run(spawn(std::move(args), backend_path));
  }

  /// A distribution written now under <dir>/dists/<dist>/ (for per-test paths in `args`).
  std::string runtime_dist(const std::string& dist, const std::string& body) {
    write_file(path("dists/" + dist + "/manifest.toml"),
               "[distribution]\nname = \"" + dist + "\"\nversion = \"0.9\"\n\n" + body);
    return p("dists");
  }

  fs::path dir_;
};

/// The notes a dummy call left: `note: dummy: <call> ...` lines.
std::vector<std::string> notes(const Result& r, const std::string& call, const std::string& name = "dummy") {
  return grep(r.err, "note: " + name + ": " + call + " ");
}

// ===========================================================================
// ppy emit: scopes.

TEST_F(E2E, EmitOneModuleToStdout) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# dummy one opt=2 target= fingerprint=dummy:0 id="));
  EXPECT_THAT(r.out, HasSubstr("module @one\n"));
  EXPECT_TRUE(is_hex64(artifact_id(r.out))) << r.out;
  EXPECT_EQ(notes(r, "emit dummy").size(), 1u) << r;
}

TEST_F(E2E, EmitOneModuleToFile) {
  std::string one = fixture("one.ppy");
  Result to_stdout = ppy({"emit", "dummy", one});
  ASSERT_EQ(to_stdout.status, 0) << to_stdout;
  Result r = ppy({"emit", "dummy", one, "-o", p("out/one.txt")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(path("out/one.txt")), to_stdout.out);
  EXPECT_THAT(names_in(path("out")), ElementsAre("one.txt"));
}

TEST_F(E2E, EmitSeveralModulesToDirWritesOneFilePerModule) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj, "-o", p("out") + "/"});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  for (auto& [name, text] : files) {
    std::string module = name.substr(0, name.size() - std::string(".dummy").size());
    EXPECT_THAT(text, StartsWith("# dummy " + module + " opt=2")) << name;
    EXPECT_THAT(text, HasSubstr("module @" + module + "\n")) << name;
  }
  // Never concatenated: each file holds one module.
  EXPECT_THAT(files["app.util.dummy"], Not(HasSubstr("module @app.main")));

  // An existing folder named without a trailing slash is a folder too.
  fs::create_directories(path("out2"));
  Result again = ppy({"emit", "dummy", proj, "-o", p("out2")});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_EQ(tree(path("out2")), files);
}

TEST_F(E2E, EmitSeveralModulesToStdoutIsRefused) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("error[E1002]"));
  EXPECT_THAT(r.err, HasSubstr("3 module(s)"));
  EXPECT_THAT(r.err, HasSubstr("one artifact per module"));
  EXPECT_THAT(r.err, HasSubstr("-o DIR"));
  EXPECT_THAT(r.err, HasSubstr("app.main.dummy, app.shapes.dummy, app.util.dummy"));
  EXPECT_TRUE(notes(r, "emit").empty()) << r;  // the backend emitted nothing
}

TEST_F(E2E, EmitSeveralModulesToOneFileIsRefusedAndWritesNothing) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy", proj, "-o", p("all.dummy")});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, AllOf(HasSubstr("error[E1002]"), HasSubstr("3 module(s)"), HasSubstr("one artifact per module"),
                           HasSubstr("-o DIR"), HasSubstr("app.main.dummy, app.shapes.dummy, app.util.dummy")));
  EXPECT_FALSE(fs::exists(path("all.dummy")));
  EXPECT_EQ(r.out, "");
  // The same for a binary module format.
  Result bin = ppy({"emit", "dummy-bin", proj, "-o", p("all.dbin")});
  EXPECT_NE(bin.status, 0) << bin;
  EXPECT_THAT(bin.err, AllOf(HasSubstr("error[E1002]"), HasSubstr("app.main.dbin, app.shapes.dbin, app.util.dbin")));
  EXPECT_FALSE(fs::exists(path("all.dbin")));
}

TEST_F(E2E, EmitProgramScopeIsOneCallAndOneArtifact) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy-prog", proj, "-o", p("prog.txt")});
  ASSERT_EQ(r.status, 0) << r;
  std::string text = read_file(path("prog.txt"));
  EXPECT_THAT(text, StartsWith("# dummy-prog 3 module(s)\n# dummy-prog app.main "));
  EXPECT_THAT(text, AllOf(HasSubstr("module @app.main\n"), HasSubstr("module @app.shapes\n"),
                          HasSubstr("module @app.util\n")));
  auto calls = notes(r, "emit_program dummy-prog");
  ASSERT_EQ(calls.size(), 1u) << r;
  EXPECT_THAT(calls[0], HasSubstr("[app.main,app.shapes,app.util]"));
  EXPECT_TRUE(notes(r, "emit dummy-prog").empty()) << r;  // never per module

  // To standard output: the same single artifact.
  std::string fresh = multi("", "multi2");
  Result out = ppy({"emit", "dummy-prog", fresh});
  ASSERT_EQ(out.status, 0) << out;
  EXPECT_THAT(out.out, StartsWith("# dummy-prog 3 module(s)\n"));
  // Into a folder: one file.
  Result dir = ppy({"emit", "dummy-prog", proj, "-o", p("progdir") + "/"});
  ASSERT_EQ(dir.status, 0) << dir;
  EXPECT_EQ(names_in(path("progdir")).size(), 1u);
}

const std::string kBinOne = std::string("\x7f" "DBIN\0\xff\r\n", 9) + "one" + std::string("\n\0\x80", 3);

TEST_F(E2E, EmitBinaryModuleIsWrittenAsBytes) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy-bin", one, "-o", p("one.bin")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(read_file(path("one.bin")), kBinOne);
  // To a pipe (not a terminal) the bytes go out unchanged.
  Result piped = ppy({"emit", "dummy-bin", one});
  ASSERT_EQ(piped.status, 0) << piped;
  EXPECT_EQ(piped.out, kBinOne);
  // One file per module, each its bytes.
  std::string proj = multi();
  Result dir = ppy({"emit", "dummy-bin", proj, "-o", p("bins") + "/"});
  ASSERT_EQ(dir.status, 0) << dir;
  auto files = tree(path("bins"));
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files["app.shapes.dbin"], std::string("\x7f" "DBIN\0\xff\r\n", 9) + "app.shapes" + std::string("\n\0\x80", 3));
}

TEST_F(E2E, EmitBinaryProgramIsWrittenAsBytes) {
  std::string proj = multi();
  Result r = ppy({"emit", "dummy-prog-bin", proj, "-o", p("prog.bin")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(read_file(path("prog.bin")),
            std::string("DPRG\0\xfe\x03", 7) + std::string("app.main\0app.shapes\0app.util\0", 29));
}

TEST_F(E2E, EmitBinaryIsNeverWrittenToATerminal) {
  std::string one = fixture("one.ppy");
  Spawn s = spawn({"emit", "dummy-bin", one}, sets({"main"}));
  s.stdout_tty = true;
  Result r = run(s);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, AllOf(HasSubstr("E1002"), HasSubstr("terminal")));
  EXPECT_THAT(r.out, Not(HasSubstr("DBIN")));
  // A text format goes to the terminal.
  Spawn t = spawn({"emit", "dummy", one}, sets({"main"}));
  t.stdout_tty = true;
  Result text = run(t);
  EXPECT_EQ(text.status, 0) << text;
  EXPECT_THAT(text.out, HasSubstr("# dummy one"));
}

TEST_F(E2E, EmitOutputDoesNotDependOnJobs) {
  // One project, its cache emptied before each run so that every module is emitted.
  std::string proj = multi();
  std::map<std::string, std::string> first;
  for (std::string jobs : {"1", "2", "3", "8"}) {
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result r = ppy({"emit", "dummy", proj, "-j", jobs, "-o", p("out-j" + jobs) + "/"});
    ASSERT_EQ(r.status, 0) << r;
    EXPECT_EQ(notes(r, "emit dummy").size(), 3u) << r;
    auto files = tree(path("out-j" + jobs));
    ASSERT_EQ(files.size(), 3u);
    if (first.empty()) first = files;
    EXPECT_EQ(files, first) << "-j " << jobs;
  }
  // A program-scoped format and binary formats too.
  for (std::string format : {"dummy-bin", "dummy-prog"}) {
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result a = ppy({"emit", format, proj, "-j", "1", "-o", p(format + "-1") + "/"});
    fs::remove_all(fs::path(proj) / ".ppy-cache");
    Result b = ppy({"emit", format, proj, "-j", "2", "-o", p(format + "-2") + "/"});
    ASSERT_EQ(a.status, 0) << a;
    ASSERT_EQ(b.status, 0) << b;
    EXPECT_EQ(tree(path(format + "-1")), tree(path(format + "-2"))) << format;
  }
  // To stdout (one module), -j makes no difference either.
  std::string one = fixture("one.ppy");
  Result s1 = ppy({"emit", "dummy", one, "-j", "1"});
  fs::remove_all(path(".ppy-cache"));
  Result s2 = ppy({"emit", "dummy", one, "-j", "2"});
  EXPECT_EQ(notes(s2, "emit dummy").size(), 1u) << s2;
  EXPECT_EQ(s1.out, s2.out);
}

// ===========================================================================
// ppy emit: which backend owns a format.

TEST_F(E2E, BuiltinIrNeedsNoBackendPath) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "ir", one}, "");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("ppyir 1\nmodule @one\n"));
  Result linked = ppy({"emit", "linked-ir", multi()}, "");
  ASSERT_EQ(linked.status, 0) << linked;
  EXPECT_THAT(linked.out, StartsWith("ppyir 1\n"));
  Result listed = ppy({"backends"}, "");
  ASSERT_EQ(listed.status, 0) << listed;
  // Only the builtin (and whatever the install prefix holds: <build>/lib/ppy/backends).
  EXPECT_THAT(listed.out, StartsWith("ir           builtin\n"));
  EXPECT_THAT(listed.out, Not(HasSubstr("dummy")));
}

TEST_F(E2E, FormatsHintStartsOnlyTheBackendItNames) {
  std::string spy_started = p("spy-started");
  std::string extra = runtime_dist("ppy-e2e-spy", "[backends.spy]\nexecutable = \"" + kDummy +
                                                      "\"\nargs = [\"--e2e-name\", \"spy\", \"--e2e-formats\", "
                                                      "\"spyfmt:.spy\", \"--e2e-touch\", \"" + spy_started +
                                                      "\"]\nsandbox = \"off\"\n");
  std::string path = sets({"main"}) + ":" + extra;
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one}, path);
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_FALSE(fs::exists(spy_started)) << "a declared format started another backend";

  // An undeclared format is found by asking each installed backend (which starts them).
  Result asked = ppy({"emit", "spyfmt", one}, path);
  ASSERT_EQ(asked.status, 0) << asked;
  EXPECT_THAT(asked.out, StartsWith("# spyfmt one "));
  EXPECT_TRUE(fs::exists(spy_started));
}

TEST_F(E2E, UndeclaredFormatIsFoundByAsking) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "asked", one});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# asked one opt=2 target= fingerprint=asked:0 "));
  EXPECT_EQ(notes(r, "emit asked", "asked").size(), 1u) << r;
}

TEST_F(E2E, TwoDistributionsDeclaringOneFormatLeaveNeitherOwningIt) {
  std::string one = fixture("one.ppy");
  // Both declare `twin` and both emit it: asked, both answer, so neither owns it.
  Result twin = ppy({"emit", "twin", one}, sets({"twins"}));
  EXPECT_NE(twin.status, 0) << twin;
  EXPECT_THAT(twin.err, AllOf(HasSubstr("error[E1903]"),
                              HasSubstr("the format 'twin' is registered by backends 'twin-a', 'twin-b'")));
  EXPECT_EQ(twin.out, "");
  // Both declare `solo`, only twin-a emits it: the hint is dropped, asking finds twin-a.
  Result solo = ppy({"emit", "solo", one}, sets({"twins"}));
  ASSERT_EQ(solo.status, 0) << solo;
  EXPECT_THAT(solo.out, StartsWith("# solo one "));
  EXPECT_EQ(notes(solo, "emit solo", "twin-a").size(), 1u) << solo;
  // Discovery reports the claim (without starting anything).
  Result listed = ppy({"backends"}, sets({"twins"}));
  EXPECT_THAT(listed.out, HasSubstr("the format 'twin' is claimed by more than one distribution"));
}

TEST_F(E2E, AHintTheBackendDisagreesWithIsAnError) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "lie", one}, sets({"liar"}));
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, AllOf(HasSubstr("error[E1903]"), HasSubstr("'lie'"), HasSubstr("disagree")));
  EXPECT_EQ(r.out, "");
}

TEST_F(E2E, UnknownFormatListsTheFormatsThereAre) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "nothing", one});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1903]: no backend emits 'nothing'; the formats are "));
  for (std::string f : {"ir", "linked-ir", "toy", "toy-image", "dummy", "dummy-bin", "dummy-prog", "asked"})
    EXPECT_THAT(r.err, HasSubstr(f)) << f;
  EXPECT_EQ(r.out, "");
}

TEST_F(E2E, LegacyFormatOptionIsRefused) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "ir", one, "--format", "ir"});
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.err, HasSubstr("`--format` applies to the builtin kinds"));
  EXPECT_EQ(r.out, "");
}

TEST_F(E2E, BadCommandLinesAreE1002WithAPointerToHelp) {
  std::string one = fixture("one.ppy");
  for (std::vector<std::string> args : {std::vector<std::string>{"build", one, "--backend", "toy", "--backend-timeout", "0"},
                                        {"emit", "toy", one, "--backend-timeout", "soon"},
                                        {"build", one, "--backend", "toy", "--sandbox", "paranoid"},
                                        {"frobnicate"},
                                        {}}) {
    Result r = ppy(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_THAT(r.err, StartsWith("error[E1002]: ")) << r;
    EXPECT_THAT(r.err, HasSubstr("ppy --help")) << r;
    EXPECT_EQ(r.out, "");
  }
  Result help = ppy({"emit", "--help"});
  EXPECT_EQ(help.status, 0) << help;
  EXPECT_THAT(help.out, AllOf(HasSubstr("--sandbox"), HasSubstr("--backend-timeout")));
}

TEST_F(E2E, AnOutputThatCannotBeWrittenIsRefusedBeforeAnythingIsBuilt) {
  std::string one = fixture("one.ppy");
  std::ofstream(path("a-file")) << "not a folder\n";
  Result build = ppy({"build", one, "--backend", "toy", "-o", p("a-file/out")});
  EXPECT_EQ(build.status, 2) << build;
  EXPECT_THAT(build.err, HasSubstr("error[E1002]: cannot write the output to " + p("a-file/out") + ": " +
                                   p("a-file") + " is not a folder"));
  Result emit = ppy({"emit", "toy", one, "-o", "/proc/ppy-cannot-be-here.toy"});
  EXPECT_EQ(emit.status, 2) << emit;
  EXPECT_THAT(emit.err, HasSubstr("error[E1002]: cannot write the output to /proc/ppy-cannot-be-here.toy: "
                                  "no file can be made in /proc"));
  EXPECT_EQ(emit.out, "");
}

TEST_F(E2E, EmitAcceptsTheHostFlagsBuildDoes) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "toy", one, "-o", p("flags.toy"), "--sandbox", "strict", "--backend-timeout", "60000"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_TRUE(fs::exists(path("flags.toy")));
}

// ===========================================================================
// The answer's type, and the toolchain.

TEST_F(E2E, AnswerOfTheWrongTypeIsRefused) {
  std::string proj = project_of("one.ppy", "[tool.ppy.backends.dummy]\nwrong-type = true\n", "wrong");
  Result text = ppy({"emit", "dummy", proj, "-o", p("wrong.out")});
  EXPECT_EQ(text.status, 2) << text;
  EXPECT_THAT(text.err, HasSubstr("error[E1802]: backend 'dummy' answered bytes for 'dummy', a text format"));
  EXPECT_FALSE(fs::exists(path("wrong.out")));
  Result bin = ppy({"emit", "dummy-bin", proj, "-o", p("wrong.bin")});
  EXPECT_EQ(bin.status, 2) << bin;
  EXPECT_THAT(bin.err, AllOf(HasSubstr("error[E1802]"), HasSubstr("'dummy-bin'")));
  EXPECT_FALSE(fs::exists(path("wrong.bin")));
  Result prog = ppy({"emit", "dummy-prog", proj});
  EXPECT_EQ(prog.status, 2) << prog;
  EXPECT_THAT(prog.err, HasSubstr("answered bytes for 'dummy-prog', a text format"));
  EXPECT_EQ(prog.out, "");
}

TEST_F(E2E, MissingToolchainIsReportedBeforeAnalysis) {
  // The only module does not parse: a toolchain check after analysis would report E1001.
  std::string proj = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  for (std::string format : {"dummy", "dummy-bin", "dummy-prog", "dummy-prog-bin"}) {
    Result r = ppy({"emit", format, proj});
    EXPECT_EQ(r.status, 2) << format << "\n" << r;
    EXPECT_THAT(r.err, HasSubstr("error[E1801]: backend 'dummy' is unavailable here: missing dummy-sdk")) << format;
    EXPECT_THAT(r.err, Not(HasSubstr("E1001"))) << format;
    EXPECT_EQ(r.out, "");
  }
  // With the toolchain there, the same target reaches analysis and fails there.
  std::string ok = project_of("bad.ppy", "", "withtool");
  Result r = ppy({"emit", "dummy", ok});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_THAT(r.err, HasSubstr("E1001"));
}

TEST_F(E2E, FormatThatDoesNotRequireTheToolchainEmitsWithoutIt) {
  std::string proj = project_of("one.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  Result r = ppy({"emit", "dummy-src", proj});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, StartsWith("# dummy-src one "));
  // Analysis still runs for it (a syntax error is reported as one).
  std::string bad = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool-bad");
  Result b = ppy({"emit", "dummy-src", bad});
  EXPECT_EQ(b.status, 1) << b;
  EXPECT_THAT(b.err, HasSubstr("E1001"));
  EXPECT_THAT(b.err, Not(HasSubstr("E1801")));
}

TEST_F(E2E, BuildAlwaysChecksTheToolchain) {
  std::string proj = project_of("bad.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool");
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1801]: backend 'dummy' is unavailable here: missing dummy-sdk"));
  EXPECT_THAT(r.err, Not(HasSubstr("E1001")));
  EXPECT_FALSE(fs::exists(path("out")));
  // Even though one of its formats (dummy-src) does not need it.
  std::string good = project_of("one.ppy", "[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n", "notool-good");
  Result g = ppy({"build", good, "--backend", "dummy", "-o", p("out")});
  EXPECT_EQ(g.status, 2) << g;
  EXPECT_THAT(g.err, HasSubstr("error[E1801]"));
  EXPECT_FALSE(fs::exists(path("out")));
}

// ===========================================================================
// ppy build.

TEST_F(E2E, BuildWritesToOutputAndListsWhatItWrote) {
  std::string proj = multi();
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, p("out") + "/app.main.dummy\n" + p("out") + "/app.shapes.dummy\n" + p("out") +
                       "/app.util.dummy\n");
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_THAT(files["app.util.dummy"], StartsWith("# build app.util opt=2 "));
  // stderr: backend, outputs, then the notes.
  auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 3u) << r;
  EXPECT_EQ(lines[0], "backend:  dummy");
  EXPECT_EQ(lines[1], "outputs:  3");
  EXPECT_THAT(lines[2], StartsWith("note: dummy: build [app.main,app.shapes,app.util] "));
}

TEST_F(E2E, BuildWritesToTheProjectCacheByDefault) {
  std::string proj = multi();
  Result r = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(r.status, 0) << r;
  fs::path out = fs::path(proj) / ".ppy-cache/backends/dummy";
  EXPECT_THAT(names_in(out), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  EXPECT_THAT(r.out, HasSubstr(".ppy-cache/backends/dummy/app.main.dummy\n"));
  EXPECT_THAT(r.err, HasSubstr("backend:  dummy\noutputs:  3\n"));
  // The toy backend, on a file target: <folder of the file>/.ppy-cache/backends/toy.
  std::string one = fixture("one.ppy", "single/one.ppy");
  Result toy = ppy({"build", one, "--backend", "toy"});
  ASSERT_EQ(toy.status, 0) << toy;
  EXPECT_TRUE(fs::exists(path("single/.ppy-cache/backends/toy/one.toy"))) << toy;
  EXPECT_THAT(toy.err, HasSubstr("backend:  toy\noutputs:  1\nnote: toy: built 1 module(s) with toy sdk 0\n"));
}

TEST_F(E2E, OptLevelReachesTheBackend) {
  std::string one = fixture("one.ppy");
  for (std::string level : {"0", "1", "3"}) {
    Result r = ppy({"build", one, "--backend", "dummy", "-O", level, "-o", p("out" + level)});
    ASSERT_EQ(r.status, 0) << r;
    auto n = notes(r, "build");
    ASSERT_EQ(n.size(), 1u) << r;
    EXPECT_EQ(field(n[0], "opt"), level);
    EXPECT_THAT(read_file(path("out" + level + "/one.dummy")), StartsWith("# build one opt=" + level + " "));
  }
  Result d = ppy({"build", one, "--backend", "dummy", "-o", p("outd")});
  ASSERT_EQ(d.status, 0) << d;
  EXPECT_EQ(field(notes(d, "build").at(0), "opt"), "2");  // the default
  // The project's opt-level when -O is not given; -O wins over it.
  std::string proj = multi("", "multi");
  std::string text = read_file(fs::path(proj) / "pyproject.toml");
  text.replace(text.find("[tool.ppy]\n"), 11, "[tool.ppy]\nopt-level = 1\n");
  write_file(fs::path(proj) / "pyproject.toml", text);
  Result pr = ppy({"build", proj, "--backend", "dummy", "-o", p("outp")});
  ASSERT_EQ(pr.status, 0) << pr;
  EXPECT_EQ(field(notes(pr, "build").at(0), "opt"), "1");
  Result po = ppy({"build", proj, "--backend", "dummy", "-O", "3", "-o", p("outp3")});
  ASSERT_EQ(po.status, 0) << po;
  EXPECT_EQ(field(notes(po, "build").at(0), "opt"), "3");
  // And emit.
  Result e = ppy({"emit", "dummy", one, "-O", "0"});
  ASSERT_EQ(e.status, 0) << e;
  EXPECT_THAT(e.out, StartsWith("# dummy one opt=0 "));
}

TEST_F(E2E, BuildFromPpyir) {
  std::string one = fixture("one.ppy");
  Result ir = ppy({"emit", "ir", one, "-o", p("one.ppyir")});
  ASSERT_EQ(ir.status, 0) << ir;
  Result r = ppy({"build", p("one.ppyir"), "--backend", "toy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, p("out") + "/one.toy\n");
  EXPECT_THAT(r.err, HasSubstr("backend:  toy\noutputs:  1\n"));
  std::string toy = read_file(path("out/one.toy"));
  EXPECT_THAT(toy, HasSubstr("// one_twice: "));
  // The same road as from source below the boundary: the same toy text.
  Result from_source = ppy({"build", one, "--backend", "toy", "-o", p("out-src")});
  ASSERT_EQ(from_source.status, 0) << from_source;
  EXPECT_EQ(toy, read_file(path("out-src/one.toy")));
  // The chosen backend is used, with the .ppyir as the entry of a build of one,
  // and an identity of its own (the module's encoded bytes, not a source bundle).
  Result d = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd")});
  ASSERT_EQ(d.status, 0) << d;
  auto n = notes(d, "build");
  ASSERT_EQ(n.size(), 1u) << d;
  EXPECT_EQ(field(n[0], "entry"), p("one.ppyir"));
  Result ds = ppy({"build", one, "--backend", "dummy", "-o", p("outds")});
  ASSERT_EQ(ds.status, 0) << ds;
  EXPECT_TRUE(is_hex64(ids_of(n[0])["one"]));
  EXPECT_NE(ids_of(n[0])["one"], ids_of(notes(ds, "build").at(0))["one"]);
  // And the .ppyir's own cache: a repeat is a hit, a changed file is not.
  Result again = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd2")});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_TRUE(notes(again, "build").empty()) << again;
  EXPECT_EQ(tree(path("outd2")), tree(path("outd")));
  std::string src = read_file(one);
  write_file(one, src.replace(src.find("n * 2"), 5, "n * 3"));
  Result ir3 = ppy({"emit", "ir", one, "-o", p("one.ppyir")});
  ASSERT_EQ(ir3.status, 0) << ir3;
  Result changed = ppy({"build", p("one.ppyir"), "--backend", "dummy", "-o", p("outd3")});
  ASSERT_EQ(changed.status, 0) << changed;
  ASSERT_EQ(notes(changed, "build").size(), 1u) << changed;
  EXPECT_NE(ids_of(notes(changed, "build")[0])["one"], ids_of(n[0])["one"]);
  EXPECT_THAT(read_file(path("outd3/one.dummy")), HasSubstr("3"));
}

TEST_F(E2E, UnknownBackendListsTheBackends) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"build", one, "--backend", "nope", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1903]: no backend is called 'nope'; the backends are "));
  for (std::string b : {"asked", "dummy", "ir", "toy"}) EXPECT_THAT(r.err, HasSubstr(b));
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(E2E, ValidationRefusalWritesNothing) {
  std::string kernel = fixture("kernel.ppy");
  fs::create_directories(path("out"));
  write_file(path("out/keep.txt"), "mine\n");
  Result r = ppy({"build", kernel, "--backend", "toy", "-o", p("out")});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("error[E1802]: backend 'toy' cannot take gpu."));
  EXPECT_THAT(r.err, HasSubstr(" in kernel_saxpy at "));
  EXPECT_TRUE(std::regex_search(r.err, std::regex("at [^ ]*kernel\\.ppy:[0-9]+:[0-9]+ \\(needs device kernels\\)")))
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(names_in(path("out")), ElementsAre("keep.txt"));
  // Nothing beside it either (no staging folder left behind).
  std::vector<std::string> top;
  for (auto& e : fs::directory_iterator(dir_))
    if (e.path().filename() != ".ppy-cache") top.push_back(e.path().filename().string());
  std::sort(top.begin(), top.end());
  EXPECT_THAT(top, ElementsAre("home", "kernel.ppy", "out"));
  // Nor into a folder that did not exist.
  Result fresh = ppy({"build", kernel, "--backend", "toy", "-o", p("fresh")});
  EXPECT_EQ(fresh.status, 2) << fresh;
  EXPECT_FALSE(fs::exists(path("fresh")));
  // The emit road refuses it the same way.
  Result e = ppy({"emit", "toy", kernel, "-o", p("k.toy")});
  EXPECT_EQ(e.status, 2) << e;
  EXPECT_THAT(e.err, HasSubstr("error[E1802]: backend 'toy' cannot take gpu."));
  EXPECT_FALSE(fs::exists(path("k.toy")));
}

TEST_F(E2E, LlvmOnlyOptionsAreRefused) {
  std::string one = fixture("one.ppy");
  struct Case {
    std::vector<std::string> args;
    std::string flag;
  };
  std::vector<Case> cases = {
      {{"--unsafe"}, "--unsafe"},
      {{"--sanitize", "address"}, "--sanitize"},
      {{"--pgo"}, "--pgo"},
      {{"--prover"}, "--prover"},
      {{"--host-cpu"}, "--host-cpu"},
      {{"--standalone"}, "--standalone"},
      {{"--python-extension"}, "--python-extension"},
      {{"--library"}, "--library"},
      {{"--report-opt"}, "--report-opt"},
      {{"--report-opt-json", p("r.json")}, "--report-opt-json"},
      {{"--target", "x86_64-linux-gnu"}, "--target"},
      {{"--warm"}, "--warm"},
  };
  for (std::string backend : {"toy", "dummy"}) {
    for (auto& c : cases) {
      std::vector<std::string> args = {"build", one, "--backend", backend, "-o", p("out")};
      args.insert(args.end(), c.args.begin(), c.args.end());
      Result r = ppy(args);
      EXPECT_EQ(r.status, 2) << c.flag << "\n" << r;
      auto errors = grep(r.err, "error[E1002]: ");
      ASSERT_EQ(errors.size(), 1u) << c.flag << "\n" << r;
      EXPECT_THAT(errors[0], HasSubstr(c.flag + " ")) << c.flag;
      EXPECT_THAT(errors[0], HasSubstr("backend '" + backend + "'")) << c.flag;
      EXPECT_THAT(errors[0], HasSubstr(" (it ")) << c.flag;  // what the option does
      if (c.flag == "--target")
        EXPECT_THAT(errors[0], AllOf(HasSubstr("`target`"), HasSubstr("[tool.ppy.backends." + backend + "]")));
      if (c.flag == "--warm") EXPECT_THAT(errors[0], HasSubstr("ppy run"));
      EXPECT_FALSE(fs::exists(path("out"))) << c.flag;
      EXPECT_FALSE(fs::exists(path("r.json"))) << c.flag;
    }
  }
  // -o and -O reach every backend.
  Result ok = ppy({"build", one, "--backend", "toy", "-O", "1", "-o", p("out")});
  EXPECT_EQ(ok.status, 0) << ok;
}

// ===========================================================================
// BackendContext, out of process.

TEST_F(E2E, ContextReachesTheBackendOutOfProcess) {
  std::string proj = multi(
      "[tool.ppy.backends.dummy]\nlevel = 3\ntarget = \"t1\"\nsdk-version = \"7\"\n\n"
      "[tool.ppy.backends.toy]\nsecret = \"for toy only\"\n\n"
      "[tool.ppy.backends.not-installed]\nanything = 1\n");
  Result r = ppy({"build", proj, "--backend", "dummy", "-O", "1", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;  // a table for a backend that is not installed is no error
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "opt"), "1");
  EXPECT_EQ(field(n[0], "target"), "t1");
  EXPECT_EQ(field(n[0], "root"), proj);
  EXPECT_EQ(field(n[0], "entry"), "");  // not a build of one
  // Its own table, and no other backend's.
  EXPECT_THAT(n[0], HasSubstr("table={level=3;sdk-version=7;target=t1}"));
  EXPECT_THAT(n[0], Not(HasSubstr("secret")));
  EXPECT_THAT(n[0], Not(HasSubstr("anything")));
  // An identity per module, 64 hex characters each, all different.
  auto ids = ids_of(n[0]);
  ASSERT_EQ(ids.size(), 3u) << n[0];
  std::set<std::string> distinct;
  for (auto& [m, id] : ids) {
    EXPECT_TRUE(is_hex64(id)) << m << " " << id;
    distinct.insert(id);
  }
  EXPECT_EQ(distinct.size(), 3u);
  EXPECT_EQ(artifact_id(read_file(path("out/app.util.dummy"))), ids["app.util"]);
  // The fingerprint the table asks for.
  EXPECT_THAT(read_file(path("out/app.main.dummy")), HasSubstr(" fingerprint=dummy:7 "));

  // The same context on the emit road.
  Result e = ppy({"emit", "dummy-prog", proj, "-O", "1"});
  ASSERT_EQ(e.status, 0) << e;
  auto en = notes(e, "emit_program dummy-prog");
  ASSERT_EQ(en.size(), 1u) << e;
  EXPECT_EQ(field(en[0], "target"), "t1");
  EXPECT_EQ(ids_of(en[0]), ids);

  // The toy backend gets its table (and the not-installed one's table is no error for it).
  Result toy = ppy({"build", proj, "--backend", "toy", "-o", p("toyout")});
  EXPECT_EQ(toy.status, 0) << toy;
}

TEST_F(E2E, EntryIsTheFileForABuildOfOne) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"build", one, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "build");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_EQ(field(n[0], "entry"), one);
  EXPECT_EQ(field(n[0], "root"), dir_.string());
  EXPECT_EQ(field(n[0], "target"), "");
  EXPECT_THAT(n[0], HasSubstr("table={}"));
  auto ids = ids_of(n[0]);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_TRUE(is_hex64(ids["one"]));
}

TEST_F(E2E, NotesAreStreamedFromEmitToo) {
  std::string one = fixture("one.ppy");
  Result r = ppy({"emit", "dummy", one});
  ASSERT_EQ(r.status, 0) << r;
  auto n = notes(r, "emit dummy");
  ASSERT_EQ(n.size(), 1u) << r;
  EXPECT_THAT(n[0], HasSubstr("[one] opt=2 target= entry="));
}

// ===========================================================================
// The cache key, one row at a time: a changed row is a different key and the
// stale artifact is not reused; an unchanged repeat does not call the backend.

class Cache : public E2E {
 protected:
  struct Build {
    Result result;
    std::map<std::string, std::string> ids;  ///< from the backend's note, when it was called
    std::map<std::string, std::string> files;
    int calls = 0;  ///< build lines the backend appended to the count file since the last look
  };

  /// `ppy build TARGET --backend B -o <fresh folder> ARGS...`.
  Build build(const std::string& target, std::vector<std::string> args = {},
              const std::string& backend_path = "", const std::string& backend = "dummy") {
    std::string out = p("out" + std::to_string(++builds_));
    std::vector<std::string> a = {"build", target, "--backend", backend, "-o", out};
    a.insert(a.end(), args.begin(), args.end());
    Build b;
    b.result = ppy(a, backend_path.empty() ? sets({"main"}) : backend_path);
    auto n = notes(b.result, "build", backend);
    if (!n.empty()) b.ids = ids_of(n[0]);
    b.files = tree(out);
    std::string counted = read_file(path("calls.txt"));
    b.calls = static_cast<int>(grep(counted, "build").size()) - seen_;
    seen_ += b.calls;
    return b;
  }

  std::string counting_table(const std::string& extra = "") {
    return "[tool.ppy.backends.dummy]\nsandbox = \"off\"\ncount-file = \"" + p("calls.txt") + "\"\n" + extra;
  }

  /// The first build misses, an unchanged repeat hits (no call, same files); then
  /// `change` is applied and the next build (with `args_after`) must miss, with
  /// new identities in its artifacts.
  void expect_row(const std::string& target, const std::function<void()>& change,
                  std::vector<std::string> args_before = {}, std::vector<std::string> args_after = {},
                  const std::string& path_before = "", const std::string& path_after = "",
                  const std::set<std::string>& changed = {}) {
    Build first = build(target, args_before, path_before);
    ASSERT_EQ(first.result.status, 0) << first.result;
    EXPECT_EQ(first.calls, 1) << first.result;
    ASSERT_FALSE(first.ids.empty()) << first.result;
    Build repeat = build(target, args_before, path_before);
    ASSERT_EQ(repeat.result.status, 0) << repeat.result;
    EXPECT_EQ(repeat.calls, 0) << "an unchanged repeat called the backend\n" << repeat.result;
    EXPECT_TRUE(notes(repeat.result, "build").empty()) << repeat.result;
    EXPECT_EQ(repeat.files, first.files);
    EXPECT_EQ(repeat.result.out.size(), first.result.out.size());

    change();
    Build after = build(target, args_after, path_after);
    ASSERT_EQ(after.result.status, 0) << after.result;
    EXPECT_EQ(after.calls, 1) << "a stale artifact was reused\n" << after.result;
    ASSERT_FALSE(after.ids.empty()) << after.result;
    ASSERT_EQ(after.ids.size(), first.ids.size());
    for (auto& [m, id] : after.ids) {
      // Every module's key changes, or (a source change) the changed module's only.
      if (changed.empty() || changed.count(m))
        EXPECT_NE(id, first.ids[m]) << m << ": the key did not change";
      else
        EXPECT_EQ(id, first.ids[m]) << m << ": an unchanged module's key changed";
      auto f = after.files.find(m + ".dummy");
      ASSERT_NE(f, after.files.end()) << m;
      EXPECT_EQ(artifact_id(f->second), id) << m;
    }
    // And the changed build is cached in its turn.
    Build again = build(target, args_after, path_after);
    ASSERT_EQ(again.result.status, 0) << again.result;
    EXPECT_EQ(again.calls, 0) << again.result;
    EXPECT_EQ(again.files, after.files);
  }

  int builds_ = 0;
  int seen_ = 0;
};

TEST_F(Cache, HitDoesNotCallTheBackend) {
  std::string proj = multi(counting_table());
  Build first = build(proj);
  ASSERT_EQ(first.result.status, 0) << first.result;
  EXPECT_EQ(first.calls, 1);
  for (int i = 0; i < 3; ++i) {
    Build hit = build(proj);
    ASSERT_EQ(hit.result.status, 0) << hit.result;
    EXPECT_EQ(hit.calls, 0) << hit.result;
    EXPECT_TRUE(notes(hit.result, "build").empty()) << hit.result;  // the backend said nothing
    EXPECT_EQ(hit.files, first.files);
    EXPECT_THAT(hit.result.err, HasSubstr("backend:  dummy\noutputs:  3\n"));
  }
  // The default output folder, removed, is written again from the cache.
  Result d1 = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(d1.status, 0) << d1;
  fs::remove_all(fs::path(proj) / ".ppy-cache/backends");
  Result d2 = ppy({"build", proj, "--backend", "dummy"});
  ASSERT_EQ(d2.status, 0) << d2;
  EXPECT_TRUE(notes(d2, "build").empty()) << d2;
  EXPECT_EQ(tree(fs::path(proj) / ".ppy-cache/backends/dummy"), first.files);
  EXPECT_EQ(grep(read_file(path("calls.txt")), "build").size(), 1u);
}

TEST_F(Cache, EmitHitDoesNotCallTheBackendAndMissesOnlyWhatChanged) {
  std::string proj = multi(counting_table());
  Result first = ppy({"emit", "dummy", proj, "-o", p("e1") + "/"});
  ASSERT_EQ(first.status, 0) << first;
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit dummy").size(), 3u);
  Result hit = ppy({"emit", "dummy", proj, "-o", p("e2") + "/"});
  ASSERT_EQ(hit.status, 0) << hit;
  EXPECT_TRUE(notes(hit, "emit").empty()) << hit;
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit dummy").size(), 3u);
  EXPECT_EQ(tree(path("e2")), tree(path("e1")));
  // Program scope: cached as one artifact.
  Result prog1 = ppy({"emit", "dummy-prog", proj});
  Result prog2 = ppy({"emit", "dummy-prog", proj});
  ASSERT_EQ(prog2.status, 0) << prog2;
  EXPECT_EQ(prog1.out, prog2.out);
  EXPECT_EQ(grep(read_file(path("calls.txt")), "emit_program").size(), 1u);
  // A change to one module's source: that module misses; an unrelated one still hits.
  std::string shapes = (fs::path(proj) / "src/app/shapes.ppy").string();
  write_file(shapes, read_file(shapes) + "\n\ndef perimeter(w: float, h: float) -> float:\n    return 2.0 * (w + h)\n");
  Result changed = ppy({"emit", "dummy", proj, "-o", p("e3") + "/"});
  ASSERT_EQ(changed.status, 0) << changed;
  auto calls = grep(read_file(path("calls.txt")), "emit dummy");
  ASSERT_GE(calls.size(), 4u);
  EXPECT_THAT(std::vector<std::string>(calls.begin() + 3, calls.end()), testing::Contains("emit dummy app.shapes"));
  EXPECT_THAT(std::vector<std::string>(calls.begin() + 3, calls.end()),
              Not(testing::Contains("emit dummy app.util")));
  EXPECT_THAT(read_file(path("e3/app.shapes.dummy")), HasSubstr("perimeter"));
  EXPECT_EQ(read_file(path("e3/app.util.dummy")), read_file(path("e1/app.util.dummy")));
}

TEST_F(Cache, SourceChange) {
  std::string proj = multi(counting_table());
  std::string util = (fs::path(proj) / "src/app/util.ppy").string();
  expect_row(proj, [&] { write_file(util, read_file(util) + "\n\ndef one() -> int:\n    return 1\n"); }, {}, {}, "",
             "", {"app.util"});
  EXPECT_THAT(read_file(path("out3/app.util.dummy")), HasSubstr("@app_util_one"));
}

TEST_F(Cache, DependencyPublicAbiChange) {
  // util.total's signature changes (it answers a float): util's key and that of
  // app.main, which imports it, change; app.shapes' does not.
  std::string proj = multi(counting_table());
  std::string util = (fs::path(proj) / "src/app/util.ppy").string();
  expect_row(proj, [&] {
    write_file(util, "def total(n: int) -> float:\n    s = 0.0\n    for i in range(n + 1):\n        s += i\n"
                     "    return s\n");
  }, {}, {}, "", "", {"app.util", "app.main"});
}

TEST_F(Cache, OptLevelChange) {
  std::string proj = multi(counting_table());
  expect_row(proj, [] {}, {"-O", "2"}, {"-O", "0"});
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), StartsWith("# build app.main opt=0 "));
}

TEST_F(Cache, BackendTableChange) {
  std::string proj = multi(counting_table("level = 1\n"));
  expect_row(proj, [&] { write_pyproject(proj, counting_table("level = 2\n")); });
}

TEST_F(Cache, OtherBackendsTableDoesNotChangeTheKey) {
  std::string proj = multi(counting_table());
  Build first = build(proj);
  ASSERT_EQ(first.result.status, 0) << first.result;
  write_pyproject(proj, counting_table() + "\n[tool.ppy.backends.toy]\nsdk-version = \"9\"\n");
  Build after = build(proj);
  ASSERT_EQ(after.result.status, 0) << after.result;
  EXPECT_EQ(after.calls, 0) << "another backend's table changed this one's key\n" << after.result;
  EXPECT_EQ(after.files, first.files);
}

TEST_F(Cache, TargetChange) {
  std::string proj = multi(counting_table("target = \"alpha\"\n"));
  expect_row(proj, [&] { write_pyproject(proj, counting_table("target = \"beta\"\n")); });
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), HasSubstr(" target=beta "));
}

TEST_F(Cache, DistributionVersionChange) {
  // Two manifests differing only in the version, one helper executable.
  std::string proj = multi(counting_table());
  expect_row(proj, [] {}, {}, {}, sets({"v1"}), sets({"v2"}));
}

TEST_F(Cache, FingerprintChange) {
  // The fingerprint changes and nothing else (the table names a file it reads).
  write_file(path("sdk.txt"), "firmware 1");
  std::string proj = multi(counting_table("fingerprint-file = \"" + p("sdk.txt") + "\"\n"));
  expect_row(proj, [&] { write_file(path("sdk.txt"), "firmware 2"); });
  EXPECT_THAT(read_file(path("out3/app.main.dummy")), HasSubstr(" fingerprint=dummy:0:firmware 2 "));
}

TEST_F(Cache, ToySdkVersionChange) {
  std::string proj = multi("[tool.ppy.backends.toy]\nsdk-version = \"1.4\"\n");
  auto toy = [&](const std::string& out) { return ppy({"build", proj, "--backend", "toy", "-o", p(out)}); };
  Result a = toy("t1");
  ASSERT_EQ(a.status, 0) << a;
  EXPECT_THAT(a.err, HasSubstr("note: toy: built 3 module(s) with toy sdk 1.4"));
  Result hit = toy("t2");
  ASSERT_EQ(hit.status, 0) << hit;
  EXPECT_THAT(hit.err, Not(HasSubstr("note: toy:"))) << hit;  // served from the cache
  EXPECT_EQ(tree(path("t2")), tree(path("t1")));
  write_pyproject(proj, "[tool.ppy.backends.toy]\nsdk-version = \"1.5\"\n");
  Result miss = toy("t3");
  ASSERT_EQ(miss.status, 0) << miss;
  EXPECT_THAT(miss.err, HasSubstr("note: toy: built 3 module(s) with toy sdk 1.5"));
}

TEST_F(Cache, ConcurrentBuildsShareOneCache) {
  std::string proj = multi(counting_table());
  constexpr int kBuilds = 4;
  std::vector<Result> results(kBuilds), defaults(kBuilds);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kBuilds; ++i)
      threads.emplace_back([&, i] {
        results[i] = ppy({"build", proj, "--backend", "dummy", "-o", p("c" + std::to_string(i))});
      });
    for (auto& t : threads) t.join();
  }
  auto reference = tree(path("c0"));
  ASSERT_EQ(reference.size(), 3u);
  for (int i = 0; i < kBuilds; ++i) {
    ASSERT_EQ(results[i].status, 0) << i << "\n" << results[i];
    EXPECT_EQ(tree(path("c" + std::to_string(i))), reference) << i;
    EXPECT_THAT(results[i].err, HasSubstr("outputs:  3\n"));
  }
  // Into the one default folder, all at once (with a cold cache again).
  fs::remove_all(fs::path(proj) / ".ppy-cache");
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kBuilds; ++i)
      threads.emplace_back([&, i] { defaults[i] = ppy({"build", proj, "--backend", "dummy"}); });
    for (auto& t : threads) t.join();
  }
  for (int i = 0; i < kBuilds; ++i) ASSERT_EQ(defaults[i].status, 0) << i << "\n" << defaults[i];
  EXPECT_EQ(tree(fs::path(proj) / ".ppy-cache/backends/dummy"), reference);
  // What the cache holds afterwards serves a later build exactly.
  Result later = ppy({"build", proj, "--backend", "dummy", "-o", p("later")});
  ASSERT_EQ(later.status, 0) << later;
  EXPECT_TRUE(notes(later, "build").empty()) << later;
  EXPECT_EQ(tree(path("later")), reference);
  // Nothing half-written is left in the cache.
  for (auto& [rel, _] : tree(fs::path(proj) / ".ppy-cache/artifacts"))
    EXPECT_THAT(rel, Not(HasSubstr(".tmp-"))) << rel;
}

TEST_F(Cache, BuildKilledMidCallLeavesNoHelperAndNoTornArtifact) {
  std::string pid_file = p("helper.pid");
  std::string proj = multi(counting_table("sleep-ms = 1500\npid-file = \"" + pid_file + "\"\n"));
  Child c = start(spawn({"build", proj, "--backend", "dummy", "-o", p("out")}, sets({"main"})));
  ASSERT_GT(c.pid, 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(pid_file) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(pid_file)) << "the helper never reached build";
  pid_t helper = std::stoi(read_file(pid_file));
  ASSERT_TRUE(process_alive(helper));
  kill(c.pid, SIGKILL);
  Result killed = finish(c, 30);
  EXPECT_EQ(killed.status, 128 + SIGKILL) << killed;
  // The helper does not outlive its driver.
  auto gone = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (process_alive(helper) && std::chrono::steady_clock::now() < gone)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(process_alive(helper)) << "helper " << helper << " outlived its driver";
  // Nothing torn under -o, nothing in the cache.
  for (auto& [rel, bytes] : tree(path("out"))) ADD_FAILURE() << "left in -o: " << rel;
  EXPECT_TRUE(tree(fs::path(proj) / ".ppy-cache/artifacts").empty());

  // A normal build afterwards produces the correct output.
  fs::remove(pid_file);
  Result ok = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(ok.status, 0) << ok;
  auto n = notes(ok, "build");
  ASSERT_EQ(n.size(), 1u) << ok;
  auto ids = ids_of(n[0]);
  auto files = tree(path("out"));
  ASSERT_THAT(names_in(path("out")), ElementsAre("app.main.dummy", "app.shapes.dummy", "app.util.dummy"));
  for (auto& [m, id] : ids) {
    EXPECT_THAT(files[m + ".dummy"], StartsWith("# build " + m + " opt=2 "));
    EXPECT_EQ(artifact_id(files[m + ".dummy"]), id);
    EXPECT_THAT(files[m + ".dummy"], HasSubstr("module @" + m + "\n"));
  }
  // And what the killed build had staged is gone.
  EXPECT_THAT(staging_left(path("out")), ElementsAre());
}

TEST_F(Cache, BuildKilledWhileWritingNeverLeavesATornArtifact) {
  // 8 MiB of output: the driver is killed at several moments, some of them while it
  // receives or writes the files; every file under -o is then whole or absent.
  constexpr int kKb = 8 * 1024;
  std::string proj = multi(counting_table("big-kb = " + std::to_string(kKb) + "\n"));
  std::string big;
  for (int i = 0; i < kKb; ++i) big += std::string(1024, static_cast<char>('a' + i % 26));
  auto t0 = std::chrono::steady_clock::now();
  Result reference = ppy({"build", proj, "--backend", "dummy", "-o", p("ref")});
  int cold_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
  ASSERT_EQ(reference.status, 0) << reference;
  ASSERT_EQ(read_file(path("ref/big.bin")), big);
  auto want = tree(path("ref"));
  fs::remove_all(fs::path(proj) / ".ppy-cache");

  // Kills spread over the time a cold build takes here, the later ones while it writes.
  for (int percent : {10, 30, 50, 65, 80, 90, 97}) {
    int delay_ms = cold_ms * percent / 100;
    Child c = start(spawn({"build", proj, "--backend", "dummy", "-o", p("out")}, sets({"main"})));
    ASSERT_GT(c.pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(c.pid, SIGKILL);
    finish(c, 30);
    for (auto& [rel, bytes] : tree(path("out"))) {
      if (rel.find(".tmp-") != std::string::npos) {  // a temporary, never an artifact's name
        std::cerr << "note: a kill at " << delay_ms << " ms left the temporary " << rel << " in -o\n";
        continue;
      }
      auto w = want.find(rel);
      ASSERT_NE(w, want.end()) << "unexpected " << rel << " after a kill at " << delay_ms << " ms";
      EXPECT_EQ(bytes.size(), w->second.size()) << rel << " torn after a kill at " << delay_ms << " ms";
      EXPECT_TRUE(bytes == w->second) << rel << " wrong after a kill at " << delay_ms << " ms";
    }
  }
  Result ok = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(ok.status, 0) << ok;
  for (auto& [rel, bytes] : want) EXPECT_TRUE(read_file(path("out/" + rel)) == bytes) << rel;
  // Nothing a killed build was writing is left: no staging folder, no temporary.
  EXPECT_THAT(staging_left(path("out")), ElementsAre());
  EXPECT_EQ(tree(path("out")).size(), want.size()) << testing::PrintToString(names_in(path("out")));
}

TEST_F(Cache, TemporariesOfAKilledBuildAreRemoved) {
  // What a build killed while writing app.main.dummy leaves beside it (its
  // process gone), and a temporary of a build that still runs (this process).
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  std::string proj = multi();
  std::string stale = "app.main.dummy.tmp-" + std::to_string(dead) + "-12345-0";
  std::string live = "app.main.dummy.tmp-" + std::to_string(getpid()) + "-12345-0";
  write_file(path("out/" + stale), "half");
  write_file(path("out/" + live), "half");
  write_file(path("out/mine.txt"), "not the build's");
  Result r = ppy({"build", proj, "--backend", "dummy", "-o", p("out")});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(names_in(path("out")),
              ElementsAre("app.main.dummy", live, "app.shapes.dummy", "app.util.dummy", "mine.txt"));
}

// ===========================================================================
// ppy doctor and ppy backends.

TEST_F(E2E, DoctorListsBuiltinAndInstalledBackends) {
  Result r = ppy({"doctor"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("backends:\n"));
  EXPECT_THAT(r.out, HasSubstr("\n  ir         available"));
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  toy        available, toy sdk 0 \\[ppy-toy 0\\.1 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\n  dummy      available, dummy sdk 0 \\[ppy-e2e-dummy 1\\.0 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_THAT(r.out, HasSubstr("emits dummy, dummy-bin, dummy-prog, dummy-prog-bin, dummy-src; fingerprint dummy:0\n"));
  EXPECT_THAT(r.out, HasSubstr("emits toy, toy-image; fingerprint toy:0\n"));
  // The header and the sandbox this machine gives.
  EXPECT_THAT(r.out, StartsWith("ppy               "));
  EXPECT_THAT(r.out, HasSubstr("\nsandbox default   "));
  EXPECT_THAT(r.out, HasSubstr("\nsandbox strict    "));
  // Sorted by name.
  auto a = r.out.find("\n  asked "), d = r.out.find("\n  dummy "), i = r.out.find("\n  ir "),
       t = r.out.find("\n  toy ");
  EXPECT_TRUE(a < d && d < i && i < t) << r.out;
}

TEST_F(E2E, DoctorReportsUnusableBackendsAndGoesOn) {
  Result r = ppy({"doctor"}, sets({"main", "broken"}));
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("\n  broken     unusable: "));
  auto broken = grep(r.out, "  broken     unusable: ");
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_THAT(broken[0], HasSubstr("no-such-helper"));  // why
  // The others are still listed, after it as well as before.
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available, toy sdk 0 [ppy-toy 0.1 ("));
  EXPECT_THAT(r.out, HasSubstr("\n  dummy      available"));
  EXPECT_THAT(r.out, HasSubstr("\n  asked      available"));
}

TEST_F(E2E, DoctorReportsAMissingToolchainWithItsDetail) {
  std::string proj = multi("[tool.ppy.backends.dummy]\ntoolchain = \"missing\"\n");
  Spawn s = spawn({"doctor"}, sets({"main"}));
  s.cwd = proj;  // doctor reads the project here for the backends' tables
  Result r = run(s);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\n  dummy      unavailable, missing dummy-sdk \\[ppy-e2e-dummy 1\\.0 \\([^)]+\\)\\]\n")))
      << r.out;
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available, toy sdk 0"));
}

TEST_F(E2E, DoctorReportsDuplicatedNames) {
  // A second distribution registering `dummy`: unusable until one is gone.
  std::string dup = runtime_dist("ppy-e2e-dup", "[backends.dummy]\nexecutable = \"" + kDummy + "\"\n");
  Result r = ppy({"doctor"}, sets({"main"}) + ":" + dup);
  EXPECT_NE(r.status, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("registered by more than one distribution"));
  EXPECT_THAT(r.out, HasSubstr("\n  toy        available"));
  Result b = ppy({"build", fixture("one.ppy"), "--backend", "dummy", "-o", p("out")}, sets({"main"}) + ":" + dup);
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_THAT(b.err, AllOf(HasSubstr("error[E1903]"), HasSubstr("registered by more than one distribution")));
}

TEST_F(E2E, BackendsListsWithoutStartingAnything) {
  std::string started = p("spy-started");
  std::string extra = runtime_dist("ppy-e2e-spy", "[backends.spy]\nexecutable = \"" + kDummy +
                                                      "\"\nargs = [\"--e2e-name\", \"spy\", \"--e2e-touch\", \"" +
                                                      started + "\"]\nsandbox = \"off\"\n");
  Result r = ppy({"backends"}, sets({"main", "broken"}) + ":" + extra);
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_FALSE(fs::exists(started)) << "`ppy backends` started a backend";
  EXPECT_THAT(r.out, HasSubstr("ir           builtin\n"));
  EXPECT_THAT(r.out, HasSubstr("spy          ppy-e2e-spy 0.9"));
  EXPECT_THAT(r.out, HasSubstr("toy          ppy-toy 0.1  formats: toy, toy-image"));
  EXPECT_THAT(r.out, HasSubstr("dummy        ppy-e2e-dummy 1.0  formats: dummy, dummy-bin, dummy-prog, dummy-prog-bin, dummy-src"));
  EXPECT_THAT(r.out, HasSubstr("broken       ppy-e2e-broken 1.0"));
  // Doctor does start it.
  Result d = ppy({"doctor"}, sets({"main"}) + ":" + extra);
  EXPECT_TRUE(fs::exists(started)) << d;
}

}  // namespace
