#pragma once
/// A fake HTTP server in memory, for the remote cache's tests: a WebDAV-like
/// store of URL -> bytes, which can be down or answer one status to everything.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ppy/driver/http_client.h"

namespace ppy::driver {

struct FakeHttpServer {
  std::map<std::string, std::string> files;
  std::vector<std::string> gets, puts;  ///< the URLs asked, in order
  bool down = false;                    ///< every request fails as a refused connection
  long status_override = 0;             ///< when not 0, every request answers this
  std::mutex mu;
};

class FakeHttpClient : public HttpClient {
 public:
  explicit FakeHttpClient(std::shared_ptr<FakeHttpServer> server) : server_(std::move(server)) {}
  absl::StatusOr<HttpResponse> get(const std::string& url) override {
    std::lock_guard<std::mutex> lock(server_->mu);
    server_->gets.push_back(url);
    if (server_->down) return absl::UnavailableError("connection refused");
    if (server_->status_override) return HttpResponse{server_->status_override, ""};
    auto it = server_->files.find(url);
    if (it == server_->files.end()) return HttpResponse{404, ""};
    return HttpResponse{200, it->second};
  }
  absl::StatusOr<HttpResponse> put(const std::string& url, std::string_view body) override {
    std::lock_guard<std::mutex> lock(server_->mu);
    server_->puts.push_back(url);
    if (server_->down) return absl::UnavailableError("connection refused");
    if (server_->status_override) return HttpResponse{server_->status_override, ""};
    server_->files[url] = std::string(body);
    return HttpResponse{201, ""};
  }

 private:
  std::shared_ptr<FakeHttpServer> server_;
};

}  // namespace ppy::driver
