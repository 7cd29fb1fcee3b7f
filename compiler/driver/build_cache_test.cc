#include "ppy/driver/build_cache.h"

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "fake_http_client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

using ::testing::HasSubstr;

const std::string kKey = std::string(64, 'e');
const std::string kBase = "http://cache.test/ppy";

class BuildCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppy-build-cache-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    server_ = std::make_shared<FakeHttpServer>();
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// A checkout's settings: its own local cache, the one shared fake server.
  CacheSettings settings(const std::string& checkout, std::string url = kBase) {
    CacheSettings s;
    s.local_root = (dir_ / checkout / ".ppy-cache/artifacts").string();
    s.max_bytes = 1 << 30;
    s.remote_url = std::move(url);
    s.remote_from = "PPY_REMOTE_CACHE";
    auto server = server_;
    s.make_http = [server](const HttpClientOptions&) { return std::make_unique<FakeHttpClient>(server); };
    return s;
  }

  fs::path dir_;
  std::shared_ptr<FakeHttpServer> server_;
  std::ostringstream warnings_;
};

const std::vector<ArtifactFile> kFiles = {{"app", "#!/bin/sh\n", true}, {"data.bin", std::string("\0\1\2", 3)}};

TEST_F(BuildCacheTest, ABuildWritesBackAndAnotherCheckoutHitsRemotelyThenLocally) {
  BuildCache a(settings("a"), warnings_);
  EXPECT_FALSE(a.lookup(kKey, "toy").has_value());
  a.store(kKey, kFiles, "toy");
  a.finish();
  EXPECT_EQ(a.counts()["toy"].misses, 1u);

  BuildCache b(settings("b"), warnings_);
  CacheSource source;
  auto hit = b.lookup(kKey, "toy", &source);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(source, CacheSource::kRemote);
  ASSERT_EQ(hit->size(), 2u);
  EXPECT_EQ((*hit)[0].bytes, "#!/bin/sh\n");
  EXPECT_TRUE((*hit)[0].executable);
  EXPECT_EQ((*hit)[1].bytes, std::string("\0\1\2", 3));
  b.finish();
  // Kept locally: the next lookup asks no server.
  size_t asked = server_->gets.size();
  BuildCache b2(settings("b"), warnings_);
  ASSERT_TRUE(b2.lookup(kKey, "toy", &source).has_value());
  EXPECT_EQ(source, CacheSource::kLocal);
  EXPECT_EQ(server_->gets.size(), asked);
  b2.finish();
  auto counts = read_cache_counts((dir_ / "b/.ppy-cache/artifacts").string());
  EXPECT_EQ(counts["toy"].remote_hits, 1u);
  EXPECT_EQ(counts["toy"].local_hits, 1u);
  EXPECT_EQ(warnings_.str(), "");
}

TEST_F(BuildCacheTest, ACorruptedRemoteEntryIsRefusedReportedAndRewritten) {
  BuildCache a(settings("a"), warnings_);
  a.store(kKey, kFiles, "toy");
  std::string blob = kBase + "/cas/" + sha256_hex(kFiles[0].bytes);
  server_->files[blob] = "#!/bin/s";  // truncated on the server
  BuildCache b(settings("b"), warnings_);
  EXPECT_FALSE(b.lookup(kKey, "toy").has_value());
  EXPECT_THAT(warnings_.str(), HasSubstr("warning: remote cache entry " + kKey + " refused: cas/"));
  EXPECT_THAT(warnings_.str(), HasSubstr("building it here"));
  EXPECT_EQ(b.counts()["toy"].remote_refused, 1u);
  EXPECT_EQ(b.counts()["toy"].misses, 1u);
  b.store(kKey, kFiles, "toy");  // the rebuilt artifact is written back
  EXPECT_EQ(server_->files[blob], kFiles[0].bytes);
  BuildCache c(settings("c"), warnings_);
  EXPECT_TRUE(c.lookup(kKey, "toy").has_value());
}

TEST_F(BuildCacheTest, ARemoteThatIsDownIsOneWarningAndNoMoreRequests) {
  server_->down = true;
  BuildCache a(settings("a"), warnings_);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(a.lookup(std::string(63, 'f') + char('0' + i), "toy").has_value());
  a.store(kKey, kFiles, "toy");
  EXPECT_EQ(server_->gets.size(), 1u);
  EXPECT_TRUE(server_->puts.empty());
  std::string w = warnings_.str();
  EXPECT_THAT(w, HasSubstr("warning: remote cache http://cache.test/ppy is unavailable (connection refused); "
                           "building without it\n"));
  EXPECT_EQ(w.find("warning:"), w.rfind("warning:"));  // once
  // The local cache still works.
  EXPECT_TRUE(a.lookup(kKey, "toy").has_value());
}

TEST_F(BuildCacheTest, DisabledAsksAndKeepsNothing) {
  CacheSettings s = settings("a");
  s.enabled = false;
  BuildCache a(s, warnings_);
  a.store(kKey, kFiles, "toy");
  EXPECT_FALSE(a.lookup(kKey, "toy").has_value());
  a.finish();
  EXPECT_TRUE(server_->gets.empty());
  EXPECT_TRUE(server_->puts.empty());
  EXPECT_FALSE(fs::exists(dir_ / "a"));
}

TEST_F(BuildCacheTest, AURLThatIsNotHttpIsAWarning) {
  BuildCache a(settings("a", "ftp://cache.test"), warnings_);
  EXPECT_THAT(warnings_.str(), HasSubstr("warning: PPY_REMOTE_CACHE 'ftp://cache.test' is not an http:// or https:// URL"));
  a.store(kKey, kFiles, "toy");
  EXPECT_TRUE(server_->puts.empty());
  EXPECT_TRUE(a.lookup(kKey, "toy").has_value());
}

}  // namespace
}  // namespace ppy::driver
