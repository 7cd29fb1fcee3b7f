#pragma once
// A remote backend's servers: the `endpoints` a manifest or project names (or
// one name that resolves to several), resolved when the driver connects, the
// one channel target that balances over them, and whether their handshakes
// agree.

#include <string>
#include <vector>

#include "ppy/backend/v1/backend.pb.h"

namespace ppy::host::internal {

/// One server of a remote backend.
struct FarmServer {
  std::string endpoint;  ///< as configured (`build1.example:7000`)
  /// What gRPC dials and `ClientContext::peer()` names: `ipv4:10.0.0.3:7000`,
  /// `ipv6:[::1]:7000`, or the endpoint itself when gRPC resolves it (unix:...).
  std::string address;
  /// `endpoint`, with the address when the endpoint is a name.
  std::string label() const;
};

/// What the endpoints resolve to, and those that resolved to nothing.
struct Farm {
  std::vector<FarmServer> servers;
  std::vector<std::pair<std::string, std::string>> unresolved;  ///< endpoint, why
};

/// Resolves each endpoint now (`host:port`, `[v6]:port`, `dns:///host:port`):
/// every address a name has is a server (its IPv4 addresses where it has any,
/// else its IPv6 ones). Any other target (`unix:...`) is one server, resolved
/// by gRPC. The same address twice is one server.
Farm resolve_farm(const std::vector<std::string>& endpoints);

/// The one channel target over every server: `ipv4:a:p,b:p`, `ipv6:[a]:p,...`,
/// or the single server's address. Empty when IPv4 and IPv6 servers are mixed.
std::string balanced_target(const std::vector<FarmServer>& servers);

/// The host part of an endpoint (`build1.example` of `dns:///build1.example:7000`),
/// the name its TLS certificate is checked against.
std::string endpoint_host(const std::string& endpoint);
/// The endpoint's `host:port` (without a `dns:` scheme): the `:authority` a
/// server is told; empty for a target that is not `host:port` (unix:...).
std::string endpoint_authority(const std::string& endpoint);

/// The channel's service config: gRPC's `round_robin` over the servers, each
/// watched with `grpc.health.v1` health checking (a draining server answers
/// NOT_SERVING and gets no new calls).
inline constexpr char kFarmServiceConfig[] =
    R"({"loadBalancingConfig":[{"round_robin":{}}],"healthCheckConfig":{"serviceName":""}})";
/// One server: nothing to balance, and no health to watch. It may be a proxy
/// (nginx) whose own upstream checks are what count, and which answers no
/// health service of its own.
inline constexpr char kOneServerServiceConfig[] = R"({"loadBalancingConfig":[{"round_robin":{}}]})";

/// What in `other`'s handshake differs from `reference`'s, in words (`its
/// fingerprint is 'b', not 'a'`), or empty when they agree on what one
/// backend's servers must share: name, API version, distribution and version,
/// formats, passes and fingerprint (not the toolchain's detail nor the SDK).
std::string handshake_difference(const backend::v1::HandshakeResponse& reference,
                                 const backend::v1::HandshakeResponse& other);

/// The gRPC status codes after which a call goes to another server: the server
/// is gone or going (UNAVAILABLE: refused, reset, draining; CANCELLED: a
/// server shutting down cancels the calls it had not started) or full
/// (RESOURCE_EXHAUSTED, `--max-calls`). Never a backend's own answer; the
/// caller's own cancel() is not retried.
bool retry_elsewhere(int grpc_code);

}  // namespace ppy::host::internal
