#include "ppy/backend/serve_grpc.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <future>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "grpc/grpc.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/server_posix.h"
#include "ppy/backend/wire.h"
#include "ppy/util/memory.h"
#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace {

constexpr char kUsage[] =
    "usage: %s (--fd N | --socket PATH | --listen HOST:PORT) [options]\n"
    "\n"
    "Serves the ppy backend `%s` (ppy.backend.v1.Backend over gRPC).\n"
    "\n"
    "  --fd N               serve on the inherited connected socket N; exit when its\n"
    "                       other end closes (how the ppy driver spawns a helper)\n"
    "  --socket PATH        listen on the unix socket PATH; exit when the parent dies\n"
    "  --listen HOST:PORT   a long-running server for many drivers (port 0: any free\n"
    "                       port); needs --tls-cert and --tls-key, or --insecure\n"
    "  --tls-cert FILE      the server's certificate chain (PEM)\n"
    "  --tls-key FILE       its private key (PEM)\n"
    "  --tls-client-ca FILE require client certificates signed by this CA (mTLS)\n"
    "  --insecure           --listen without TLS (trusted networks and tests only)\n"
    "  --scratch DIR        where build folders are made (default: the working\n"
    "                       directory when spawned, the temporary folder for --listen)\n"
    "  --max-threads N      bound on the server's threads (default 8, --listen 64)\n"
    "  --max-calls N        --listen: serve at most N Invoke calls at once; one more\n"
    "                       is refused RESOURCE_EXHAUSTED (a farm's driver then tries\n"
    "                       another server; default: no bound)\n"
    "  --drain-timeout S    --listen: on SIGTERM or SIGINT stop taking calls, answer\n"
    "                       NOT_SERVING to health checks, and give the calls in flight\n"
    "                       up to S seconds to finish before exiting 0 (default 30; a\n"
    "                       second signal stops at once)\n"
    "  --print-manifest     print the distribution's manifest.toml (from the backend\n"
    "                       class) and exit\n"
    "  --help               this text\n"
    "\n"
    "--socket and --listen print `listening <address>` on stdout once ready; --listen\n"
    "logs one line per call on stderr (call, peer, action, modules, bytes in and\n"
    "out, duration, outcome).\n";

struct Args {
  int fd = -1;
  std::string socket;
  std::string listen;
  std::string tls_cert, tls_key, tls_client_ca;
  bool insecure = false;
  std::string scratch;
  int max_threads = 0;
  int max_calls = 0;
  int drain_timeout_s = 30;
  bool help = false;
  bool print_manifest = false;
};

/// Parses `--key value` and `--key=value`; the error names what is wrong.
bool parse_args(int argc, char** argv, Args& a, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto take = [&](std::string& out) {
      if (has_value) {
        out = value;
        return true;
      }
      if (i + 1 >= argc) {
        error = str_cat(arg, " needs a value");
        return false;
      }
      out = argv[++i];
      return true;
    };
    auto take_int = [&](int& out) {
      std::string s;
      if (!take(s)) return false;
      char* end = nullptr;
      long v = std::strtol(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || v < 0 || v > INT_MAX) {
        error = str_cat(arg, " needs a number, not '", s, "'");
        return false;
      }
      out = static_cast<int>(v);
      return true;
    };
    if (arg == "--help" || arg == "-h") a.help = true;
    else if (arg == "--print-manifest") a.print_manifest = true;
    else if (arg == "--insecure") a.insecure = true;
    else if (arg == "--fd") { if (!take_int(a.fd)) return false; }
    else if (arg == "--socket") { if (!take(a.socket)) return false; }
    else if (arg == "--listen") { if (!take(a.listen)) return false; }
    else if (arg == "--tls-cert") { if (!take(a.tls_cert)) return false; }
    else if (arg == "--tls-key") { if (!take(a.tls_key)) return false; }
    else if (arg == "--tls-client-ca") { if (!take(a.tls_client_ca)) return false; }
    else if (arg == "--scratch") { if (!take(a.scratch)) return false; }
    else if (arg == "--max-threads") { if (!take_int(a.max_threads)) return false; }
    else if (arg == "--max-calls") { if (!take_int(a.max_calls)) return false; }
    else if (arg == "--drain-timeout") { if (!take_int(a.drain_timeout_s)) return false; }
    else {
      error = str_cat("unknown argument '", arg, "'");
      return false;
    }
  }
  if (a.help || a.print_manifest) return true;
  int modes = (a.fd >= 0) + !a.socket.empty() + !a.listen.empty();
  if (modes != 1) {
    error = "give exactly one of --fd, --socket, --listen";
    return false;
  }
  if (!a.listen.empty() && !a.insecure && (a.tls_cert.empty() || a.tls_key.empty())) {
    error = "--listen needs --tls-cert and --tls-key (or --insecure)";
    return false;
  }
  if (a.listen.empty() && (!a.tls_cert.empty() || !a.tls_key.empty() || !a.tls_client_ca.empty())) {
    error = "--tls-* options go with --listen";
    return false;
  }
  return true;
}

