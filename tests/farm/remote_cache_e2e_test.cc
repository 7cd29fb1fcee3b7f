// The shared artifact cache through the real `ppy` against nginx serving
// Bazel's HTTP remote cache layout with WebDAV PUT (tools/farm/remote-cache.nginx.conf),
// on loopback: two checkouts in different folders share artifacts (the second
// build calls no backend), over http and over https (a CA made here), a
// corrupted entry is refused, rebuilt and reported, and a cache that is down,
// slow, refuses the token or has a certificate the driver cannot trust is a
// warning only.
#include <chrono>
#include <thread>

#include "e2e.h"
#include "loopback_nginx.h"

namespace ppy::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

const std::string kToken = "s3cret-token";

/// nginx with tools/farm/remote-cache.nginx.conf on a loopback port; with
/// `tls`, https with a certificate signed by a CA made here (ca()).
class WebDavCache {
 public:
  WebDavCache(const std::string& exe, const fs::path& run, bool tls = false) : run_(run), tls_(tls) {
    fs::create_directories(run / "store");
    if (tls && !make_test_certificates(run)) return;
    port_ = free_port();
    const std::string certificate = "ssl_certificate " + (run / "server.pem").string() + "; ssl_certificate_key " +
                                    (run / "server.key").string() + ";";
    nginx_ = start_nginx(exe, "remote-cache.nginx.conf", run, port_, {
             {"@RUN@", run.string()},
             {"@LISTEN@", "127.0.0.1:" + std::to_string(port_) + (tls ? " ssl" : "")},
             {"@TLS@", tls ? certificate : ""},
             {"@STORE@", (run / "store").string()},
             {"@TOKEN@", kToken}});
  }
  bool up() const { return port_ > 0 && accepts(port_); }
  std::string url() const {
    return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + "/ppy";
  }
  /// The CA that signs an https cache's certificate (PEM).
  std::string ca() const { return (run_ / "ca.pem").string(); }
  fs::path store() const { return run_ / "store/ppy"; }
  std::string log(const std::string& name) const { return read_file(run_ / name); }

 private:
  fs::path run_;
  bool tls_ = false;
  int port_ = 0;
  std::unique_ptr<Nginx> nginx_;
};

class RemoteCache : public E2E {
 protected:
  /// The three-module project at <dir>/<as>; every checkout counts its
  /// backend calls into one file, outside the checkouts.
  std::string checkout(const std::string& as) {
    return multi("[tool.ppy.backends.dummy]\nsandbox = \"off\"\nexec-file = \"run.sh\"\ncount-file = \"" +
                     p("calls.txt") + "\"\n",
                 as);
  }
  int calls() { return static_cast<int>(lines_of(read_file(path("calls.txt"))).size()); }
  /// `ppy ARGS` run inside the checkout `proj` (`.` in `args` is the checkout), as
  /// a user in each checkout runs it: the key holds the source roots as given,
  /// and the IR's locations carry them, so `ppy build .` in two folders shares
  /// what `ppy build /abs/a` and `ppy build /abs/b` could not.
  Result ppy_in(const std::string& proj, const std::map<std::string, std::string>& env, std::vector<std::string> args) {
    Spawn s = spawn(std::move(args), sets({"main"}));
    s.cwd = proj;
    for (auto& [k, v] : env) s.env[k] = v;
    return run(s);
  }
  Result build(const std::map<std::string, std::string>& env, const std::string& proj, const std::string& out) {
    return ppy_in(proj, env, {"build", ".", "--backend", "dummy", "-o", p(out)});
  }
  std::map<std::string, std::string> remote(const WebDavCache& c) {
    return {{"PPY_REMOTE_CACHE", c.url()}, {"PPY_REMOTE_CACHE_TOKEN", kToken}};
  }
  /// An https cache, its CA trusted through PPY_REMOTE_CACHE_CA.
  std::map<std::string, std::string> remote_tls(const WebDavCache& c) {
    return {{"PPY_REMOTE_CACHE", c.url()}, {"PPY_REMOTE_CACHE_TOKEN", kToken}, {"PPY_REMOTE_CACHE_CA", c.ca()}};
  }
};

