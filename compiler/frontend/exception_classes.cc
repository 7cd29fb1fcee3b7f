#include "exception_classes.h"

#include "class_ids.h"

namespace ppy::frontend {

void make_exception_class(ClassInfo& c, std::string_view builtin) {
  c.exception_base = std::string(builtin);
  for (std::string_view n : {kExcClassesField, kExcStrField, kExcArgsField})
    c.fields.emplace_back(std::string(n), Ty::Str);
  c.fields.emplace_back(std::string(kExcArgvField), list_of(Ty::Str));  // e.args (exception_args.h)
  c.fields.emplace_back(std::string(kExcArgRawField), Ty::Bool);
}

bool is_exception_class(Ty t) { return is_class(t) && !class_info(t)->exception_base.empty(); }

bool is_hidden_field(std::string_view n) {
  return n == kExcClassesField || n == kExcStrField || n == kExcArgsField || n == kExcArgvField ||
         n == kExcArgRawField;
}

bool has_own_fields(const ClassInfo& c) {
  for (auto& f : c.fields)
    if (!is_hidden_field(f.first)) return true;
  return false;
}

std::string exception_classes(const ClassInfo& c) {
  std::string out = exception_class_name(c);  // module.Name outside the entry (class_ids.h)
  for (Ty b = c.base; b != Ty::Error; b = class_info(b)->base)
    out.append(" ").append(exception_class_name(*class_info(b)));
  return out.append(" ").append(c.exception_base);
}

Ty common_class(Ty a, Ty b) {
  for (Ty k = a; k != Ty::Error; k = class_info(k)->base)
    if (is_subclass(b, k)) return k;
  return Ty::Error;
}

}  // namespace ppy::frontend
