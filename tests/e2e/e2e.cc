// The shared fixture's spawning and file helpers (declared in e2e.h).
#include "e2e.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <regex>

#include "ppy/util/file.h"

extern char** environ;

namespace ppy::e2e {

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "status " << r.status << (r.timed_out ? " (timed out)" : "") << "\n--- stdout\n"
            << r.out << "\n--- stderr\n"
            << r.err;
}

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
  // A developer's shared cache never reaches a test that does not ask for one.
  for (const char* k : {"PPY_REMOTE_CACHE", "PPY_REMOTE_CACHE_TOKEN", "PPY_REMOTE_CACHE_CA", "PPY_REMOTE_CACHE_TIMEOUT_MS"})
    env.erase(k);
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
    if (s.stdout_tty && s.stderr_tty)
      dup2(1, 2);
    else
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

std::string read_file(const fs::path& p) { return ppy::read_file(p).value_or(""); }

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path() != dir / ".ppy-output")
      out[fs::relative(e.path(), dir).string()] = read_file(e.path());
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

/// The notes a dummy call left: `note: dummy: <call> ...` lines.
std::vector<std::string> notes(const Result& r, const std::string& call, const std::string& name) {
  return grep(r.err, "note: " + name + ": " + call + " ");
}

}  // namespace ppy::e2e
