// C types of IR types: scalars, lists and str handles, and the structs the
// unit defines for tuples (boxed, when a list holds them) and objects.
#include <functional>

#include "c_writer.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

std::string CWriter::c_type(ir::Type t) const {
  switch (t.kind()) {
    case ir::TypeKind::I64:
    case ir::TypeKind::Index:
      return "int64_t";
    case ir::TypeKind::F64:
      return "double";
    case ir::TypeKind::Bool:
      return "bool";
    case ir::TypeKind::Buffer:
      return "ppy_list*";
    case ir::TypeKind::Ptr:
      if (t.elem().kind() == ir::TypeKind::I8) return "ppy_str*";  // a str handle (docs/runtime.md)
      return str_cat(t.ptr_const() ? "const " : "", c_type(t.elem()), "*");
    case ir::TypeKind::Tuple:
      return tuple_struct(t);
    case ir::TypeKind::Struct:
      return object_struct(t);
    default:
      return "void";
  }
}

std::string CWriter::tuple_struct(ir::Type t) const {
  std::string name = "ppy_T";
  for (size_t i = 0; i < t.num_elems(); ++i) {
    ir::Type e = t.elem(i);
    str_append(name, "_", type_tag(e));
  }
  name += "_E";
  if (tuple_defined_.insert(t.str()).second) {
    std::string fields;
    for (size_t i = 0; i < t.num_elems(); ++i) str_append(fields, " ", c_type(t.elem(i)), " f", i, ";");
    str_append(tuple_defs_, "typedef struct", fields.empty() ? " { char none; }" : str_cat(" {", fields, " }"), " ",
               name, ";\n");
  }
  return name;
}

std::string CWriter::type_tag(ir::Type e) const {
  if (e.kind() == ir::TypeKind::Tuple) return tuple_struct(e);
  if (e.kind() == ir::TypeKind::Ptr && e.elem().kind() == ir::TypeKind::I8) return "str";
  if (e.kind() == ir::TypeKind::Buffer) return str_cat("L", type_tag(e.elem()));
  return e.str();
}

std::string CWriter::boxed(ir::Type t) const {
  std::string name = tuple_struct(t);
  if (!tuple_boxed_.insert(name).second) return name;
  std::string put, get;
  int64_t k = 0;
  std::function<void(ir::Type, const std::string&)> leaves = [&](ir::Type m, const std::string& path) {
    if (m.kind() == ir::TypeKind::Tuple) {
      for (size_t i = 0; i < m.num_elems(); ++i) leaves(m.elem(i), str_cat(path, ".f", i));
      return;
    }
    std::string slot = str_cat("b[", k++, "]");
    if (m.is_float()) {
      str_append(put, "  memcpy(&", slot, ", &", path, ", 8);\n");
      str_append(get, "  memcpy(&", path, ", &", slot, ", 8);\n");
    } else if (m.kind() == ir::TypeKind::Bool) {
      str_append(put, "  ", slot, " = ", path, ";\n");
      str_append(get, "  ", path, " = ", slot, " != 0;\n");
    } else if (m.kind() == ir::TypeKind::I64 || m.kind() == ir::TypeKind::Index) {
      str_append(put, "  ", slot, " = ", path, ";\n");
      str_append(get, "  ", path, " = ", slot, ";\n");
    } else {
      str_append(put, "  ", slot, " = (int64_t)(intptr_t)", path, ";\n");
      str_append(get, "  ", path, " = (", c_type(m), ")(intptr_t)", slot, ";\n");
    }
  };
  leaves(t, "v");
  str_append(tuple_defs_, "static inline void* ppy_box_", name, "(", name,
             " v) {\n  int64_t* b = (int64_t*)ppy_list_box(", k, ");\n", put, "  return b;\n}\n");
  str_append(tuple_defs_, "static inline ", name, " ppy_unbox_", name,
             "(const void* p) {\n  const int64_t* b = (const int64_t*)p;\n  ", name, " v;\n", get, "  return v;\n}\n");
  return name;
}

std::string CWriter::object_struct(ir::Type t) const {
  auto it = object_names_.find(t.str());
  if (it != object_names_.end()) return it->second;
  std::string name = str_cat("ppy_S", object_names_.size(), "_", source::identifier(t.storage()->name));
  std::string fields;
  for (auto& f : t.storage()->fields) str_append(fields, " ", c_type(ir::Type(f.type)), " f_", f.name, ";");
  object_names_[t.str()] = name;
  str_append(tuple_defs_, "typedef struct {", fields, " } ", name, ";\n", "static inline ", name, " ", name,
             "_load(const void* p) { ", name, " v; memcpy(&v, p, sizeof v); return v; }\n", "static inline void ", name,
             "_store(void* p, ", name, " v) { memcpy(p, &v, sizeof v); }\n");
  return name;
}

std::string CWriter::zero(ir::Type t) const {
  if (t.kind() == ir::TypeKind::Tuple || t.kind() == ir::TypeKind::Struct)
    return o_.dialect == Dialect::C ? "{0}" : "{}";
  if (t.is_float()) return "0.0";
  if (t.is_bool()) return "false";
  if (t.kind() == ir::TypeKind::Buffer || t.is_ptr()) return "0";
  return "0";
}

}  // namespace ppy::backends::cgen
