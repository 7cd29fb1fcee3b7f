#include "exit_watch.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>

namespace ppy::host::internal {

ExitWatch::ExitWatch(int exit_fd) {
  if (exit_fd < 0) return;
  stop_ = eventfd(0, EFD_CLOEXEC);
  if (stop_ < 0) return;
  thread_ = std::thread([this, exit_fd] { run(exit_fd); });
}

ExitWatch::~ExitWatch() {
  if (thread_.joinable()) {
    uint64_t one = 1;
    while (::write(stop_, &one, sizeof one) < 0 && errno == EINTR) {
    }
    thread_.join();
  }
  if (stop_ >= 0) ::close(stop_);
}

void ExitWatch::run(int exit_fd) {
  struct pollfd fds[2] = {{exit_fd, POLLIN, 0}, {stop_, POLLIN, 0}};
  for (;;) {
    int n = ::poll(fds, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || (fds[1].revents & POLLIN)) return;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) break;
  }
  std::lock_guard<std::mutex> lock(mu_);
  exited_ = true;
  for (grpc::ClientContext* c : calls_) c->TryCancel();
}

void ExitWatch::watch(grpc::ClientContext* call) {
  std::lock_guard<std::mutex> lock(mu_);
  calls_.push_back(call);
  if (exited_) call->TryCancel();  // before the call starts: gRPC cancels it as it does
}

void ExitWatch::forget(grpc::ClientContext* call) {
  std::lock_guard<std::mutex> lock(mu_);
  calls_.erase(std::remove(calls_.begin(), calls_.end(), call), calls_.end());
}

bool ExitWatch::exited() {
  std::lock_guard<std::mutex> lock(mu_);
  return exited_;
}

}  // namespace ppy::host::internal
