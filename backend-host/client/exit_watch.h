#pragma once
// Watching a helper process while calls to it are in flight: a helper that
// exits while a process of its own still holds its socket leaves the socket
// open, so gRPC alone would wait for the call's deadline (10 s at the
// handshake, minutes for a build) and report a timeout. The watch cancels
// every call it was given as soon as the process ends, and the caller then
// reports how it ended. The handshake and every later call use this one watch.

#include <mutex>
#include <thread>
#include <vector>

#include "grpcpp/client_context.h"

namespace ppy::host::internal {

class ExitWatch {
 public:
  /// Watches the process behind `exit_fd` (a pidfd, readable once it has
  /// ended; BackendProcess::exit_fd) on a thread of its own. With -1 (no
  /// pidfd on this kernel) nothing is watched and calls end by their deadline.
  explicit ExitWatch(int exit_fd);
  /// Stops watching (the thread is joined); `exit_fd` stays the caller's.
  ~ExitWatch();
  ExitWatch(const ExitWatch&) = delete;
  ExitWatch& operator=(const ExitWatch&) = delete;

  /// Cancels `call` when the process ends, or at once if it has; until `forget`.
  void watch(grpc::ClientContext* call);
  void forget(grpc::ClientContext* call);
  /// Whether the process has been seen to end.
  bool exited();

 private:
  void run(int exit_fd);

  std::mutex mu_;
  std::vector<grpc::ClientContext*> calls_;  // guarded by mu_, as is exited_
  bool exited_ = false;
  int stop_ = -1;  ///< an eventfd the destructor writes to end the thread
  std::thread thread_;
};

}  // namespace ppy::host::internal
