#include "class_sugar.h"

#include "dataclass_options.h"
#include "enum_classes.h"
#include "inherited_classmethods.h"
#include "namedtuple_classes.h"

namespace ppy::frontend {

void expand_class_sugar(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags) {
  expand_enum_classes(ast, file, diags);
  expand_namedtuple_classes(ast, file);  // before the order methods: a NamedTuple is ordered
  add_dataclass_methods(ast, file);  // order=True, field(compare=False), field(repr=False)
  add_dataclass_recursive_repr(ast, file);  // issue 32: a tree of dataclasses prints
  add_inherited_classmethods(ast);          // issue 32: `Sub.create()` of a base's classmethod
}

}  // namespace ppy::frontend
