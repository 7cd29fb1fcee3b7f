#pragma once
/// Types of the canonical IR, as docs/ir.md lists them.
///
/// A Type is a pointer to immutable, interned storage: equal types are the same
/// pointer, copying is free, and printing returns the canonical text cached at
/// interning time. Storage lives for the whole process (types are few).

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace ppy::ir {

enum class TypeKind : uint8_t {
  Void, Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64, Index,
  Ptr, Buffer, Future, Vector, Tuple, Struct, Dialect,
};

class Type;
struct TypeStorage;

/// An argument of a dialect type `d.name<args>`: a type, an integer, or a word
/// (a bare identifier, or a parenthesised expression kept as its text).
using DialectTypeArg = std::variant<const TypeStorage*, int64_t, std::string>;

struct StructField {
  std::string name;
  const TypeStorage* type;
};

/// Interned type storage; build types through the `Type::` factories only.
struct TypeStorage {
  TypeKind kind;
  std::string text;                        ///< canonical printed form
  std::vector<const TypeStorage*> elems;   ///< ptr/buffer/future/vector element, tuple members
  std::vector<StructField> fields;         ///< struct fields
  std::string name;                        ///< struct name, dialect type `d.name`, ptr space
  int64_t count = 0;                       ///< vector length
  bool is_const = false;                   ///< ptr constness
  std::vector<DialectTypeArg> args;        ///< dialect type arguments
};

class Type {
 public:
  Type() = default;
  explicit Type(const TypeStorage* s) : s_(s) {}

  static Type scalar(TypeKind k);
  static Type void_() { return scalar(TypeKind::Void); }
  static Type i1() { return scalar(TypeKind::Bool); }
  static Type i64() { return scalar(TypeKind::I64); }
  static Type f64() { return scalar(TypeKind::F64); }
  static Type index() { return scalar(TypeKind::Index); }
  /// `space` is one of generic, stack, global, shared, private, constant.
  static Type ptr(Type elem, std::string_view space = "generic", bool is_const = false);
  static Type buffer(Type elem);
  static Type future(Type elem);
  /// Fails unless n >= 1 and elem is a scalar other than void.
  static absl::StatusOr<Type> vector(Type elem, int64_t n);
  static Type tuple(const std::vector<Type>& members);
  static Type struct_(std::string_view name, const std::vector<std::pair<std::string, Type>>& fields);
  static Type dialect(std::string_view qualified_name, std::vector<DialectTypeArg> args);

  /// Parses the type spelled by the whole of `text` (e.g. `ptr<i64, generic, mut>`).
  static absl::StatusOr<Type> parse(std::string_view text);

  explicit operator bool() const { return s_ != nullptr; }
  bool operator==(const Type&) const = default;
  TypeKind kind() const { return s_->kind; }
  const std::string& str() const { return s_->text; }
  const TypeStorage* storage() const { return s_; }
  Type elem() const { return Type(s_->elems.at(0)); }
  size_t num_elems() const { return s_->elems.size(); }
  Type elem(size_t i) const { return Type(s_->elems.at(i)); }
  const std::string& ptr_space() const { return s_->name; }
  bool ptr_const() const { return s_->is_const; }
  int64_t vector_len() const { return s_->count; }

  bool is_void() const { return kind() == TypeKind::Void; }
  bool is_bool() const { return kind() == TypeKind::Bool; }
  bool is_int() const { return kind() >= TypeKind::I8 && kind() <= TypeKind::U64; }
  bool is_integer_like() const { return is_int() || kind() == TypeKind::Index; }
  bool is_signed() const { return kind() >= TypeKind::I8 && kind() <= TypeKind::I64; }
  bool is_float() const { return kind() >= TypeKind::F16 && kind() <= TypeKind::F64; }
  bool is_scalar() const { return kind() <= TypeKind::Index; }
  bool is_ptr() const { return kind() == TypeKind::Ptr; }
  int bit_width() const;

 private:
  const TypeStorage* s_ = nullptr;
};

struct TypeHash {
  size_t operator()(Type t) const { return std::hash<const void*>()(t.storage()); }
};

}  // namespace ppy::ir
