#include "ppy/driver/remote_cache.h"

#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "fake_http_client.h"
#include "ppy/project/project.h"  // sha256_hex

namespace ppy::driver {
namespace {

using ::testing::HasSubstr;
using Kind = RemoteLookup::Kind;

const std::string kKey = std::string(64, 'a');
const std::string kBase = "http://cache.test/ppy";

class RemoteCacheTest : public ::testing::Test {
 protected:
  RemoteCacheTest() : server_(std::make_shared<FakeHttpServer>()) {}
  RemoteCache cache() { return RemoteCache(kBase + "/", std::make_unique<FakeHttpClient>(server_)); }
  std::shared_ptr<FakeHttpServer> server_;
};

TEST_F(RemoteCacheTest, StoresBlobsThenTheRecordAndReadsThemBack) {
  RemoteCache c = cache();
  EXPECT_EQ(c.lookup(kKey).kind, Kind::kMiss);
  ASSERT_TRUE(c.store(kKey, {{"bin/tool", "#!/bin/sh\n", true}, {"lib/a.txt", std::string("a\0b", 3)}}).ok());
  // Bazel's layout: the blobs under cas/<sha256>, the record under ac/<key>, written last.
  ASSERT_EQ(server_->puts.size(), 3u);
  EXPECT_EQ(server_->puts.back(), kBase + "/ac/" + kKey);
  EXPECT_EQ(server_->puts[0], kBase + "/cas/" + sha256_hex("#!/bin/sh\n"));
  auto hit = c.lookup(kKey);
  ASSERT_EQ(hit.kind, Kind::kHit) << hit.why;
  ASSERT_EQ(hit.files.size(), 2u);
  EXPECT_EQ(hit.files[0].path, "bin/tool");
  EXPECT_EQ(hit.files[0].bytes, "#!/bin/sh\n");
  EXPECT_TRUE(hit.files[0].executable);
  EXPECT_EQ(hit.files[1].bytes, std::string("a\0b", 3));
  EXPECT_FALSE(hit.files[1].executable);
}

TEST_F(RemoteCacheTest, AWrongOrTruncatedBlobIsRefused) {
  RemoteCache c = cache();
  ASSERT_TRUE(c.store(kKey, {{"a.txt", "the whole artifact"}}).ok());
  std::string blob = kBase + "/cas/" + sha256_hex("the whole artifact");
  server_->files[blob] = "the whole";  // cut short
  auto cut = c.lookup(kKey);
  EXPECT_EQ(cut.kind, Kind::kRefused);
  EXPECT_THAT(cut.why, HasSubstr("9 bytes"));
  server_->files[blob] = "the whole artifacT";  // same size, other bytes
  auto wrong = c.lookup(kKey);
  EXPECT_EQ(wrong.kind, Kind::kRefused);
  EXPECT_THAT(wrong.why, HasSubstr(sha256_hex("the whole artifacT")));
  server_->files.erase(blob);  // gone: a miss
  EXPECT_EQ(c.lookup(kKey).kind, Kind::kMiss);
}

TEST_F(RemoteCacheTest, ARecordThatIsNotOneOrNamesABadPathIsRefused) {
  RemoteCache c = cache();
  server_->files[kBase + "/ac/" + kKey] = "\xff\xff\xff garbage";
  EXPECT_EQ(c.lookup(kKey).kind, Kind::kRefused);
  ASSERT_TRUE(c.store(kKey, {{"../escape", "x"}}).ok());  // what a hostile writer could put there
  auto r = c.lookup(kKey);
  EXPECT_EQ(r.kind, Kind::kRefused);
  EXPECT_THAT(r.why, HasSubstr("not plain"));
}

TEST_F(RemoteCacheTest, AServerDownOrFailingIsUnavailable) {
  RemoteCache c = cache();
  ASSERT_TRUE(c.store(kKey, {{"a.txt", "x"}}).ok());
  server_->down = true;
  auto r = c.lookup(kKey);
  EXPECT_EQ(r.kind, Kind::kUnavailable);
  EXPECT_THAT(r.why, HasSubstr("connection refused"));
  EXPECT_EQ(c.store(kKey, {{"a.txt", "x"}}).code(), absl::StatusCode::kUnavailable);
  server_->down = false;
  server_->status_override = 503;
  EXPECT_EQ(c.lookup(kKey).kind, Kind::kUnavailable);
  EXPECT_FALSE(c.store(kKey, {{"a.txt", "x"}}).ok());
  server_->status_override = 403;
  EXPECT_EQ(c.lookup(kKey).kind, Kind::kUnavailable);
}

}  // namespace
}  // namespace ppy::driver
