#include "farm.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <set>

#include "grpcpp/support/status.h"
#include "ppy/util/str_cat.h"

namespace v1 = ::ppy::backend::v1;

namespace ppy::host::internal {
namespace {

/// `host` and `port` of `host:port` or `[v6]:port`; false when it is neither.
bool split_host_port(std::string_view s, std::string& host, std::string& port) {
  if (s.starts_with("[")) {
    size_t close = s.find(']');
    if (close == std::string_view::npos || close + 1 >= s.size() || s[close + 1] != ':') return false;
    host = s.substr(1, close - 1);
    port = s.substr(close + 2);
  } else {
    size_t colon = s.rfind(':');
    if (colon == std::string_view::npos || s.substr(0, colon).find(':') != std::string_view::npos) return false;
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
  }
  return !host.empty() && !port.empty() && port.find_first_not_of("0123456789") == std::string::npos;
}

/// `dns:///h:p` and `dns:h:p` name `h:p`; other schemes are gRPC's to resolve.
std::string_view without_dns_scheme(std::string_view e) {
  if (e.starts_with("dns:///")) return e.substr(7);
  if (e.starts_with("dns:") && !e.starts_with("dns://")) return e.substr(4);
  return e;
}

}  // namespace

std::string FarmServer::label() const {
  if (address == endpoint) return endpoint;
  std::string bare = address.substr(address.find(':') + 1);
  return bare == endpoint ? endpoint : str_cat(endpoint, " (", bare, ")");
}

Farm resolve_farm(const std::vector<std::string>& endpoints) {
  Farm farm;
  std::set<std::string> seen;
  auto add = [&](const std::string& endpoint, std::string address) {
    if (seen.insert(address).second) farm.servers.push_back({endpoint, std::move(address)});
  };
  for (const std::string& endpoint : endpoints) {
    std::string host, port;
    if (!split_host_port(without_dns_scheme(endpoint), host, port)) {
      add(endpoint, endpoint);  // unix:..., or something gRPC will say is not a target
      continue;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (int e = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); e != 0) {
      farm.unresolved.emplace_back(endpoint, str_cat("it does not resolve: ", gai_strerror(e)));
      continue;
    }
    std::vector<std::string> v4, v6;
    for (addrinfo* a = found; a; a = a->ai_next) {
      char text[INET6_ADDRSTRLEN] = {};
      if (a->ai_family == AF_INET) {
        auto* in = reinterpret_cast<sockaddr_in*>(a->ai_addr);
        ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
        v4.push_back(str_cat("ipv4:", text, ":", port));
      } else if (a->ai_family == AF_INET6) {
        auto* in = reinterpret_cast<sockaddr_in6*>(a->ai_addr);
        ::inet_ntop(AF_INET6, &in->sin6_addr, text, sizeof text);
        v6.push_back(str_cat("ipv6:[", text, "]:", port));
      }
    }
    ::freeaddrinfo(found);
    for (std::string& a : v4.empty() ? v6 : v4) add(endpoint, std::move(a));
  }
  return farm;
}

std::string balanced_target(const std::vector<FarmServer>& servers) {
  if (servers.size() == 1) return servers[0].address;
  std::string scheme, list;
  for (const FarmServer& s : servers) {
    size_t colon = s.address.find(':');
    std::string this_scheme = s.address.substr(0, colon);
    if (this_scheme != "ipv4" && this_scheme != "ipv6") return {};
    if (!scheme.empty() && scheme != this_scheme) return {};
    scheme = this_scheme;
    str_append(list, list.empty() ? "" : ",", s.address.substr(colon + 1));
  }
  return str_cat(scheme, ":", list);
}

std::string endpoint_host(const std::string& endpoint) {
  std::string host, port;
  if (split_host_port(without_dns_scheme(endpoint), host, port)) return host;
  return endpoint;
}

std::string endpoint_authority(const std::string& endpoint) {
  std::string host, port;
  std::string_view bare = without_dns_scheme(endpoint);
  return split_host_port(bare, host, port) ? std::string(bare) : std::string();
}

std::string handshake_difference(const v1::HandshakeResponse& a, const v1::HandshakeResponse& b) {
  auto quoted = [](const std::string& s) { return str_cat("'", s, "'"); };
  auto version = [](const v1::HandshakeResponse& r) {
    return r.has_api_version() ? str_cat(r.api_version()) : std::string("none");
  };
  std::vector<std::string> out;
  if (a.name() != b.name()) out.push_back(str_cat("its name is ", quoted(b.name()), ", not ", quoted(a.name())));
  if (version(a) != version(b))
    out.push_back(str_cat("it declares API version ", version(b), ", not ", version(a)));
  if (a.distribution() != b.distribution() || a.distribution_version() != b.distribution_version())
    out.push_back(str_cat("its distribution is ", quoted(str_cat(b.distribution(), " ", b.distribution_version())),
                          ", not ", quoted(str_cat(a.distribution(), " ", a.distribution_version()))));
  auto formats = [](const v1::HandshakeResponse& r) {
    std::vector<std::string> f;
    for (const auto& x : r.formats()) f.push_back(x.ShortDebugString());
    std::sort(f.begin(), f.end());
    return f;
  };
  if (formats(a) != formats(b)) {
    std::string names;
    for (const auto& f : b.formats()) str_append(names, names.empty() ? "" : ", ", f.name());
    out.push_back(str_cat("its formats differ (it emits ", names.empty() ? "none" : names, ")"));
  }
  auto passes = [](const v1::HandshakeResponse& r) {
    std::string p;
    for (const auto& x : r.passes()) str_append(p, p.empty() ? "" : ", ", x.name(), "@", x.stage());
    return p;
  };
  if (passes(a) != passes(b))
    out.push_back(str_cat("its passes are [", passes(b), "], not [", passes(a), "]"));
  if (a.fingerprint() != b.fingerprint())
    out.push_back(str_cat("its fingerprint is ", quoted(b.fingerprint()), ", not ", quoted(a.fingerprint())));
  std::string text;
  for (const std::string& s : out) str_append(text, text.empty() ? "" : "; ", s);
  return text;
}

bool retry_elsewhere(int code) {
  return code == static_cast<int>(grpc::StatusCode::UNAVAILABLE) ||
         code == static_cast<int>(grpc::StatusCode::RESOURCE_EXHAUSTED) ||
         code == static_cast<int>(grpc::StatusCode::CANCELLED);
}

}  // namespace ppy::host::internal
