// The context a backend is handed: the entry module and the symbol the program
// starts at, for sources and for a linked `.ppyir`.
#include "ppy/driver/backend_context.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

class EntryContext : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ppy-entry-context-" + std::to_string(getpid()));
    fs::create_directories(root_ / "src" / "app");
    std::ofstream(root_ / "src" / "app" / "lib.ppy") << "def f(a: int, b: int) -> int:\n    return a + b\n";
  }
  void TearDown() override { fs::remove_all(root_); }

  void project(const std::string& entry, const std::string& main_text) {
    std::ofstream(root_ / "pyproject.toml") << "[tool.ppy]\nsource-roots = [\"src\"]\n"
                                            << (entry.empty() ? "" : "entry = \"" + entry + "\"\n");
    std::ofstream(root_ / "src" / "app" / "main.ppy") << main_text;
  }

  Compilation compiled(const std::string& target) {
    frontend::DiagnosticEngine diags;
    auto c = compile(CompileOptions{target}, diags);
    EXPECT_TRUE(c.ok()) << c.status();
    return std::move(*c);
  }

  BackendContext context(const Compilation& c, const std::string& target) {
    return make_context(c, host::BackendInfo{}, BackendConfig{}, target);
  }

  fs::path root_;
};

constexpr char kGuardOnly[] =
    "from app.lib import f\n\n\ndef main() -> None:\n    print(f(1, 2))\n\n\nif __name__ == \"__main__\":\n    "
    "main()\n";

constexpr char kWithCode[] =
    "from app.lib import f\n\nprint(\"start\")\n\n\ndef main() -> None:\n    print(f(1, 2))\n\n\n"
    "if __name__ == \"__main__\":\n    main()\n";

TEST_F(EntryContext, SourcesNameTheEntryModuleAndItsMain) {
  project("app.main", kGuardOnly);
  Compilation c = compiled(root_.string());
  BackendContext ctx = context(c, root_.string());
  EXPECT_EQ(ctx.entry_module, "app.main");
  EXPECT_EQ(ctx.entry_symbol, "app_main___main__");  // the guard's code, which calls main()
}

TEST_F(EntryContext, AnEntryWithCodeStartsAtItsCode) {
  project("app.main", kWithCode);
  Compilation c = compiled(root_.string());
  BackendContext ctx = context(c, root_.string());
  EXPECT_EQ(ctx.entry_module, "app.main");
  EXPECT_EQ(ctx.entry_symbol, "app_main___main__");
}

TEST_F(EntryContext, ALibraryHasNoEntry) {
  fs::remove(root_ / "src" / "app" / "main.ppy");
  std::ofstream(root_ / "pyproject.toml") << "[tool.ppy]\nsource-roots = [\"src\"]\n";
  std::ofstream(root_ / "src" / "app" / "util.ppy") << "def g() -> int:\n    return 1\n";
  Compilation c = compiled(root_.string());
  BackendContext ctx = context(c, root_.string());
  EXPECT_EQ(ctx.entry_module, "");
  EXPECT_EQ(ctx.entry_symbol, "");
}

TEST_F(EntryContext, ALinkedPpyirNamesTheEntryItsModulesHad) {
  project("app.main", kWithCode);
  Compilation sources = compiled(root_.string());
  absl::StatusOr<std::unique_ptr<ir::Module>> linked = ir::link(sources.module_list(), "program");
  ASSERT_TRUE(linked.ok()) << linked.status();
  std::string path = (root_ / "program.ppyir").string();
  std::ofstream(path) << ir::print_module(**linked);

  Compilation c = compiled(path);
  BackendContext ctx = context(c, path);
  EXPECT_EQ(ctx.entry, path);
  EXPECT_EQ(ctx.entry_module, "app.main");
  EXPECT_EQ(ctx.entry_symbol, "app_main___main__");
}

}  // namespace
}  // namespace ppy::driver
