#pragma once
/// Attribute values and dictionaries (docs/ir.md, "Attribute values").

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "ppy/ir/types.h"

namespace ppy::ir {

class Attribute;
class AttrDict;

/// `@name`: a reference to a function or global by symbol.
struct SymbolRef {
  std::string name;
  bool operator==(const SymbolRef&) const = default;
};

using AttrArray = std::vector<Attribute>;

/// One attribute value: bool, int, float, string, `@sym`, `!type`, `[..]` or `{..}`.
/// Arrays and dicts are shared and immutable once built, so copies are cheap.
class Attribute {
 public:
  using Storage = std::variant<bool, int64_t, double, std::string, SymbolRef, Type,
                               std::shared_ptr<const AttrArray>, std::shared_ptr<const AttrDict>>;

  Attribute() : v_(false) {}
  Attribute(bool b) : v_(b) {}
  Attribute(int v) : v_(int64_t{v}) {}
  Attribute(int64_t v) : v_(v) {}
  Attribute(double v) : v_(v) {}
  Attribute(const char* s) : v_(std::string(s)) {}
  Attribute(std::string s) : v_(std::move(s)) {}
  Attribute(std::string_view s) : v_(std::string(s)) {}
  Attribute(SymbolRef s) : v_(std::move(s)) {}
  Attribute(Type t) : v_(t) {}
  Attribute(AttrArray a) : v_(std::make_shared<const AttrArray>(std::move(a))) {}
  Attribute(AttrDict d);

  const Storage& storage() const { return v_; }
  template <class T> bool is() const { return std::holds_alternative<T>(v_); }
  bool is_array() const { return is<std::shared_ptr<const AttrArray>>(); }
  bool is_dict() const { return is<std::shared_ptr<const AttrDict>>(); }
  bool as_bool() const { return std::get<bool>(v_); }
  int64_t as_int() const { return std::get<int64_t>(v_); }
  double as_float() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const SymbolRef& as_symbol() const { return std::get<SymbolRef>(v_); }
  Type as_type() const { return std::get<Type>(v_); }
  const AttrArray& as_array() const { return *std::get<std::shared_ptr<const AttrArray>>(v_); }
  const AttrDict& as_dict() const { return *std::get<std::shared_ptr<const AttrDict>>(v_); }

  bool operator==(const Attribute& o) const;

 private:
  Storage v_;
};

/// A dictionary kept sorted by key: printing is deterministic and lookups are
/// binary searches over a few entries. One entry (most ops have at most one)
/// is held inline.
class AttrDict {
 public:
  using Entry = std::pair<std::string, Attribute>;

  AttrDict() = default;
  AttrDict(std::initializer_list<Entry> entries);

  const Attribute* get(std::string_view key) const;
  bool has(std::string_view key) const { return get(key) != nullptr; }
  /// Inserts or replaces.
  void set(std::string_view key, Attribute value);
  /// Inserts unless the key is there (false then, the dict unchanged). A key
  /// after the last, as readers give them, is appended without a search.
  bool insert(std::string_view key, Attribute value);
  /// Removes and returns the value, if present.
  std::optional<Attribute> take(std::string_view key);
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  bool operator==(const AttrDict&) const = default;

 private:
  absl::InlinedVector<Entry, 1> entries_;
};

inline Attribute::Attribute(AttrDict d) : v_(std::make_shared<const AttrDict>(std::move(d))) {}

}  // namespace ppy::ir
