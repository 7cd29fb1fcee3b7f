#pragma once
/// The little HTTP the shared artifact cache needs: GET and PUT of whole
/// bodies, with a deadline. One interface, so the cache's logic is tested
/// against a fake; one real implementation, over libcurl.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ppy::driver {

struct HttpResponse {
  long status = 0;  ///< the HTTP status code
  std::string body;
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  /// An error status only when no HTTP answer came (refused, timed out, TLS);
  /// any answer, 404 or 500 included, is a response.
  virtual absl::StatusOr<HttpResponse> get(const std::string& url) = 0;
  virtual absl::StatusOr<HttpResponse> put(const std::string& url, std::string_view body) = 0;
};

struct HttpClientOptions {
  /// Each request's whole deadline (connecting included).
  std::chrono::milliseconds timeout{5000};
  /// Sent as `Authorization: Bearer TOKEN` when not empty.
  std::string bearer_token;
  /// A PEM file of the CAs that sign the server's certificate (https), in
  /// place of the system's.
  std::string ca_file;
};

/// The libcurl client. Thread-safe (one request at a time per client).
std::unique_ptr<HttpClient> make_curl_http_client(HttpClientOptions options);

}  // namespace ppy::driver
