// What a strict helper's loader needs from outside the visible folders: ELF
// objects written here byte by byte (so the test needs no compiler), a `#!`
// script, and a real program of the system.
#include "loader_needs.h"

#include <elf.h>
#include <stdlib.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/host/sandbox.h"

namespace ppy::host::internal {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

/// A minimal ELF64 object: one PT_LOAD covering the file, PT_INTERP when
/// `interpreter` is given, and PT_DYNAMIC with DT_NEEDED, DT_RUNPATH (or
/// DT_RPATH) and the string table.
void write_elf(const fs::path& file, const std::string& interpreter, const std::vector<std::string>& needed,
               const std::string& search_path, bool runpath = true) {
  constexpr uint64_t kBase = 0x400000;
  std::string strtab(1, '\0');
  auto add = [&](const std::string& s) {
    uint64_t at = strtab.size();
    strtab += s;
    strtab += '\0';
    return at;
  };
  std::vector<Elf64_Dyn> dyn;
  for (auto& n : needed) dyn.push_back({DT_NEEDED, {add(n)}});
  if (!search_path.empty()) dyn.push_back({runpath ? DT_RUNPATH : DT_RPATH, {add(search_path)}});
  const int phnum = interpreter.empty() ? 2 : 3;
  const uint64_t ph_off = sizeof(Elf64_Ehdr);
  const uint64_t interp_off = ph_off + phnum * sizeof(Elf64_Phdr);
  const uint64_t str_off = interp_off + (interpreter.empty() ? 0 : interpreter.size() + 1);
  const uint64_t dyn_off = (str_off + strtab.size() + 7) & ~uint64_t{7};
  dyn.push_back({DT_STRTAB, {kBase + str_off}});
  dyn.push_back({DT_STRSZ, {strtab.size()}});
  dyn.push_back({DT_NULL, {0}});
  const uint64_t end = dyn_off + dyn.size() * sizeof(Elf64_Dyn);

  Elf64_Ehdr eh = {};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = interpreter.empty() ? ET_DYN : ET_EXEC;
  eh.e_version = EV_CURRENT;
  eh.e_phoff = ph_off;
  eh.e_ehsize = sizeof eh;
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = phnum;
  std::vector<Elf64_Phdr> ph;
  ph.push_back({PT_LOAD, PF_R, 0, kBase, kBase, end, end, 0x1000});
  if (!interpreter.empty())
    ph.push_back({PT_INTERP, PF_R, interp_off, kBase + interp_off, kBase + interp_off, interpreter.size() + 1,
                  interpreter.size() + 1, 1});
  const uint64_t dyn_size = dyn.size() * sizeof(Elf64_Dyn);
  ph.push_back({PT_DYNAMIC, PF_R, dyn_off, kBase + dyn_off, kBase + dyn_off, dyn_size, dyn_size, 8});

  std::string bytes(end, '\0');
  memcpy(bytes.data(), &eh, sizeof eh);
  memcpy(bytes.data() + ph_off, ph.data(), ph.size() * sizeof(Elf64_Phdr));
  if (!interpreter.empty()) memcpy(bytes.data() + interp_off, interpreter.c_str(), interpreter.size() + 1);
  memcpy(bytes.data() + str_off, strtab.data(), strtab.size());
  memcpy(bytes.data() + dyn_off, dyn.data(), dyn_size);
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
  fs::permissions(file, fs::perms::owner_all);
}

class LoaderNeeds : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "ppy-loader-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = fs::canonical(templ);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  /// Visible: the system folders only (a strict helper's view of the machine).
  static bool system_only(const fs::path& p) {
    for (const char* d : {"/usr/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/", "/etc/", "/opt/"})
      if (p.string().starts_with(d)) return true;
    return false;
  }
  fs::path dir_;
};

TEST_F(LoaderNeeds, LibrariesBesideAVendorsProgramAreFoundThroughOrigin) {
  // /.../vendor/bin/tool, RUNPATH $ORIGIN/../lib: libvendor.so.1 there, which
  // needs libdeep.so, found beside it by its own $ORIGIN through a link.
  write_elf(dir_ / "vendor/bin/tool", "/lib64/ld-linux-x86-64.so.2", {"libvendor.so.1", "libc.so.6"}, "$ORIGIN/../lib");
  write_elf(dir_ / "vendor/lib/libvendor.so.1", "", {"libdeep.so", "libm.so.6"}, "${ORIGIN}");
  write_elf(dir_ / "vendor/lib/libdeep.so.1.2", "", {}, "");
  fs::create_symlink("libdeep.so.1.2", dir_ / "vendor/lib/libdeep.so");
  EXPECT_THAT(loader_needs(dir_ / "vendor/bin/tool", system_only),
              ElementsAre(dir_ / "vendor/lib/libvendor.so.1", dir_ / "vendor/lib/libdeep.so"));
  // What is visible already is not named again.
  auto vendor_visible = [&](const fs::path& p) {
    return system_only(p) || p.string().starts_with((dir_ / "vendor/lib").string());
  };
  EXPECT_THAT(loader_needs(dir_ / "vendor/bin/tool", vendor_visible), IsEmpty());
}