#define NEED_NGINX(cache)                                                                                 \
  std::string exe = nginx_path();                                                                        \
  if (exe.empty()) GTEST_SKIP() << "nginx is not installed (tools/setup installs it); the cache is not tested"; \
  WebDavCache cache(exe, path("nginx"));                                                                  \
  ASSERT_TRUE(cache.up()) << cache.log("error.log")

#define NEED_NGINX_TLS(cache)                                                                                    \
  std::string exe = nginx_path();                                                                               \
  if (exe.empty()) GTEST_SKIP() << "nginx is not installed (tools/setup installs it); the cache is not tested"; \
  if (!nginx_has_ssl(exe)) GTEST_SKIP() << exe << " has no ssl module (nginx -V): https is not tested";        \
  WebDavCache cache(exe, path("nginx"), /*tls=*/true);                                                          \
  ASSERT_TRUE(cache.up()) << "nginx with TLS did not start (or openssl made no certificate)\n"                   \
                          << cache.log("error.log")

TEST_F(RemoteCache, TwoCheckoutsShareArtifacts) {
  NEED_NGINX(cache);
  std::string a = checkout("a"), b = checkout("b");
  Result first = build(remote(cache), a, "out-a");
  ASSERT_EQ(first.status, 0) << first << cache.log("error.log");
  EXPECT_EQ(calls(), 1);
  EXPECT_THAT(first.err, Not(HasSubstr("warning"))) << first;
  EXPECT_THAT(cache.log("access.log"), HasSubstr("\"PUT /ppy/ac/"));
  EXPECT_THAT(cache.log("access.log"), HasSubstr("\"PUT /ppy/cas/"));
  // The second checkout, its local cache empty: everything from the remote.
  Result second = build(remote(cache), b, "out-b");
  ASSERT_EQ(second.status, 0) << second;
  EXPECT_EQ(calls(), 1) << "the second checkout called the backend\n" << second;
  EXPECT_THAT(second.err, Not(HasSubstr("warning"))) << second;
  EXPECT_EQ(tree(path("out-b")), tree(path("out-a")));
  EXPECT_EQ(fs::status(path("out-b/run.sh")).permissions() & fs::perms::owner_exec, fs::perms::owner_exec);
  EXPECT_THAT(ppy({"cache", "stats", b}).out, HasSubstr("remote hits:  1\n"));
  // Module by module too (emit), and kept locally: a third look asks no server.
  ASSERT_EQ(ppy_in(a, remote(cache), {"emit", "dummy", ".", "-o", p("e-a") + "/"}).status, 0);
  EXPECT_EQ(calls(), 4);
  Result emit_b = ppy_in(b, remote(cache), {"emit", "dummy", ".", "-o", p("e-b") + "/"});
  ASSERT_EQ(emit_b.status, 0) << emit_b;
  EXPECT_EQ(calls(), 4);
  EXPECT_EQ(tree(path("e-b")), tree(path("e-a")));
  size_t gets = grep(cache.log("access.log"), "\"GET ").size();
  ASSERT_EQ(build(remote(cache), b, "out-b2").status, 0);
  EXPECT_EQ(grep(cache.log("access.log"), "\"GET ").size(), gets);
  // --no-cache asks no server either.
  ASSERT_EQ(ppy_in(b, remote(cache), {"build", ".", "--backend", "dummy", "--no-cache", "-o", p("nc")}).status, 0);
  EXPECT_EQ(grep(cache.log("access.log"), "\"GET ").size(), gets);
  EXPECT_EQ(calls(), 5);
}

