// Farm servers for the farm's tests: ppy-test-farm (the toy as one server of a
// farm) on a loopback port, its stderr read as it comes, stopped by the test.
// A server dies with the test process (PR_SET_PDEATHSIG): none outlives it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace ppy::farm_test {

inline const std::string kFarmServer = PPY_FARM_SERVER;

class FarmServer {
 public:
  /// Starts a server listening on `listen` (plaintext) with `extra` flags, and
  /// waits for its `listening` line; `endpoint()` is empty if it never came.
  explicit FarmServer(std::vector<std::string> extra = {}, const std::string& listen = "127.0.0.1:0") {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return;
    pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      std::vector<std::string> args = {kFarmServer, "--listen", listen, "--insecure"};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(kFarmServer.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    err_fd_ = err[0];
    ::fcntl(err_fd_, F_SETFL, O_NONBLOCK);
    std::string line;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(out[0]);
    if (line.starts_with("listening ")) endpoint_ = line.substr(10);
  }
  ~FarmServer() {
    stop(SIGKILL);
    if (err_fd_ >= 0) ::close(err_fd_);
  }
  FarmServer(const FarmServer&) = delete;
  FarmServer& operator=(const FarmServer&) = delete;

  const std::string& endpoint() const { return endpoint_; }
  pid_t pid() const { return pid_; }
  /// The port it listens on.
  std::string port() const { return endpoint_.substr(endpoint_.rfind(':') + 1); }

  /// Sends `sig` and reaps it; answers its wait status (-1 if not running).
  int stop(int sig) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, sig);
    int status = -1;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    read_err();
    return status;
  }
  /// Waits up to `timeout` for it to exit by itself; its wait status, or -1.
  int wait_exit(std::chrono::milliseconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0 && std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        read_err();
        return status;
      }
      read_err();
      ::usleep(5000);
    }
    return -1;
  }

  /// Everything it wrote on stderr so far.
  const std::string& err() {
    read_err();
    return err_;
  }
  /// How many times `needle` occurs in its stderr so far.
  int count(const std::string& needle) {
    read_err();
    int n = 0;
    for (size_t at = err_.find(needle); at != std::string::npos; at = err_.find(needle, at + 1)) ++n;
    return n;
  }

  /// The index of the first of `servers` whose stderr shows `needle` within
  /// `timeout`, or -1.
  static int first_to_say(const std::vector<FarmServer*>& servers, const std::string& needle,
                          std::chrono::milliseconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      for (size_t i = 0; i < servers.size(); ++i)
        if (servers[i]->count(needle) > 0) return static_cast<int>(i);
      ::usleep(2000);
    }
    return -1;
  }

 private:
  void read_err() {
    if (err_fd_ < 0) return;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(err_fd_, buf, sizeof buf)) > 0) err_.append(buf, static_cast<size_t>(n));
  }
  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string endpoint_;
  std::string err_;
};

}  // namespace ppy::farm_test
