// A plain class's bare field annotations (class_field_annotations.h).
#include "class_field_annotations.h"

namespace ppy::frontend {

const std::string* bare_field_annotation(const Stmt& s) {
  if (s.kind != StmtKind::AnnAssign || s.value || !s.annotation || s.targets.size() != 1 ||
      s.targets[0]->kind != ExprKind::Name)
    return nullptr;
  return &s.targets[0]->str;
}

}  // namespace ppy::frontend