TEST_F(LoaderNeeds, TheExecutablesRpathServesItsLibrariesWithoutARunpath) {
  write_elf(dir_ / "bin/tool", "/lib64/ld-linux-x86-64.so.2", {"libone.so"}, "$ORIGIN/../private", false);
  write_elf(dir_ / "private/libone.so", "", {"libtwo.so"}, "");  // found through the executable's RPATH
  write_elf(dir_ / "private/libtwo.so", "", {}, "");
  EXPECT_THAT(loader_needs(dir_ / "bin/tool", system_only),
              ElementsAre(dir_ / "private/libone.so", dir_ / "private/libtwo.so"));
}

TEST_F(LoaderNeeds, AnInterpreterOutsideTheSystemFoldersIsNeeded) {
  write_elf(dir_ / "vendor/ld.so", "", {}, "");
  write_elf(dir_ / "vendor/tool", (dir_ / "vendor/ld.so").string(), {}, "");
  EXPECT_THAT(loader_needs(dir_ / "vendor/tool", system_only), ElementsAre(dir_ / "vendor/ld.so"));
}

TEST_F(LoaderNeeds, AScriptNeedsItsInterpreterAndWhatThatNeeds) {
  write_elf(dir_ / "vendor/bin/interp", "/lib64/ld-linux-x86-64.so.2", {"libinterp.so"}, "$ORIGIN/../lib");
  write_elf(dir_ / "vendor/lib/libinterp.so", "", {}, "");
  std::ofstream(dir_ / "script") << "#!" << (dir_ / "vendor/bin/interp").string() << " -u\nprint('hi')\n";
  EXPECT_THAT(loader_needs(dir_ / "script", system_only),
              ElementsAre(dir_ / "vendor/bin/interp", dir_ / "vendor/lib/libinterp.so"));
  std::ofstream(dir_ / "system-script") << "#!/bin/sh\necho hi\n";
  EXPECT_THAT(loader_needs(dir_ / "system-script", system_only), IsEmpty());
}

TEST_F(LoaderNeeds, ASystemProgramNeedsNothingMore) {
  EXPECT_THAT(loader_needs("/bin/sh", system_only), IsEmpty());
  // Its interpreter is what it needs when nothing is visible.
  auto nothing = [](const fs::path&) { return false; };
  std::vector<fs::path> needs = loader_needs(fs::canonical("/bin/sh"), nothing);
  ASSERT_FALSE(needs.empty());
  EXPECT_THAT(needs[0].filename().string(), ::testing::StartsWith("ld-"));
}

TEST_F(LoaderNeeds, WhatIsNotAProgramNeedsNothing) {
  std::ofstream(dir_ / "text") << "hello\n";
  std::ofstream(dir_ / "short") << "\x7f"
                                   "EL";
  std::ofstream(dir_ / "bad-elf") << std::string(
                                         "\x7f"
                                         "ELF\x02\x01\x01",
                                         7)
                                  << std::string(200, '\xff');
  auto nothing = [](const fs::path&) { return false; };
  for (const char* name : {"text", "short", "bad-elf", "absent"})
    EXPECT_THAT(loader_needs(dir_ / name, nothing), IsEmpty()) << name;
}

TEST_F(LoaderNeeds, RealExecutableResolvesEveryLink) {
  write_elf(dir_ / "opt/vendor/bin/x", "", {}, "");
  fs::create_directories(dir_ / "dist");
  fs::create_symlink(dir_ / "opt/vendor/bin/x", dir_ / "dist/x");
  fs::create_symlink("x", dir_ / "dist/y");
  EXPECT_EQ(real_executable(dir_ / "dist/y"), dir_ / "opt/vendor/bin/x");
  EXPECT_EQ(real_executable(dir_ / "dist/missing"), fs::path());
}

}  // namespace
}  // namespace ppy::host::internal