// The same over https: TLS at nginx, its certificate signed by a CA made here
// that the driver is told of (PPY_REMOTE_CACHE_CA); the bearer token goes over
// TLS (nginx answers 401 without it, which would be a warning).
TEST_F(RemoteCache, TwoCheckoutsShareArtifactsOverHttps) {
  NEED_NGINX_TLS(cache);
  ASSERT_TRUE(cache.url().starts_with("https://127.0.0.1:")) << cache.url();
  std::string a = checkout("a"), b = checkout("b");
  Result first = build(remote_tls(cache), a, "out-a");
  ASSERT_EQ(first.status, 0) << first << cache.log("error.log");
  EXPECT_THAT(first.err, Not(HasSubstr("warning"))) << first;
  EXPECT_EQ(calls(), 1);
  EXPECT_THAT(cache.log("access.log"), HasSubstr("\"PUT /ppy/ac/"));
  EXPECT_THAT(cache.log("access.log"), HasSubstr("\"PUT /ppy/cas/"));
  Result second = build(remote_tls(cache), b, "out-b");
  ASSERT_EQ(second.status, 0) << second;
  EXPECT_EQ(calls(), 1) << "the second checkout called the backend\n" << second;
  EXPECT_THAT(second.err, Not(HasSubstr("warning"))) << second;
  EXPECT_THAT(second.err, HasSubstr("modules:  3 (3 from the remote cache)")) << second;
  EXPECT_EQ(tree(path("out-b")), tree(path("out-a")));
  // Module by module too.
  ASSERT_EQ(ppy_in(a, remote_tls(cache), {"emit", "dummy", ".", "-o", p("e-a") + "/"}).status, 0);
  Result emit_b = ppy_in(b, remote_tls(cache), {"emit", "dummy", ".", "-o", p("e-b") + "/"});
  ASSERT_EQ(emit_b.status, 0) << emit_b;
  EXPECT_THAT(emit_b.err, Not(HasSubstr("warning"))) << emit_b;
  EXPECT_EQ(calls(), 4);
  EXPECT_EQ(tree(path("e-b")), tree(path("e-a")));
}

// Over https, a certificate the driver cannot trust (its CA not given, or a
// CA file that is not there) and a wrong token are each one warning: the
// build goes on here, and never fails.
TEST_F(RemoteCache, OverHttpsAnUntrustedCertificateOrAWrongTokenIsAWarning) {
  NEED_NGINX_TLS(cache);
  std::string a = checkout("a");
  Result untrusted = build({{"PPY_REMOTE_CACHE", cache.url()}, {"PPY_REMOTE_CACHE_TOKEN", kToken}}, a, "o1");
  ASSERT_EQ(untrusted.status, 0) << untrusted;
  EXPECT_THAT(untrusted.err, HasSubstr("warning: remote cache " + cache.url() + " is unavailable (")) << untrusted;
  EXPECT_THAT(untrusted.err, HasSubstr("certificate")) << untrusted;
  EXPECT_THAT(untrusted.err, HasSubstr("); building without it")) << untrusted;
  EXPECT_EQ(grep(untrusted.err, "warning").size(), 1u) << untrusted;
  EXPECT_EQ(calls(), 1);
  EXPECT_THAT(cache.log("access.log"), Not(HasSubstr("/ppy/"))) << "a request got past an untrusted certificate";

  fs::remove_all(path("a/.ppy-cache"));
  Result no_ca = build({{"PPY_REMOTE_CACHE", cache.url()}, {"PPY_REMOTE_CACHE_TOKEN", kToken},
                        {"PPY_REMOTE_CACHE_CA", p("no-such-ca.pem")}},
                       a, "o2");
  ASSERT_EQ(no_ca.status, 0) << no_ca;
  EXPECT_THAT(no_ca.err, HasSubstr("is unavailable (")) << no_ca;
  EXPECT_EQ(grep(no_ca.err, "warning").size(), 1u) << no_ca;
  EXPECT_EQ(calls(), 2);

  fs::remove_all(path("a/.ppy-cache"));
  Result refused = build({{"PPY_REMOTE_CACHE", cache.url()}, {"PPY_REMOTE_CACHE_TOKEN", "wrong"},
                          {"PPY_REMOTE_CACHE_CA", cache.ca()}},
                         a, "o3");
  ASSERT_EQ(refused.status, 0) << refused;
  EXPECT_THAT(refused.err, HasSubstr("is unavailable (HTTP 401 for ac/")) << refused;
  EXPECT_EQ(grep(refused.err, "warning").size(), 1u) << refused;
  EXPECT_EQ(calls(), 3);
  EXPECT_EQ(tree(path("o3")), tree(path("o1")));
  EXPECT_EQ(tree(path("o2")), tree(path("o1")));
}

