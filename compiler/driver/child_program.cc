#include "child_program.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

namespace ppy::driver {
namespace {

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                             const std::vector<std::string>& env = {}, const std::filesystem::path& program = {}) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
  if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(127);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(program.empty() ? args[0] : program.c_str(), args.data());
  ::_exit(127);
}

int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

}  // namespace

int run_child(const std::vector<std::string>& argv, const std::filesystem::path& cwd, std::ostream& out,
              const std::vector<std::string>& env, const std::filesystem::path& program) {
  out.flush();
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = ::fork();
  if (pid < 0) return 127;
  if (pid == 0) exec_child(argv, cwd, env, program);
  return wait_status(pid);
}

int run_tool_captured(const std::vector<std::string>& argv, std::string& output) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) return 127;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    return 127;
  }
  if (pid == 0) {
    ::dup2(pipefd[1], 1);
    ::dup2(pipefd[1], 2);
    exec_child(argv, {});
  }
  ::close(pipefd[1]);
  char buf[4096];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buf, static_cast<size_t>(n));
  }
  ::close(pipefd[0]);
  return wait_status(pid);
}

bool ScratchFolder::make(const std::string& prefix) {
  std::error_code ec;
  std::string folder = (std::filesystem::temp_directory_path(ec) / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(folder.data())) return false;
  path_ = std::move(folder);
  return true;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

}  // namespace ppy::driver
