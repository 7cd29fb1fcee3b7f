// `ppy::serve` for a plugin: the Plugin service on the inherited socket the
// driver spawned it with (--fd N) or on a unix socket (--socket PATH). A
// plugin is always a spawned helper of one driver: no --listen server.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "grpcpp/server_posix.h"
#include "ppy/backend/plugin_service.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace {

constexpr char kPluginUsage[] =
    "usage: %s (--fd N | --socket PATH) [--print-manifest] [--help]\n"
    "\n"
    "Serves the passes of the ppy plugin `%s` (ppy.backend.v1.Plugin over gRPC).\n"
    "\n"
    "  --fd N            serve on the inherited connected socket N; exit when its\n"
    "                    other end closes (how the ppy driver spawns a plugin)\n"
    "  --socket PATH     listen on the unix socket PATH; exit when the parent dies\n"
    "  --print-manifest  print the distribution's [distribution] and [plugins.NAME]\n"
    "                    tables (from the plugin class) and exit\n"
    "  --help            this text\n";

struct PluginArgs {
  int fd = -1;
  std::string socket;
  bool help = false, print_manifest = false;
};

bool parse(int argc, char** argv, PluginArgs& a, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) {
        error = str_cat(arg, " needs a value");
        return false;
      }
      out = argv[++i];
      return true;
    };
    std::string v;
    if (arg == "--help" || arg == "-h") {
      a.help = true;
    } else if (arg == "--print-manifest") {
      a.print_manifest = true;
    } else if (arg == "--fd") {
      if (!value(v)) return false;
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 0) {
        error = str_cat("--fd needs a number, not '", v, "'");
        return false;
      }
      a.fd = static_cast<int>(n);
    } else if (arg == "--socket") {
      if (!value(a.socket)) return false;
    } else if (arg == "--scratch") {
      if (!value(v)) return false;  // accepted as backends take it; a plugin writes nothing
    } else {
      error = str_cat("unknown argument '", arg, "'");
      return false;
    }
  }
  if (a.help || a.print_manifest) return true;
  if ((a.fd >= 0) == !a.socket.empty()) {
    error = "give exactly one of --fd, --socket";
    return false;
  }
  return true;
}

std::unique_ptr<Plugin> make(const PluginFactory& factory, std::string& why) {
  try {
    if (std::unique_ptr<Plugin> p = factory(Options{})) return p;
    why = "the factory answered no plugin";
  } catch (const std::exception& e) {
    why = e.what();
  }
  return nullptr;
}

}  // namespace

int serve(int argc, char** argv, PluginFactory factory) {
  const char* prog = argc > 0 ? argv[0] : "ppy-plugin";
  PluginArgs args;
  std::string error;
  if (!parse(argc, argv, args, error)) {
    std::fprintf(stderr, "%s: %s (see --help)\n", prog, error.c_str());
    return 2;
  }
  if (args.help || args.print_manifest) {
    std::string why;
    std::unique_ptr<Plugin> plugin = make(factory, why);
    if (args.help) {
      std::printf(kPluginUsage, prog, plugin ? std::string(plugin->name()).c_str() : "?");
      return 0;
    }
    if (!plugin) {
      std::fprintf(stderr, "%s: cannot make the plugin: %s\n", prog, why.c_str());
      return 1;
    }
    absl::StatusOr<std::string> toml = manifest_toml(*plugin, std::filesystem::path(prog).filename().string());
    if (!toml.ok()) {
      std::fprintf(stderr, "%s: %s\n", prog, std::string(toml.status().message()).c_str());
      return 1;
    }
    std::fwrite(toml->data(), 1, toml->size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }

  const int signal_fd = block_stop_signals();
  route_grpc_logging(GrpcLog::Off);  // its stderr is the tail the driver shows: the plugin's own words

  std::atomic<bool> stop{false};
  PluginService service(std::move(factory), [&stop] { stop = true; });
  grpc::ServerBuilder builder;
  configure_server_builder(builder, 4);
  builder.RegisterService(&service);
  if (!args.socket.empty()) {
    std::error_code ec;
    std::filesystem::remove(args.socket, ec);
    builder.AddListeningPort("unix:" + args.socket, grpc::InsecureServerCredentials());
  } else {
    if (!adopt_inherited_socket(prog, args.fd)) return 2;
  }
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "%s: cannot serve\n", prog);
    return 1;
  }
  int watch_fd = -1;
  if (args.fd >= 0) {
    watch_fd = ::fcntl(args.fd, F_DUPFD_CLOEXEC, 3);
    grpc::AddInsecureChannelFromFd(server.get(), args.fd);
  } else {
    std::printf("listening unix:%s\n", args.socket.c_str());
    std::fflush(stdout);
  }
  // Until a signal, a Shutdown call, the driver's end closing or the driver gone.
  const pid_t parent = ::getppid();
  while (!stop) {
    pollfd fds[2] = {{signal_fd, POLLIN, 0}, {watch_fd, POLLRDHUP, 0}};
    int r = ::poll(fds, watch_fd >= 0 ? 2 : 1, 200);
    if (r > 0 && (fds[0].revents & POLLIN)) break;
    if (r > 0 && watch_fd >= 0 && (fds[1].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) break;
    if (parent > 1 && ::getppid() != parent) break;
  }
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  server->Wait();
  release_server_files(watch_fd, signal_fd, args.socket);
  return 0;
}

}  // namespace ppy