// Built by absolute path (`ppy build /abs/a`, `ppy build /abs/b`) from a
// folder that is neither: the key and what the backend is handed name the
// sources relative to each checkout, so the second takes everything from the
// remote cache, and its artifacts name no part of the first checkout's place.
TEST_F(RemoteCache, TwoCheckoutsBuiltByAbsolutePathShareArtifacts) {
  NEED_NGINX(cache);
  std::string a = checkout("a"), b = checkout("b");
  ASSERT_TRUE(fs::path(a).is_absolute());
  fs::create_directories(path("elsewhere"));
  auto build_abs = [&](const std::string& proj, const std::string& out) {
    return ppy_in(p("elsewhere"), remote(cache), {"build", proj, "--backend", "dummy", "-o", p(out)});
  };
  Result first = build_abs(a, "out-a");
  ASSERT_EQ(first.status, 0) << first << cache.log("error.log");
  EXPECT_EQ(calls(), 1);
  Result second = build_abs(b, "out-b");
  ASSERT_EQ(second.status, 0) << second;
  EXPECT_EQ(calls(), 1) << "the second checkout called the backend\n" << second;
  EXPECT_THAT(second.err, HasSubstr("modules:  3 (3 from the remote cache)")) << second;
  EXPECT_EQ(tree(path("out-b")), tree(path("out-a")));
  for (auto& [file, bytes] : tree(path("out-b"))) EXPECT_THAT(bytes, Not(HasSubstr(a))) << file;
  // Built from inside a checkout (`ppy build .`), the same artifacts: the local cache has them.
  Result inside = build(remote(cache), b, "out-b2");
  ASSERT_EQ(inside.status, 0) << inside;
  EXPECT_THAT(inside.err, HasSubstr("modules:  3 (3 from the local cache)")) << inside;
  EXPECT_EQ(calls(), 1);
  EXPECT_EQ(tree(path("out-b2")), tree(path("out-a")));
}

TEST_F(RemoteCache, TheProjectTableNamesItToo) {
  NEED_NGINX(cache);
  std::string a = checkout("a");
  write_file(path("a/pyproject.toml"), "[tool.ppy]\nsource-roots = [\"src\"]\nremote-cache = \"" + cache.url() +
                                            "\"\n\n[tool.ppy.backends.dummy]\nsandbox = \"off\"\n");
  Result r = build({{"PPY_REMOTE_CACHE_TOKEN", kToken}}, a, "out");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_THAT(cache.log("access.log"), HasSubstr("\"PUT /ppy/ac/"));
  // PPY_REMOTE_CACHE set empty turns it off.
  fs::remove_all(path("a/.ppy-cache"));
  size_t lines = lines_of(cache.log("access.log")).size();
  ASSERT_EQ(build({{"PPY_REMOTE_CACHE", ""}, {"PPY_REMOTE_CACHE_TOKEN", kToken}}, a, "out2").status, 0);
  EXPECT_EQ(lines_of(cache.log("access.log")).size(), lines);
}

