#pragma once
// nginx on loopback for the farm's tests (the front proxy and the WebDAV
// remote cache): finding it, a free port, a throwaway CA and certificate for
// TLS, and nginx in the foreground dying with the test.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ppy::e2e {

/// nginx, if installed.
inline std::string nginx_path() {
  for (const char* p : {"/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"})
    if (::access(p, X_OK) == 0) return p;
  return {};
}

/// Whether nginx at `exe` has TLS (`--with-http_ssl_module` in `nginx -V`,
/// as Debian's does): an https test skips, saying so, where it has not.
inline bool nginx_has_ssl(const std::string& exe) {
  std::string out;
  if (FILE* f = ::popen(("'" + exe + "' -V 2>&1").c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
    ::pclose(f);
  }
  return out.find("--with-http_ssl_module") != std::string::npos;
}

/// Makes, in `dir`, a throwaway CA (`ca.pem`, `ca.key`) and a server
/// certificate it signs for localhost and 127.0.0.1 (`server.pem`,
/// `server.key`), with openssl (tools/setup installs it). False when openssl failed.
inline bool make_test_certificates(const std::filesystem::path& dir) {
  std::string script =
      "set -e; cd '" + dir.string() + "'; K='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';"
      "openssl req -x509 $K -keyout ca.key -out ca.pem -days 2 -subj '/CN=ppy test CA' 2>/dev/null;"
      "openssl req $K -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null;"
      "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1' > san.cnf;"
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
      "-days 2 -extfile san.cnf 2>/dev/null";
  return std::system(script.c_str()) == 0;
}

/// A loopback port nothing listens on now.
inline int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t n = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  ::close(fd);
  return ntohs(a.sin_port);
}

/// Whether something accepts connections on the loopback `port`.
inline bool accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

/// nginx in the foreground, one process (no workers to outlive it), dying with the test.
class Nginx {
 public:
  Nginx(const std::string& exe, const std::filesystem::path& conf, const std::filesystem::path& run) {
    pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      std::string e = (run / "error.log").string(), c = conf.string();
      ::execl(exe.c_str(), exe.c_str(), "-e", e.c_str(), "-c", c.c_str(), "-g", "daemon off; master_process off;",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Nginx() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Nginx(const Nginx&) = delete;
  Nginx& operator=(const Nginx&) = delete;
  bool running() { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

 private:
  pid_t pid_ = -1;
};

/// nginx on `port` with `tools/farm/<conf_name>`, each `@NAME@` of `values`
/// replaced, its config written into `run`; waits (up to 10 s) until the port
/// accepts or nginx has died.
inline std::unique_ptr<Nginx> start_nginx(const std::string& exe, const std::string& conf_name,
                                          const std::filesystem::path& run, int port,
                                          const std::vector<std::pair<std::string, std::string>>& values) {
  std::ifstream in(std::filesystem::path(PPY_SOURCE_DIR) / "tools/farm" / conf_name);
  std::stringstream text;
  text << in.rdbuf();
  std::string conf = text.str();
  for (const auto& [name, value] : values)
    for (size_t at; (at = conf.find(name)) != std::string::npos;) conf.replace(at, name.size(), value);
  std::ofstream(run / "nginx.conf") << conf;
  auto nginx = std::make_unique<Nginx>(exe, run / "nginx.conf", run);
  for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       !accepts(port) && nginx->running() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return nginx;
}

}  // namespace ppy::e2e
