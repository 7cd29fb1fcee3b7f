// The shared fixture of the end-to-end tests (one file per command beside this
// one): spawning the real `ppy` with a timeout, reading what it wrote, and the
// E2E fixture, a fresh temporary folder per test with the fixture programs and
// PPY_BACKEND_PATH pointed at the distributions CMakeLists.txt writes under
// <build>/tests/e2e/backends/<set>/. The toy backend and ppy-e2e-dummy
// (dummy_main.cc) are spawned out of process by the driver.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>

#include <cstdlib>

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ppy::e2e {

namespace fs = std::filesystem;

inline const std::string kPpy = PPY_BINARY_DIR "/bin/ppy";
inline const std::string kToyDir = PPY_BINARY_DIR "/backends";
inline const std::string kSets = PPY_E2E_DIR "/backends";
inline const std::string kFixtures = PPY_E2E_FIXTURES;
inline const std::string kDummy = PPY_E2E_DUMMY;

// ---------------------------------------------------------------------------
// Spawning `ppy`: stdout, stderr and exit status captured, with a timeout.

struct Result {
  int status = -1;  ///< exit status; 128+N for a signal
  std::string out, err;
  bool timed_out = false;
};

std::ostream& operator<<(std::ostream& os, const Result& r);

struct Spawn {
  std::vector<std::string> args;                 ///< after `ppy`
  std::map<std::string, std::string> env;        ///< set (an empty value is set empty)
  std::string cwd;
  int timeout_s = 120;
  bool stdout_tty = false;  ///< stdout is a pseudo-terminal (read back into `out`)
  bool stderr_tty = false;  ///< with stdout_tty, stderr is that terminal too (read into `out`)
};

/// A running `ppy`.
struct Child {
  pid_t pid = -1;
  int out_fd = -1, err_fd = -1;
};

/// Starts `ppy` with `s`, without waiting (a test may signal it meanwhile).
Child start(const Spawn& s);
/// Waits for `c`, reading its output; SIGKILLs it after `timeout_s`.
Result finish(Child c, int timeout_s);
/// start then finish.
Result run(const Spawn& s);

// ---------------------------------------------------------------------------
// Files and text.

std::string read_file(const fs::path& p);
void write_file(const fs::path& p, const std::string& text);
/// Relative path -> contents of every regular file under `dir`, but ppy's
/// marker of a folder it made (`.ppy-output`).
std::map<std::string, std::string> tree(const fs::path& dir);
/// The relative paths of the regular files under `dir`, sorted.
std::vector<std::string> names_in(const fs::path& dir);
std::vector<std::string> lines_of(const std::string& text);
/// The lines of `text` that contain `needle`.
std::vector<std::string> grep(const std::string& text, const std::string& needle);
/// `key=value` out of a dummy note (`... opt=2 target=t ...`); values end at a space.
std::string field(const std::string& note, const std::string& key);
/// The `ids={m=hex;...}` of a dummy note.
std::map<std::string, std::string> ids_of(const std::string& note);
/// The `id=` in the first line of a dummy artifact.
std::string artifact_id(const std::string& artifact);
/// The staging folders of builds into `out` that are still beside it.
std::vector<std::string> staging_left(const fs::path& out);
bool is_hex64(const std::string& s);
/// Whether `pid` still runs (a zombie does not).
bool process_alive(pid_t pid);

/// The notes a dummy call left: `note: dummy: <call> ...` lines.
std::vector<std::string> notes(const Result& r, const std::string& call, const std::string& name = "dummy");

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

  /// Runs an executable a build wrote (not `ppy`): its status, and its stdout
  /// and stderr together in `out`.
  Result run_file(const fs::path& exe) const {
    std::string out = p(".exe-out");
    int raw = std::system((exe.string() + " >" + out + " 2>&1").c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = read_file(out);
    return r;
  }

  /// A distribution written now under <dir>/dists/<dist>/ (for per-test paths in `args`).
  std::string runtime_dist(const std::string& dist, const std::string& body) {
    write_file(path("dists/" + dist + "/manifest.toml"),
               "[distribution]\nname = \"" + dist + "\"\nversion = \"0.9\"\n\n" + body);
    return p("dists");
  }

  fs::path dir_;
};

}  // namespace ppy::e2e