/// Keeps gRPC initialised from before a server is set up until after it is
/// gone: without it the builder's temporaries (the ResourceQuota) shut gRPC
/// down, threads and all, and the server started it again, which doubled a
/// helper's start-up.
struct GrpcUp {
  GrpcUp() { grpc_init(); }
  ~GrpcUp() { grpc_shutdown(); }
  GrpcUp(const GrpcUp&) = delete;
  GrpcUp& operator=(const GrpcUp&) = delete;
};

/// The one reason the server stops, whoever notices first.
class StopSignal {
 public:
  void request(std::string why) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    why_ = std::move(why);
    cv_.notify_all();
  }
  std::string wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return stopped_; });
    return why_;
  }
  bool stopped() {
    std::lock_guard<std::mutex> lock(mu_);
    return stopped_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopped_ = false;
  std::string why_;
};

/// Watches what should end the server: SIGINT/SIGTERM (through a signalfd, the
/// signals being blocked in every thread), the driver's end of the inherited
/// socket closing (`watch_fd`, a dup of it), and the parent going away.
void watch(StopSignal& stop, int signal_fd, int watch_fd, pid_t parent) {
  while (!stop.stopped()) {
    pollfd fds[2];
    int n = 0;
    fds[n++] = pollfd{signal_fd, POLLIN, 0};
    if (watch_fd >= 0) fds[n++] = pollfd{watch_fd, POLLRDHUP, 0};
    int r = ::poll(fds, n, 200);
    if (r < 0 && errno != EINTR) break;
    if (r > 0 && (fds[0].revents & POLLIN)) {
      signalfd_siginfo info{};
      (void)!::read(signal_fd, &info, sizeof info);
      stop.request(str_cat("signal ", static_cast<int>(info.ssi_signo)));
    }
    if (r > 0 && watch_fd >= 0 && (fds[1].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
      stop.request("the driver closed its end");
    if (parent > 1 && ::getppid() != parent) stop.request("the parent process is gone");
  }
}

/// `--print-manifest`: the manifest of the backend the factory makes with no
/// options, naming this executable by its file name (the manifest lies beside it).
int print_manifest(const char* prog, const BackendFactory& factory) {
  std::unique_ptr<Backend> backend;
  std::string why = "the factory answered no backend";
  try {
    backend = factory(Options{});
  } catch (const std::exception& e) {
    why = e.what();
  }
  if (!backend) {
    std::fprintf(stderr, "%s: cannot make the backend: %s\n", prog, why.c_str());
    return 1;
  }
  absl::StatusOr<std::string> toml =
      manifest_toml(*backend, std::filesystem::path(prog).filename().string());
  if (!toml.ok()) {
    std::fprintf(stderr, "%s: %s\n", prog, std::string(toml.status().message()).c_str());
    return 1;
  }
  std::fwrite(toml->data(), 1, toml->size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

/// How much a stream may have in flight unread: a module or an artifact of a
/// few MiB crosses without waiting for HTTP/2 window updates (a tenth faster
/// for data-heavy modules). A shared server keeps gRPC's default: it would be
/// buffering that much for every stream of every client.
constexpr int kFlowWindow = 8 << 20;

grpc::ChannelArguments backend_channel_arguments() {
  grpc::ChannelArguments a;
  a.SetMaxReceiveMessageSize(-1);
  a.SetMaxSendMessageSize(-1);
  a.SetInt(GRPC_ARG_ENABLE_RETRIES, 0);
  a.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  a.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, kFlowWindow);
  return a;
}

bool adopt_inherited_socket(const char* prog, int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) {
    std::fprintf(stderr, "%s: --fd %d is not an open descriptor\n", prog, fd);
    return false;
  }
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return true;
}

int block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  return ::signalfd(-1, &signals, SFD_CLOEXEC);
}

void release_server_files(int watch_fd, int signal_fd, const std::string& socket) {
  if (watch_fd >= 0) ::close(watch_fd);
  if (signal_fd >= 0) ::close(signal_fd);
  if (!socket.empty()) {
    std::error_code ec;
    std::filesystem::remove(socket, ec);
  }
}

void configure_server_builder(grpc::ServerBuilder& builder, int max_threads) {
  builder.SetMaxReceiveMessageSize(INT_MAX);
  builder.SetMaxSendMessageSize(INT_MAX);
  // One completion queue and few pollers: a spawned helper serves one driver,
  // and every thread started is cold-start time.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 2);
  grpc::ResourceQuota quota("ppy-backend");
  quota.SetMaxThreads(std::max(max_threads, 4));
  builder.SetResourceQuota(quota);
}

int serve(int argc, char** argv, BackendFactory factory) {
  Args args;
  std::string error;
  const char* prog = argc > 0 ? argv[0] : "ppy-backend";
  // The backend's name for --help, without making one with options it did not get.
  auto backend_name = [&]() -> std::string {
    try {
      if (std::unique_ptr<Backend> b = factory(Options{})) return std::string(b->name());
    } catch (...) {
    }
    return "?";
  };
  if (!parse_args(argc, argv, args, error)) {
    std::fprintf(stderr, "%s: %s (see --help)\n", prog, error.c_str());
    return 2;
  }
  if (args.help) {
    std::printf(kUsage, prog, backend_name().c_str());
    return 0;
  }
  if (args.print_manifest) return print_manifest(prog, factory);

  // SIGINT/SIGTERM are read from a signalfd by the watcher; block them before any
  // thread starts so every thread inherits the mask.
  int signal_fd = block_stop_signals();

  const bool spawned = args.listen.empty();
  // gRPC's own lines: a spawned helper's stderr is the tail its driver shows,
  // kept for the backend's words; a --listen server's is its operator's log.
  route_grpc_logging(spawned ? GrpcLog::Off : GrpcLog::Error);
  if (spawned) keep_freed_memory();  // it rebuilds a module of the same size each call
  StopSignal stop;
  ServiceOptions options;
  options.scratch_dir = !args.scratch.empty() ? std::filesystem::path(args.scratch)
                        : spawned             ? std::filesystem::current_path()
                                              : std::filesystem::path();
  options.allow_shutdown = spawned;
  // The driver that spawned it made the step file in its working directory (the scratch folder).
  if (spawned) options.step_file = std::filesystem::current_path() / wire::kStepFileName;
  options.on_shutdown = [&stop] { stop.request("asked to shut down"); };
  if (!spawned) {
    options.max_calls = args.max_calls;
    options.send_identity = true;
    // A farm's operator sees what each server does. (A spawned helper's stderr
    // is the tail a failure shows; it is kept for the backend's own words.)
    options.on_call = [prog](const CallRecord& r) {
      std::string line = str_cat(prog, ": ", log_line(r), "\n");
      std::fputs(line.c_str(), stderr);
    };
  }
  BackendService service(std::move(factory), options);

  GrpcUp grpc_up;
  // A farm's servers answer grpc.health.v1, which the driver's round_robin
  // watches: a server that is draining gets no new calls.
  if (!spawned) grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  configure_server_builder(builder, args.max_threads > 0 ? args.max_threads : spawned ? 8 : 64);
  if (spawned) builder.AddChannelArgument(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, kFlowWindow);
  builder.RegisterService(&service);
  int port = 0;
  std::string address;
  if (!args.socket.empty()) {
    std::error_code ec;
    std::filesystem::remove(args.socket, ec);  // a stale socket from an earlier run
    address = "unix:" + args.socket;
    builder.AddListeningPort(address, grpc::InsecureServerCredentials());
  } else if (!args.listen.empty()) {
    std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
    if (!args.insecure) {
      std::string cert, key, ca;
      for (auto [path, out] : {std::pair{&args.tls_cert, &cert}, {&args.tls_key, &key}, {&args.tls_client_ca, &ca}}) {
        if (path->empty() && out == &ca) continue;
        absl::StatusOr<std::string> bytes = read_file(*path);
        if (!bytes.ok()) {
          std::fprintf(stderr, "%s: %s\n", prog, std::string(bytes.status().message()).c_str());
          return 2;
        }
        *out = std::move(*bytes);
      }
      grpc::SslServerCredentialsOptions ssl(
          ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                     : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
      ssl.pem_root_certs = ca;
      ssl.pem_key_cert_pairs.push_back({key, cert});
      creds = grpc::SslServerCredentials(ssl);
    }
    builder.AddListeningPort(args.listen, creds, &port);
  } else {
    if (!adopt_inherited_socket(prog, args.fd)) return 2;
  }

  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "%s: cannot serve on %s\n", prog,
                 !args.listen.empty() ? args.listen.c_str() : address.c_str());
    return 1;
  }
  int watch_fd = -1;
  if (args.fd >= 0) {
    watch_fd = ::fcntl(args.fd, F_DUPFD_CLOEXEC, 3);
    grpc::AddInsecureChannelFromFd(server.get(), args.fd);
  } else if (!args.socket.empty()) {
    std::printf("listening %s\n", address.c_str());
  } else {
    std::string host = args.listen.substr(0, args.listen.rfind(':'));
    std::printf("listening %s:%d\n", host.c_str(), port);
  }
  std::fflush(stdout);

  std::thread watcher(watch, std::ref(stop), signal_fd, watch_fd, spawned ? ::getppid() : 0);
  const std::string why = stop.wait();
  watcher.join();  // from here on a second signal is read below
  // Calls still running get a moment to finish. gRPC's own deadline also waits
  // for idle connections the clients keep open, so drain the calls here and give
  // gRPC only the time to flush the last answers (the Shutdown call's included).
  // A --listen server drains: no new call (UNAVAILABLE), NOT_SERVING to the
  // health checks a farm's driver watches, and the calls in flight finish.
  if (!spawned) {
    service.drain();
    if (grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService())
      health->SetServingStatus(false);
    std::fprintf(stderr, "%s: %s: draining, %d call(s) in flight (at most %d s)\n", prog, why.c_str(),
                 service.active_calls(), args.drain_timeout_s);
  }
  const auto drain_until = std::chrono::steady_clock::now() + std::chrono::seconds(spawned ? 2 : args.drain_timeout_s);
  bool again = false;
  while (service.active_calls() > 0 && std::chrono::steady_clock::now() < drain_until && !again) {
    pollfd p{signal_fd, POLLIN, 0};
    if (!spawned && ::poll(&p, 1, 5) > 0) {
      signalfd_siginfo info{};
      again = ::read(signal_fd, &info, sizeof info) > 0;
    } else if (spawned) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (!spawned) {
    int left = service.active_calls();
    if (left == 0) std::fprintf(stderr, "%s: drained\n", prog);
    else std::fprintf(stderr, "%s: %s; %d call(s) cancelled\n", prog,
                      again ? "a second signal" : "the drain timed out", left);
  }
  if (spawned || service.active_calls() == 0) {
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
    server->Wait();
  } else {
    // gRPC's Shutdown waits for every handler to return, and a backend past
    // the drain's bound may never: the bound is the operator's promise.
    std::promise<void> down;
    std::future<void> closed = down.get_future();
    std::thread closer([&] {
      server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
      server->Wait();
      down.set_value();
    });
    if (closed.wait_for(std::chrono::seconds(1)) != std::future_status::ready) {
      std::fflush(stderr);
      std::_Exit(0);
    }
    closer.join();
  }
  release_server_files(watch_fd, signal_fd, args.socket);
  return 0;
}

InProcessBackend::~InProcessBackend() {
  if (server) {
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    server->Wait();
  }
}

std::unique_ptr<InProcessBackend> serve_in_process(BackendFactory factory, ServiceOptions options) {
  auto p = std::make_unique<InProcessBackend>();
  p->service = std::make_unique<BackendService>(std::move(factory), std::move(options));
  GrpcUp grpc_up;
  grpc::ServerBuilder builder;
  configure_server_builder(builder, 16);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, kFlowWindow);
  builder.RegisterService(p->service.get());
  p->server = builder.BuildAndStart();
  if (p->server) p->channel = p->server->InProcessChannel(backend_channel_arguments());
  return p;
}

}  // namespace ppy
