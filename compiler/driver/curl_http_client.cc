// HttpClient over libcurl (Debian's libcurl4-openssl-dev): one easy handle per
// client, reused so requests share a connection. libcurl is loaded when the
// first client is made, not with the driver: it and what it pulls in (TLS,
// Kerberos, LDAP, ...) cost every command's start ~10 ms, and only a build
// with a remote cache speaks HTTP.
#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <type_traits>

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

/// libcurl's functions this client calls, from the library loaded at run time.
struct Curl {
  decltype(&::curl_global_init) global_init = nullptr;
  decltype(&::curl_easy_init) easy_init = nullptr;
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&::curl_easy_reset) easy_reset = nullptr;
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  decltype(&::curl_easy_perform) easy_perform = nullptr;
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  decltype(&::curl_slist_append) slist_append = nullptr;
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
  std::string error;  ///< why it could not be loaded; empty when it was
};

/// libcurl, loaded and initialised once (the soname the -dev package links).
const Curl& curl() {
  static const Curl* c = [] {
    auto* c = new Curl;
    void* lib = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = ::dlerror();
      c->error = e ? e : "libcurl.so.4 cannot be loaded";
      return c;
    }
    auto bind = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
      if (!fn && c->error.empty()) c->error = str_cat("libcurl.so.4 has no ", name);
    };
    bind(c->global_init, "curl_global_init");
    bind(c->easy_init, "curl_easy_init");
    bind(c->easy_cleanup, "curl_easy_cleanup");
    bind(c->easy_reset, "curl_easy_reset");
    bind(c->easy_setopt, "curl_easy_setopt");
    bind(c->easy_perform, "curl_easy_perform");
    bind(c->easy_getinfo, "curl_easy_getinfo");
    bind(c->easy_strerror, "curl_easy_strerror");
    bind(c->slist_append, "curl_slist_append");
    bind(c->slist_free_all, "curl_slist_free_all");
    if (c->error.empty()) c->global_init(CURL_GLOBAL_DEFAULT);
    return c;
  }();
  return *c;
}

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(HttpClientOptions options) : options_(std::move(options)) {
    if (!api_.error.empty()) return;
    curl_ = api_.easy_init();
    // No 100-continue round trip before a PUT's body; the token, if any.
    headers_ = api_.slist_append(headers_, "Expect:");
    if (!options_.bearer_token.empty())
      headers_ = api_.slist_append(headers_, str_cat("Authorization: Bearer ", options_.bearer_token).c_str());
  }
  ~CurlHttpClient() override {
    if (headers_) api_.slist_free_all(headers_);
    if (curl_) api_.easy_cleanup(curl_);
  }

  absl::StatusOr<HttpResponse> get(const std::string& url) override { return perform(url, nullptr); }
  absl::StatusOr<HttpResponse> put(const std::string& url, std::string_view body) override {
    Upload u{body};
    return perform(url, &u);
  }

 private:
  absl::StatusOr<HttpResponse> perform(const std::string& url, Upload* upload) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!api_.error.empty()) return absl::UnavailableError(api_.error);
    if (!curl_) return absl::UnavailableError("libcurl could not start");
    api_.easy_reset(curl_);
    HttpResponse r;
    char error[CURL_ERROR_SIZE] = "";
    api_.easy_setopt(curl_, CURLOPT_URL, url.c_str());
    api_.easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    api_.easy_setopt(curl_, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    api_.easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    api_.easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
    api_.easy_setopt(curl_, CURLOPT_HTTPHEADER, headers_);
    api_.easy_setopt(curl_, CURLOPT_ERRORBUFFER, error);
    api_.easy_setopt(curl_, CURLOPT_WRITEFUNCTION, on_body);
    api_.easy_setopt(curl_, CURLOPT_WRITEDATA, &r.body);
    if (!options_.ca_file.empty()) api_.easy_setopt(curl_, CURLOPT_CAINFO, options_.ca_file.c_str());
    if (upload) {
      api_.easy_setopt(curl_, CURLOPT_UPLOAD, 1L);
      api_.easy_setopt(curl_, CURLOPT_READFUNCTION, on_read);
      api_.easy_setopt(curl_, CURLOPT_READDATA, upload);
      api_.easy_setopt(curl_, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(upload->body.size()));
    }
    CURLcode rc = api_.easy_perform(curl_);
    if (rc != CURLE_OK)
      return absl::UnavailableError(*error ? std::string(error) : std::string(api_.easy_strerror(rc)));
    api_.easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &r.status);
    return r;
  }

  const Curl& api_ = curl();
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
