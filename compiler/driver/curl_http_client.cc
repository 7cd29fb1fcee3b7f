// HttpClient over libcurl (Debian's libcurl4-openssl-dev): one easy handle per
// client, reused so requests share a connection.
#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "ppy/driver/http_client.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

size_t on_body(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

struct Upload {
  std::string_view body;
  size_t done = 0;
};

size_t on_read(char* buf, size_t size, size_t n, void* in) {
  auto* u = static_cast<Upload*>(in);
  size_t take = std::min(size * n, u->body.size() - u->done);
  std::memcpy(buf, u->body.data() + u->done, take);
  u->done += take;
  return take;
}

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(HttpClientOptions options) : options_(std::move(options)) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
    // No 100-continue round trip before a PUT's body; the token, if any.
    headers_ = curl_slist_append(headers_, "Expect:");
    if (!options_.bearer_token.empty())
      headers_ = curl_slist_append(headers_, str_cat("Authorization: Bearer ", options_.bearer_token).c_str());
  }
  ~CurlHttpClient() override {
    curl_slist_free_all(headers_);
    if (curl_) curl_easy_cleanup(curl_);
  }

  absl::StatusOr<HttpResponse> get(const std::string& url) override { return perform(url, nullptr); }
  absl::StatusOr<HttpResponse> put(const std::string& url, std::string_view body) override {
    Upload u{body};
    return perform(url, &u);
  }

 private:
  absl::StatusOr<HttpResponse> perform(const std::string& url, Upload* upload) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!curl_) return absl::UnavailableError("libcurl could not start");
    curl_easy_reset(curl_);
    HttpResponse r;
    char error[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &r.body);
    if (!options_.ca_file.empty()) curl_easy_setopt(curl_, CURLOPT_CAINFO, options_.ca_file.c_str());
    if (upload) {
      curl_easy_setopt(curl_, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(curl_, CURLOPT_READFUNCTION, on_read);
      curl_easy_setopt(curl_, CURLOPT_READDATA, upload);
      curl_easy_setopt(curl_, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(upload->body.size()));
    }
    CURLcode rc = curl_easy_perform(curl_);
    if (rc != CURLE_OK)
      return absl::UnavailableError(*error ? std::string(error) : std::string(curl_easy_strerror(rc)));
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &r.status);
    return r;
  }

  HttpClientOptions options_;
  CURL* curl_ = nullptr;
  curl_slist* headers_ = nullptr;
  std::mutex mu_;
};

}  // namespace

std::unique_ptr<HttpClient> make_curl_http_client(HttpClientOptions options) {
  return std::make_unique<CurlHttpClient>(std::move(options));
}

}  // namespace ppy::driver
