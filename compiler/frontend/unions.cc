// Unions of types (unions.h): making them, and what assigning and isinstance know of them.
#include "unions.h"

#include <algorithm>

#include "callable.h"
#include "types.h"

namespace ppy::frontend {

bool union_member(Ty t) {
  if (t == Ty::Error || t == Ty::None || is_none_value(t) || is_callable(t) || is_iterator(t) || is_ptr(t) ||
      t == Ty::Exc || t == Ty::File)
    return false;
  if (is_optional(t) || is_union(t)) return false;  // flattened by union_of
  return holdable(t) || is_dict(t) || is_set(t);
}

Ty union_of(std::vector<Ty> alts) {
  std::vector<Ty> flat;
  bool none = false;
  for (Ty a : alts) {
    if (a == Ty::Error) return Ty::Error;
    if (is_none_value(a) || a == Ty::None) {
      none = true;
    } else if (is_optional(a)) {
      none = true;
      Ty in = optional_inner(a);
      if (is_union(in))
        for (Ty x : union_alts(in)) flat.push_back(x);
      else
        flat.push_back(in);
    } else if (is_union(a)) {
      for (Ty x : union_alts(a)) flat.push_back(x);
    } else {
      flat.push_back(a);
    }
  }
  std::sort(flat.begin(), flat.end());
  flat.erase(std::unique(flat.begin(), flat.end()), flat.end());
  if (flat.empty()) return none ? none_value() : Ty::Error;
  Ty u = flat.size() == 1 ? flat[0] : union_interned(flat);
  return none ? optional_of(u) : u;
}

int union_tag(Ty u, Ty alt) {
  std::vector<Ty> alts = union_alts(u);
  for (size_t i = 0; i < alts.size(); ++i)
    if (alts[i] == alt) return static_cast<int>(i);
  return -1;
}

Ty union_slot_for(Ty u, Ty t) {
  if (union_tag(u, t) >= 0) return t;
  for (Ty a : union_alts(u))
    if (!is_union(a) && assignable(t, a)) return a;
  return Ty::Error;
}

bool union_accepts(Ty to, Ty from) {
  if (is_union(from)) {  // every alternative fits
    for (Ty a : union_alts(from))
      if (!assignable(a, to)) return false;
    return true;
  }
  if (!is_union(to)) return false;
  return union_slot_for(to, from) != Ty::Error;
}

namespace {

/// Whether a value of (non-union) type `t` passes isinstance(_, k): 1 always, 0 never, 2 the runtime tells.
int passes(Ty t, Ty k) {
  if (is_class(k)) {
    if (!is_class(t)) return 0;
    if (is_subclass(t, k)) return 1;
    return is_subclass(k, t) ? 2 : 0;
  }
  // `list`, `dict`, `set` and `tuple` are ListInt, PtrInt, PtrFloat and ConstPtrInt (check_union.cc's markers).
  if (k == Ty::ListInt) return is_list(t) ? 1 : 0;
  if (k == Ty::PtrInt) return is_dict(t) ? 1 : 0;
  if (k == Ty::PtrFloat) return is_set(t) ? 1 : 0;
  if (k == Ty::ConstPtrInt) return is_tuple(t) ? 1 : 0;
  if (t == k) return 1;
  if (k == Ty::Int && t == Ty::Bool) return 1;  // a bool is an int
  return 0;
}

}  // namespace

InstanceSplit isinstance_split(Ty t, const std::vector<Ty>& ks) {
  InstanceSplit r;
  std::vector<Ty> alts;
  bool none = false;
  if (is_optional(t)) {
    none = true;
    t = optional_inner(t);
  }
  if (is_union(t))
    alts = union_alts(t);
  else
    alts.push_back(t);
  std::vector<Ty> pass, fail;
  for (Ty a : alts) {
    int best = 0;
    for (Ty k : ks) best = std::max(best, passes(a, k) == 1 ? 3 : passes(a, k));
    if (best == 3) {
      pass.push_back(a);
    } else if (best == 2) {
      for (Ty k : ks)
        if (is_class(k) && is_subclass(k, a)) pass.push_back(k);
      fail.push_back(a);
      r.runtime_class_test = true;
    } else {
      fail.push_back(a);
    }
  }
  if (none) fail.push_back(none_value());
  r.pass = pass.empty() ? Ty::Error : union_of(pass);
  r.fail = fail.empty() ? Ty::Error : union_of(fail);
  return r;
}

}  // namespace ppy::frontend
