#pragma once
/// The builtin methods as data (builtins.def): what the checker accepts and
/// the runtime function each lowers to. The checker stores a BuiltinId on the
/// call and lowering dispatches on it; neither matches a method by name.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

enum class BuiltinId : uint16_t {
  None,
#define PPY_BUILTIN_METHOD(id, receiver, name, signature, runtime) id,
#include "builtins.def"
#undef PPY_BUILTIN_METHOD
};

/// A parameter or result of a builtin's signature: a type, or the receiver's
/// element (`T`), key (`K`) or value (`V`), or a list of one of those.
struct BuiltinType {
  enum Kind : uint8_t { Fixed, Elem, Key, Value, ListOf } kind = Fixed;
  Ty ty = Ty::None;         ///< Fixed: the type
  Kind inner = Fixed;       ///< ListOf: what the list holds (Fixed uses ty)
  /// A parameter Python lets a call leave out (`int=8`, `int=MAX`, `str=' '`):
  /// lowering passes the default.
  bool optional = false;
  int64_t int_default = 0;
  double float_default = 0;
  std::string_view str_default;
};

/// One line of builtins.def, its signature parsed.
struct BuiltinMethod {
  BuiltinId id = BuiltinId::None;
  std::string_view receiver;  ///< str, list, dict, set
  std::string_view name;
  std::vector<BuiltinType> params;
  bool more = false;  ///< Python takes further optional arguments the subset refuses
  BuiltinType result;
  std::string_view runtime;  ///< the runtime function (with {k} / {v}), or empty
};

/// The method `name` of a `receiver` ("str", "list", "dict", "set"), or null.
const BuiltinMethod* find_builtin_method(std::string_view receiver, std::string_view name);

/// The method `name` of a `receiver` that takes `nargs` arguments (a method
/// written on several lines, one per form); else its first line, or null.
const BuiltinMethod* find_builtin_method(std::string_view receiver, std::string_view name, size_t nargs);

/// How many arguments `m` needs (its parameters without a default).
size_t required_params(const BuiltinMethod& m);

/// Whether `m` is startswith or endswith and `t` a tuple of strs (any of them).
bool affix_tuple(const BuiltinMethod& m, Ty t);

/// Every line of builtins.def, in order (the first is None's).
const std::vector<BuiltinMethod>& builtin_methods();

/// The entry of `id` (not None).
const BuiltinMethod& builtin_method(BuiltinId id);

/// What a builtin type stands for, given the receiver's element / key and value.
Ty resolve(const BuiltinType& t, Ty elem, Ty value = Ty::Error);

/// The runtime function of `m` for element (or key) kind `k` and value kind
/// `v` (`i64`, `f64`, `ptr`), `_or` dropped when `with_default` is false.
std::string builtin_runtime(const BuiltinMethod& m, std::string_view k = "", std::string_view v = "",
                            bool with_default = true);

}  // namespace ppy::frontend
