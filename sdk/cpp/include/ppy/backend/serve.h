#pragma once
/// Turning a `ppy::Backend` into something the driver can reach.
///
/// `serve(argc, argv, factory)` is a backend executable's whole `main`:
///
///     int main(int argc, char** argv) {
///       return ppy::serve(argc, argv, [](const ppy::Options& o) {
///         return std::make_unique<ToyBackend>(o);
///       });
///     }
///
/// Modes (one of):
///   --fd N              serve on an inherited, connected socket (the driver keeps
///                       the other end of a socketpair); exits when that end closes.
///   --socket PATH       listen on the unix socket PATH; exits when the parent dies.
///   --listen HOST:PORT  a long-running TLS server for many drivers at once:
///                       --tls-cert FILE --tls-key FILE [--tls-client-ca FILE]
///                       (mTLS), or --insecure for plaintext on a trusted network.
///                       Port 0 picks a free port.
/// and: --scratch DIR (where build folders go; default: the working directory for
/// --fd/--socket, the temporary folder for --listen), --max-threads N, --help.
/// --socket and --listen print one line `listening <address>` on stdout once they
/// accept calls. SIGINT and SIGTERM shut the server down cleanly.
/// A --listen server is one of a farm's (docs/farm.md): it serves grpc.health.v1,
/// takes `--max-calls N` (one more Invoke is RESOURCE_EXHAUSTED) and
/// `--drain-timeout S` (SIGTERM/SIGINT refuse new calls, answer NOT_SERVING, and
/// give the calls in flight S seconds before it exits 0), and logs one line per
/// call on stderr.
/// --print-manifest prints the distribution's manifest (`manifest_toml`) and exits.
///
/// This header is what a vendor's `main` includes: it pulls in neither gRPC nor
/// the service. Hosts and tests that serve a backend in their own process use
/// `ppy/backend/serve_grpc.h` (not installed).

#include "ppy/backend/backend.h"
#include "ppy/backend/plugin.h"

namespace ppy {

/// Serves the backend the factory makes, as the command line says; returns the
/// process exit status (0 after a clean shutdown, 2 for a usage error).
int serve(int argc, char** argv, BackendFactory factory);

/// Serves the passes of the plugin the factory makes (the Plugin service), on
/// `--fd N` or `--socket PATH` as the driver spawns it; `--print-manifest`
/// prints its `[distribution]` and `[plugins.<name>]` tables. A plugin is
/// always one driver's helper: there is no `--listen` server for it.
int serve(int argc, char** argv, PluginFactory factory);

}  // namespace ppy
