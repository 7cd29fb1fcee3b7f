// IR generation, special methods (docs/runtime.md, "Objects"): what str(),
// repr() and print give for an instance, by its class's __str__ / __repr__
// or Python's defaults, dispatched on the type id.
#include <algorithm>

#include "generic_classes.h"  // shown_name
#include "exception_classes.h"
#include "imported_classes.h"  // owner_of
#include "lowerer.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::lowering {
namespace {

/// The classes of `cls`'s subtree, in preorder (type id order).
void subtree(Ty cls, std::vector<Ty>& out) {
  out.push_back(cls);
  for (Ty sub : class_info(cls)->subclasses) subtree(sub, out);
}

/// The class that defines method `name` for `k`, Error when none does.
Ty impl_of(Ty k, const char* name) {
  const ClassInfo& c = *class_info(k);
  auto it = c.methods.find(name);
  return it == c.methods.end() ? Ty::Error : it->second;
}

}  // namespace

bool FunctionLowerer::custom_text(Ty cls) const {
  std::vector<Ty> all;
  subtree(cls, all);
  return std::any_of(all.begin(), all.end(), [](Ty k) {
    const ClassInfo& c = *class_info(k);
    return !c.dataclass || c.methods.count("__str__") || c.methods.count("__repr__");
  });
}

Value* FunctionLowerer::by_class(Value* obj, Ty cls, Type result, const std::function<std::string(Ty)>& key,
                                 const std::function<Value*(Ty)>& make, Pos p) {
  std::vector<Ty> all;
  subtree(cls, all);
  std::vector<std::pair<std::string, std::vector<Ty>>> groups;
  for (Ty k : all) {
    std::string g = key(k);
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& x) { return x.first == g; });
    if (it == groups.end())
      groups.push_back({g, {k}});
    else
      it->second.push_back(k);
  }
  if (groups.size() == 1) return make(groups[0].second[0]);
  Value* tid = type_id(obj, cls, p);
  int n = ++labels_;
  Block* join = new_block("dunder.end", n);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (g + 1 < groups.size()) {
      Value* hit = nullptr;
      for (Ty k : groups[g].second) {
        Value* c = cmp("eq", tid, const_i64(class_info(k)->tid, p), p);
        hit = hit ? or_(hit, c, p) : c;
      }
      Block* take = new_block(str_cat("dunder.", n, "."), static_cast<int>(g));
      Block* next = new_block(str_cat("dunder.next", n, "."), static_cast<int>(g));
      cond_br(hit, take, {}, next, {}, p);
      cur_ = take;
      br(join, {make(groups[g].second[0])}, p);
      cur_ = next;
    } else {
      br(join, {make(groups[g].second[0])}, p);
    }
  }
  cur_ = join;
  return join->add_argument(result, "");
}

Value* FunctionLowerer::object_repr(Value* obj, Ty cls, Pos p) {
  auto key = [](Ty k) {
    Ty r = impl_of(k, "__repr__");
    if (r != Ty::Error) return str_cat("m", ty_name(r));
    return str_cat("d", ty_name(k));  // each class its own default (its name, its fields)
  };
  auto make = [&](Ty k) -> Value* {
    const ClassInfo& c = *class_info(k);
    if (Ty r = impl_of(k, "__repr__"); r != Ty::Error) return call_method(method(r, "__repr__"), obj, {}, p);
    if (!c.exception_base.empty()) {
      // `__args` may still be the one str argument itself (exception_classes.h, `__argraw`).
      Value* kept = field_get(obj, k, std::string(kExcArgsField), p);
      Value* args = choose(
          field_get(obj, k, std::string(kExcArgRawField), p), {"exc.repr.raw", "exc.repr.made", "exc.repr.end"},
          [&] { return repr_str(kept, Ty::Str, p); }, [&] { return kept; }, str_type(), p);
      Value* s = rt("ppy_str_concat", {str_literal(shown_name(c) + "(", p), args}, str_type(), p);
      return rt("ppy_str_concat", {s, str_literal(")", p)}, str_type(), p);
    }
    if (c.dataclass) return repr_str(obj, k, p);
    const ModuleInfo& home = checking::owner_of(m_, k);  // the class's module, not the printing one's
    std::string qual = str_cat(home.is_entry ? "__main__" : home.name, ".", shown_name(c));
    return rt("ppy_obj_repr", {str_literal(qual, p), obj}, str_type(), p);
  };
  return by_class(obj, cls, str_type(), key, make, p);
}

Value* FunctionLowerer::object_str(Value* obj, Ty cls, Pos p) {
  auto key = [](Ty k) {
    if (Ty s = impl_of(k, "__str__"); s != Ty::Error) return str_cat("s", ty_name(s));
    if (!class_info(k)->exception_base.empty()) return std::string("e");
    return std::string("r");  // repr() of it
  };
  auto make = [&](Ty k) -> Value* {
    if (Ty s = impl_of(k, "__str__"); s != Ty::Error) return call_method(method(s, "__str__"), obj, {}, p);
    if (!class_info(k)->exception_base.empty()) return field_get(obj, k, std::string(kExcStrField), p);
    return nullptr;
  };
  // The classes that show their repr() share one call of object_repr, dispatched again.
  std::vector<Ty> all;
  subtree(cls, all);
  bool any_repr = std::any_of(all.begin(), all.end(), [&](Ty k) { return key(k) == "r"; });
  if (!any_repr) return by_class(obj, cls, str_type(), key, make, p);
  return by_class(
      obj, cls, str_type(), key,
      [&](Ty k) -> Value* {
        Value* v = make(k);
        return v ? v : object_repr(obj, cls, p);
      },
      p);
}

}  // namespace ppy::frontend::lowering
