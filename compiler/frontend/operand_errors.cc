// python3's TypeError texts for binary operators (operand_errors.h).
#include "operand_errors.h"

#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

std::string python_type_of(Ty t) {
  if (const ClassInfo* c = class_info(t)) return c->name;
  if (is_list(t)) return "list";
  if (is_dict(t)) return "dict";
  if (is_set(t)) return "set";
  if (is_tuple(t)) return "tuple";
  if (t == Ty::None) return "NoneType";
  if (t == Ty::Exc) return "Exception";  // the class it was declared or caught as, where one is not known
  return ty_name(t);
}

std::string operand_type_error(std::string_view op, Ty a, Ty b) {
  return operand_type_error(op, a, b, python_type_of(a), python_type_of(b));
}

std::string operand_type_error(std::string_view op, Ty a, Ty b, const std::string& an, const std::string& bn) {
  auto sequence = [](Ty t) { return t == Ty::Str || is_list(t) || is_tuple(t); };
  if (op == "+" && sequence(a) && an != bn)
    return str_cat("can only concatenate ", an, " (not \"", bn, "\") to ", an);
  if (op == "*" && (sequence(a) || sequence(b)))
    return str_cat("can't multiply sequence by non-int of type '", sequence(a) ? bn : an, "'");
  return str_cat("unsupported operand type(s) for ", op == "**" ? "** or pow()" : op, ": '", an, "' and '", bn, "'");
}

}  // namespace ppy::frontend
