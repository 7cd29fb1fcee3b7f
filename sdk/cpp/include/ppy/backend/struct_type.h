#pragma once
/// A struct type's fields as a backend reads them to lay the struct out or
/// reach a member (`core.field` and the like), without reaching into the
/// interned storage behind `ir::Type` (`type.storage()`, an implementation
/// detail of the IR library).
///
///     for (const ppy::StructMember& m : ppy::struct_members(t))
///       out << c_type(m.type) << " " << m.name << ";  // field " << m.index << "\n";

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "ppy/ir/types.h"

namespace ppy {

/// One field of a struct type: its name, its type and its position (what an
/// op that reaches a field by number counts).
struct StructMember {
  std::string_view name;  ///< valid as long as the type (types are interned for good)
  ir::Type type;
  size_t index = 0;
};

/// Whether `t` is a struct type.
inline bool is_struct(ir::Type t) { return t && t.kind() == ir::TypeKind::Struct; }

/// The name a struct type was declared with (`Point`); empty for any other type.
inline std::string_view struct_name(ir::Type t) { return is_struct(t) ? std::string_view(t.storage()->name) : ""; }

/// A struct type's fields, in order; empty for any other type.
inline std::vector<StructMember> struct_members(ir::Type t) {
  std::vector<StructMember> out;
  if (!is_struct(t)) return out;
  for (const ir::StructField& f : t.storage()->fields) out.push_back({f.name, ir::Type(f.type), out.size()});
  return out;
}

/// The field of a struct type named `name`, or nullopt (no such field, or not a struct).
inline std::optional<StructMember> struct_member(ir::Type t, std::string_view name) {
  for (const StructMember& m : struct_members(t))
    if (m.name == name) return m;
  return std::nullopt;
}

/// The field at `index` of a struct type, or nullopt.
inline std::optional<StructMember> struct_member_at(ir::Type t, size_t index) {
  std::vector<StructMember> members = struct_members(t);
  return index < members.size() ? std::optional(members[index]) : std::nullopt;
}

}  // namespace ppy
