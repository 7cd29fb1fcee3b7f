#include "ppy/driver/build_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/testing.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

/// Builds `bin/app` (executable) and `data.bin` into the folder it is given,
/// as a backend does: the one write a build's files cannot avoid.
class TwoFileBackend final : public Backend {
 public:
  std::string_view name() const override { return "two"; }
  absl::StatusOr<BuildResult> build(ModuleList, const fs::path& dir, BackendContext&) const override {
    fs::create_directories(dir / "bin");
    std::ofstream(dir / "bin" / "app") << "#!/bin/sh\necho hi\n";
    fs::permissions(dir / "bin" / "app", fs::perms::owner_exec, fs::perm_options::add);
    std::ofstream(dir / "data.bin", std::ios::binary) << std::string("\0\1\2", 3);
    return BuildResult{{dir / "bin" / "app"}};
  }
};

class BuildFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ppy-build-files-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    auto h = host::in_process_backend(std::make_shared<TwoFileBackend>());
    ASSERT_TRUE(h.ok()) << h.status();
    backend_ = std::move(*h);
    (void)set_file_observer({.wrote = [this](const fs::path& p) { wrote_[where(p)]++; },
                             .read = [this](const fs::path& p) { read_[where(p)]++; }});
  }
  void TearDown() override {
    (void)set_file_observer({});
    fs::remove_all(dir_);
  }

  /// `cache/NAME`, `out/NAME` (the -o folder or its staging sibling),
  /// `backend/NAME` (the backend's own build folder) for a file NAME.
  std::string where(const fs::path& p) const {
    std::string name = p.filename().string();
    fs::path rel = p.lexically_relative(dir_);
    if (rel.empty() || *rel.begin() == "..") return "backend/" + name;
    return (*rel.begin() == "cache" ? "cache/" : "out/") + name;
  }
  /// Those of `counts` that concern the build's own files (not the cache's
  /// index, stats or -o's marker).
  static std::map<std::string, int> of_the_build(const std::map<std::string, int>& counts) {
    std::map<std::string, int> out;
    for (auto& [k, n] : counts)
      if (k.ends_with("/app") || k.ends_with("/data.bin")) out[k] = n;
    return out;
  }

  CacheSettings settings() const {
    CacheSettings s;
    s.local_root = (dir_ / "cache").string();
    s.max_bytes = 1 << 30;
    return s;
  }

  /// One `ppy build`'s crossing: the files from the cache or the backend, then -o.
  absl::StatusOr<BuiltFiles> build_into(const fs::path& out) {
    BuildCache cache(settings(), warnings_);
    auto m = ir::testing::small_module("app");
    host::Invocation inv;
    inv.action = host::Invocation::Action::Build;
    inv.modules = {m.get()};
    auto built = built_files(*backend_, inv, cache, std::string(64, 'b'));
    if (!built.ok()) return built;
    cache.finish();
    PPY_RETURN_IF_ERROR(write_tree_atomically(out, built->files));
    return built;
  }

  static bool executable(const fs::path& p) {
    struct stat st{};
    return ::stat(p.c_str(), &st) == 0 && (st.st_mode & S_IXUSR);
  }

  fs::path dir_;
  std::unique_ptr<host::BackendHandle> backend_;
  std::map<std::string, int> wrote_, read_;
  std::ostringstream warnings_;
};

// Issue 17, "files cross once": each file a build answers is written once into
// the cache and once under -o, from memory, and never read back; the host
// stages nothing.
TEST_F(BuildFilesTest, ABuildsFilesAreWrittenOnceIntoTheCacheAndOnceUnderO) {
  auto built = build_into(dir_ / "out");
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(built->source, CacheSource::kBuilt);
  EXPECT_THAT(built->outputs, ElementsAre("bin/app"));
  EXPECT_THAT(of_the_build(wrote_), ElementsAre(Pair("cache/app", 1), Pair("cache/data.bin", 1), Pair("out/app", 1),
                                                 Pair("out/data.bin", 1)));
  // Read once: where the backend left them (the session's one read).
  EXPECT_THAT(of_the_build(read_), ElementsAre(Pair("backend/app", 1), Pair("backend/data.bin", 1)));
  EXPECT_EQ(*read_file(dir_ / "out" / "data.bin"), std::string("\0\1\2", 3));
  EXPECT_TRUE(executable(dir_ / "out" / "bin" / "app"));
  EXPECT_FALSE(executable(dir_ / "out" / "data.bin"));
  // Nothing beside -o but -o: no staging folder of the backend's left behind.
  std::vector<std::string> beside;
  for (auto& e : fs::directory_iterator(dir_)) beside.push_back(e.path().filename().string());
  std::sort(beside.begin(), beside.end());
  EXPECT_THAT(beside, ElementsAre("cache", "out"));
}

TEST_F(BuildFilesTest, ACacheHitReadsTheEntryOnceAndWritesOnlyO) {
  ASSERT_TRUE(build_into(dir_ / "first").ok());
  wrote_.clear();
  read_.clear();
  auto built = build_into(dir_ / "second");
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(built->source, CacheSource::kLocal);
  EXPECT_THAT(built->outputs, ElementsAre("bin/app"));
  // The backend did not run; the entry is read once and -o written once.
  EXPECT_THAT(of_the_build(read_), ElementsAre(Pair("cache/app", 1), Pair("cache/data.bin", 1)));
  EXPECT_THAT(of_the_build(wrote_), ElementsAre(Pair("out/app", 1), Pair("out/data.bin", 1)));
  EXPECT_TRUE(executable(dir_ / "second" / "bin" / "app"));
  EXPECT_FALSE(executable(dir_ / "second" / "data.bin"));
}

TEST_F(BuildFilesTest, WithoutACacheOnlyOIsWritten) {
  BuildCache cache(CacheSettings{.enabled = false}, warnings_);
  auto m = ir::testing::small_module("app");
  host::Invocation inv;
  inv.action = host::Invocation::Action::Build;
  inv.modules = {m.get()};
  auto built = built_files(*backend_, inv, cache, std::string(64, 'c'));
  ASSERT_TRUE(built.ok()) << built.status();
  ASSERT_TRUE(write_tree_atomically(dir_ / "out", built->files).ok());
  EXPECT_THAT(of_the_build(wrote_), ElementsAre(Pair("out/app", 1), Pair("out/data.bin", 1)));
  EXPECT_FALSE(fs::exists(dir_ / "cache"));
}

}  // namespace
}  // namespace ppy::driver
