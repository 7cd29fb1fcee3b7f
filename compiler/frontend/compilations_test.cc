// Several compilations in one process (a long-lived compiler, the test
// binary): the interned class types must carry nothing from one to the next.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppy/frontend/frontend.h"
#include "types.h"

namespace ppy::frontend {
namespace {
namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A class `Square` of module `geo.shapes` and a class `shapes.Square` of
// module `geo` (a dotted path looked up as a class) are two types.
TEST(Compilations, ClassKeysTellModuleFromName) {
  Ty odd = class_type("geo_k", "shapes.Square");
  Ty real = class_type("geo_k.shapes", "Square");
  EXPECT_NE(odd, real);
  EXPECT_EQ(std::string(ty_name(real)), "Square");
}

// A module lowered alone that names another project's classes, then that
// project: its classes are its own (the robustness test ran before the
// import_classes project in one process and broke it).
TEST(Compilations, AModuleAloneThenAProject) {
  fs::path dir = fs::path(PPY_SOURCE_DIR) / "tests" / "programs" / "import_classes";
  for (const char* file : {"main.ppy", "shapes.ppy"}) {
    DiagnosticEngine d;
    (void)lower_module({"m", "m.ppy", read(dir / "src" / "geo" / file)}, {}, d);
  }
  auto project = load_project(dir.string());
  ASSERT_TRUE(project.ok()) << project.status();
  DiagnosticEngine diags;
  auto mods = lower_project(*project, diags);
  EXPECT_FALSE(diags.has_errors()) << render_diagnostics(diags);
  EXPECT_EQ(mods.size(), project->modules.size());
}

// A compilation's classes leave no pointer to its (freed) modules behind.
TEST(Compilations, ClassesForgetTheirModuleWhenItEnds) {
  DiagnosticEngine d;
  LowerResult r = lower_module({"gone", "gone.ppy", "class P:\n    def __init__(self) -> None:\n        self.x = 1\n"},
                               {}, d);
  ASSERT_TRUE(r.module) << render_diagnostics(d);
  const ClassInfo* c = class_info(class_type("gone", "P"));
  EXPECT_EQ(c->owner, nullptr);
  EXPECT_TRUE(c->fields.empty());
}

}  // namespace
}  // namespace ppy::frontend
