// Classes imported from another module (imported_classes.h): the importer's IR
// calls the class's methods as externals of the module that defines them, and
// what stays outside is refused by name.
#include "imported_classes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"

namespace ppy::frontend {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kShapes =
    "class Shape:\n"
    "    def __init__(self, name: str) -> None:\n        self.name = name\n\n"
    "    def area(self) -> float:\n        return 0.0\n\n\n"
    "class Circle(Shape):\n"
    "    def __init__(self, r: float) -> None:\n        super().__init__(\"circle\")\n        self.r = r\n\n"
    "    def area(self) -> float:\n        print(\"area\")\n        return 3.0 * self.r * self.r\n\n\n"
    "def biggest(xs: list[Shape]) -> Shape:\n    return xs[0]\n\n\n"
    "def total(xs: list[Shape]) -> float:\n    return xs[0].area()\n";

/// Lowers a project of `shapes` and a `main` module; `text` gets each module's IR.
std::string lower_with(const std::string& main, std::map<std::string, std::string>& text) {
  Project p;
  p.entry = "main";
  p.modules = {SourceModule{"main", "main.ppy", main}, SourceModule{"shapes", "shapes.ppy", kShapes}};
  DiagnosticEngine d;
  for (auto& m : lower_project(p, d)) text[m->name()] = ir::print_module(*m);
  return render_diagnostics(d);
}

TEST(ImportedClasses, MethodsStayInTheirModule) {
  std::map<std::string, std::string> text;
  EXPECT_EQ(lower_with("from shapes import Circle, Shape, biggest\nimport shapes\n\n\n"
                       "def main() -> None:\n"
                       "    c: Shape = shapes.Circle(2.0)\n"
                       "    b = biggest([c, Circle(1.0)])\n"
                       "    print(b.area(), isinstance(b, Circle), c.name)\n",
                       text),
            "");
  ASSERT_EQ(text.size(), 2u);
  // The importer declares the methods it calls (the override by the type id too), defining none.
  EXPECT_THAT(text["main"], HasSubstr("@shapes_Circle__area"));
  EXPECT_THAT(text["main"], HasSubstr("@shapes_Shape__area"));
  EXPECT_THAT(text["main"], HasSubstr("@shapes_Circle____init__"));
  EXPECT_THAT(text["main"], HasSubstr("ppy.external"));
  EXPECT_THAT(text["main"], Not(HasSubstr("func @main_Circle")));
  // The function returning the base class reads it back from the interface as the same class.
  EXPECT_THAT(text["main"], HasSubstr("@shapes_biggest"));
}

TEST(ImportedClasses, EffectsCrossWithTheMethod) {
  std::map<std::string, std::string> text;
  EXPECT_EQ(lower_with("from shapes import Circle\n\n\n"
                       "def size(c: Circle) -> float:\n    return c.area()\n\n\n"
                       "def main() -> None:\n    print(size(Circle(1.0)))\n",
                       text),
            "");
  // size() prints through Circle.area: its effects say so, or a pass could drop the call.
  auto at = text["main"].find("@main_size");
  ASSERT_NE(at, std::string::npos);
  EXPECT_THAT(text["main"].substr(at, 300), HasSubstr("\"io\""));
}

TEST(ImportedClasses, SubclassOfAnotherModulesClass) {
  std::map<std::string, std::string> text;
  EXPECT_EQ(lower_with("import shapes\n\n\nclass Square(shapes.Shape):\n"
                       "    def __init__(self, s: float) -> None:\n        super().__init__(\"square\")\n"
                       "        self.s = s\n\n"
                       "    def area(self) -> float:\n        return self.s * self.s\n\n\n"
                       "def main() -> None:\n    print(shapes.total([Square(2.0)]))\n",
                       text),
            "");
  // The base's module dispatches to the override of the module that derives from it.
  EXPECT_THAT(text["shapes"], HasSubstr("@main_Square__area"));
  EXPECT_THAT(text["main"], HasSubstr("@shapes_Shape____init__"));
}

TEST(ImportedClasses, AMethodAsAValueCallsTheMethodItsModuleCompiled) {
  std::map<std::string, std::string> text;
  EXPECT_EQ(lower_with("from shapes import Circle\n\n\n"
                       "def main() -> None:\n    f = Circle(1.0).area\n    print(f())\n",
                       text),
            "");
  // The bound entry is the importing module's; the method stays external, compiled in shapes.
  auto at = text["main"].find("shapes__Circle__area__bound(");
  ASSERT_NE(at, std::string::npos) << text["main"];
  EXPECT_THAT(text["main"].substr(at, 600), HasSubstr("@shapes_Circle__area"));
}

TEST(ImportedClasses, OutsideTheSubsetIsNamed) {
  std::map<std::string, std::string> text;
  EXPECT_THAT(lower_with("from shapes import Triangle\n\n\ndef main() -> None:\n    print(1)\n", text),
              HasSubstr("1:20: error[E1070]: cannot import name 'Triangle' from 'shapes'"));
}

}  // namespace
}  // namespace ppy::frontend
