#include "class_sugar.h"

#include "dataclass_options.h"
#include "enum_classes.h"
#include "namedtuple_classes.h"

namespace ppy::frontend {

void expand_class_sugar(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags) {
  expand_enum_classes(ast, file, diags);
  expand_namedtuple_classes(ast, file);  // before the order methods: a NamedTuple is ordered
  add_dataclass_order_methods(ast, file);
  add_dataclass_recursive_repr(ast, file);  // issue 32: a tree of dataclasses prints
}

}  // namespace ppy::frontend
