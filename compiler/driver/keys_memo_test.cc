#include "ppy/driver/keys_memo.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "ppy/util/file.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

class KeysMemo : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ppy-keys-memo-" + std::to_string(getpid()));
    fs::create_directories(root_ / "src" / "app");
    std::ofstream(root_ / "pyproject.toml") << "[tool.ppy]\nsource-roots = [\"src\"]\nentry = \"app.b\"\n";
    std::ofstream(root_ / "src" / "app" / "a.ppy") << "def f(n: int) -> int:\n    return n + 1\n";
    std::ofstream(root_ / "src" / "app" / "b.ppy") << "from app.a import f\n\ndef main() -> None:\n    print(f(41))\n";
  }
  void TearDown() override { fs::remove_all(root_); }

  Compilation compiled() {
    frontend::DiagnosticEngine diags;
    CompileOptions o{root_.string()};
    o.portable_paths = true;
    auto c = compile(o, diags);
    EXPECT_TRUE(c.ok()) << c.status();
    return std::move(*c);
  }
  std::string cache() const { return (root_ / ".ppy-cache").string(); }

  fs::path root_;
};

/// The identities a backend would be handed, for comparing keys whole.
std::map<std::string, std::string> identities(const std::map<std::string, ModuleKey>& keys) {
  BackendIdentity b{"toy", "ppy-toy", "0.1", 1, "toy:0", sha256_hex(""), "", 1};
  std::map<std::string, std::string> out;
  for (auto& [name, key] : keys) out[name] = artifact_identity(key, b);
  return out;
}

TEST_F(KeysMemo, RemembersTheCompiledKeysWhole) {
  Compilation c = compiled();
  const Project& p = *c.project;
  std::string path = keys_memo_path(cache(), p, c.opt_level, true);
  ASSERT_FALSE(path.empty());
  EXPECT_FALSE(read_keys_memo(path, p, c.opt_level)) << "nothing remembered yet";
  write_keys_memo(path, c);
  auto back = read_keys_memo(path, p, c.opt_level);
  ASSERT_TRUE(back);
  EXPECT_EQ(identities(*back), identities(c.keys));
  // b imports a: its dependency ABI came from the IR, and came back.
  EXPECT_FALSE(back->at("app.b").dependency_abi.empty());
}

TEST_F(KeysMemo, WhatTheKeysAreMadeFromNamesAnotherMemo) {
  Compilation c = compiled();
  const Project& p = *c.project;
  std::string path = keys_memo_path(cache(), p, 2, true);
  EXPECT_EQ(path, keys_memo_path(cache(), p, 2, true));
  EXPECT_NE(path, keys_memo_path(cache(), p, 3, true));
  EXPECT_NE(path, keys_memo_path(cache(), p, 2, false));
  Project edited = p;
  edited.modules[0].text += "\n# changed\n";
  EXPECT_NE(path, keys_memo_path(cache(), edited, 2, true));
  Project renamed = p;
  renamed.entry = "app.a";
  EXPECT_NE(path, keys_memo_path(cache(), renamed, 2, true));
}

TEST_F(KeysMemo, AMemoCutShortOrForeignIsAMiss) {
  Compilation c = compiled();
  const Project& p = *c.project;
  std::string path = keys_memo_path(cache(), p, c.opt_level, true);
  write_keys_memo(path, c);
  std::string whole = read_file(path).value();
  ASSERT_TRUE(write_file_atomic(path, whole.substr(0, whole.size() - 3)).ok());
  EXPECT_FALSE(read_keys_memo(path, p, c.opt_level));
  ASSERT_TRUE(write_file_atomic(path, "ppy-keys 1\nx garbage\tline\nend\n").ok());
  EXPECT_FALSE(read_keys_memo(path, p, c.opt_level));
  EXPECT_FALSE(read_keys_memo("", p, c.opt_level));
}

}  // namespace
}  // namespace ppy::driver
