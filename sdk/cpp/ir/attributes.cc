#include "ppy/ir/attributes.h"

#include <algorithm>

namespace ppy::ir {

bool Attribute::operator==(const Attribute& o) const {
  if (v_.index() != o.v_.index()) return false;
  if (is_array()) return as_array() == o.as_array();
  if (is_dict()) return as_dict() == o.as_dict();
  if (is<double>()) {  // nan == nan here: attributes compare by spelling
    double a = as_float(), b = o.as_float();
    return a == b || (a != a && b != b);
  }
  return v_ == o.v_;
}

AttrDict::AttrDict(std::initializer_list<Entry> entries) {
  for (auto& e : entries) set(e.first, e.second);
}

template <class V>
static auto lower(const V& v, std::string_view key) {
  return std::lower_bound(v.begin(), v.end(), key,
                          [](const AttrDict::Entry& e, std::string_view k) { return e.first.compare(k) < 0; });
}

const Attribute* AttrDict::get(std::string_view key) const {
  auto it = lower(entries_, key);
  return it != entries_.end() && it->first == key ? &it->second : nullptr;
}

void AttrDict::set(std::string_view key, Attribute value) {
  auto it = lower(entries_, key);
  if (it != entries_.end() && it->first == key) {
    entries_[it - entries_.begin()].second = std::move(value);
    return;
  }
  entries_.insert(entries_.begin() + (it - entries_.begin()), Entry(std::string(key), std::move(value)));
}

bool AttrDict::insert(std::string_view key, Attribute value) {
  if (entries_.empty() || entries_.back().first.compare(key) < 0) {
    entries_.emplace_back(std::piecewise_construct, std::forward_as_tuple(key), std::forward_as_tuple(std::move(value)));
    return true;
  }
  auto it = lower(entries_, key);
  if (it != entries_.end() && it->first == key) return false;
  entries_.insert(entries_.begin() + (it - entries_.begin()), Entry(std::string(key), std::move(value)));
  return true;
}

std::optional<Attribute> AttrDict::take(std::string_view key) {
  auto it = lower(entries_, key);
  if (it == entries_.end() || it->first != key) return std::nullopt;
  size_t i = it - entries_.begin();
  Attribute v = std::move(entries_[i].second);
  entries_.erase(entries_.begin() + i);
  return v;
}

}  // namespace ppy::ir