TEST_F(RemoteCache, ACorruptedEntryIsRefusedRebuiltAndReported) {
  NEED_NGINX(cache);
  std::string a = checkout("a"), b = checkout("b"), c = checkout("c");
  ASSERT_EQ(build(remote(cache), a, "out-a").status, 0);
  // Every blob cut short on the server.
  int cut = 0;
  for (auto& f : fs::directory_iterator(cache.store() / "cas")) {
    std::string bytes = read_file(f.path());
    write_file(f.path(), bytes.substr(0, bytes.size() / 2));
    ++cut;
  }
  ASSERT_GT(cut, 0);
  Result second = build(remote(cache), b, "out-b");
  ASSERT_EQ(second.status, 0) << second;
  EXPECT_EQ(calls(), 2) << "a corrupted entry was used\n" << second;
  EXPECT_THAT(second.err, HasSubstr("warning: remote cache entry "));
  EXPECT_THAT(second.err, HasSubstr(" refused: cas/"));
  EXPECT_THAT(second.err, HasSubstr("building it here"));
  EXPECT_EQ(tree(path("out-b")), tree(path("out-a")));
  EXPECT_THAT(ppy({"cache", "stats", b}).out, HasSubstr("refused:      1 remote entries failed their digest"));
  // The rebuilt entry was written back whole: a third checkout takes it.
  Result third = build(remote(cache), c, "out-c");
  ASSERT_EQ(third.status, 0) << third;
  EXPECT_EQ(calls(), 2) << third;
  EXPECT_THAT(third.err, Not(HasSubstr("warning"))) << third;
  EXPECT_EQ(tree(path("out-c")), tree(path("out-a")));
}

TEST_F(RemoteCache, ACacheThatIsDownSlowOrRefusingIsAWarning) {
  std::string a = checkout("a");
  // Down: nothing listens.
  Result down = build({{"PPY_REMOTE_CACHE", "http://127.0.0.1:" + std::to_string(free_port()) + "/ppy"}}, a, "o1");
  ASSERT_EQ(down.status, 0) << down;
  EXPECT_THAT(down.err, HasSubstr("warning: remote cache http://127.0.0.1:"));
  EXPECT_THAT(down.err, HasSubstr("is unavailable ("));
  EXPECT_THAT(down.err, HasSubstr("); building without it"));
  EXPECT_EQ(grep(down.err, "warning").size(), 1u) << down;
  EXPECT_EQ(calls(), 1);
  // Slow: a server that takes the connection and never answers; the deadline bounds it.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 16), 0);
  socklen_t n = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &n);
  fs::remove_all(path("a/.ppy-cache"));
  auto start = std::chrono::steady_clock::now();
  Result slow = build({{"PPY_REMOTE_CACHE", "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/ppy"},
                       {"PPY_REMOTE_CACHE_TIMEOUT_MS", "300"}},
                      a, "o2");
  auto took = std::chrono::steady_clock::now() - start;
  ::close(fd);
  ASSERT_EQ(slow.status, 0) << slow;
  EXPECT_THAT(slow.err, HasSubstr("is unavailable (")) << slow;
  EXPECT_EQ(calls(), 2);
  EXPECT_LT(took, 20s);
  // Refusing: the wrong token (HTTP 401).
  std::string exe = nginx_path();
  if (exe.empty()) return;
  WebDavCache cache(exe, path("nginx"));
  ASSERT_TRUE(cache.up()) << cache.log("error.log");
  fs::remove_all(path("a/.ppy-cache"));
  Result refused = build({{"PPY_REMOTE_CACHE", cache.url()}, {"PPY_REMOTE_CACHE_TOKEN", "wrong"}}, a, "o3");
  ASSERT_EQ(refused.status, 0) << refused;
  EXPECT_THAT(refused.err, HasSubstr("is unavailable (HTTP 401 for ac/")) << refused;
  EXPECT_EQ(calls(), 3);
  EXPECT_EQ(tree(path("o3")), tree(path("o1")));
}

}  // namespace
}  // namespace ppy::e2e
